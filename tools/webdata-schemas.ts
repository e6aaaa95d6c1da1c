import { z } from 'zod';

/** Shared input and output pieces of the web-data families (network, careers, video, apps, retail, trends, job search). */

/** Language of the video-style routes: two or three letters, optionally a hyphen and 2-4 alphanumerics. */
export const hlField = z
  .string()
  .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?$/, 'Input should be a language code such as en or pt-BR')
  .default('en')
  .describe('Language of the page, e.g. en or pt-BR.');
/** Country of the video-style routes: exactly two letters. */
export const glField = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'Input should be a two-letter country code')
  .default('US')
  .describe('Two-letter country the page is requested from.');

export const WebMeta = z.object({
  source: z.string(),
  wire_bytes: z.int(),
  elapsed_s: z.number(),
});

/** Seconds since `started` (a performance.now() value), to the millisecond. */
export function elapsedSince(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
