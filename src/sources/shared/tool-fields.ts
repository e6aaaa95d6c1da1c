/**
 * Input fields and output pieces the OTA, rental, official and compare tools share, so every
 * route validates a stay the same way.
 */
import { z } from 'zod';
import { futureDate } from '../../domain/codes.js';
import { ProvenanceSchema } from '../../domain/provenance.js';

/** The one stay-date field (src/domain/codes.ts: `YYYY-MM-DD`, not in the past), offered here beside the other stay fields. */
export { futureDate };
export const digits = (max = 25) => z.string().regex(/^\d+$/, 'digits only').min(1).max(max);
export const nightsField = (max: number) => z.int().min(1).max(max).default(1).describe('Nights of the stay, when check_out is not given.');
export const adultsField = (max: number) => z.int().min(1).max(max).default(2).describe('Adults staying.');

/** One stay as the stay routes take it (see `stayWindow`: check_out wins over nights), with its adults. */
export const stayFields = (maxNights: number, maxAdults: number) => ({
  check_in: futureDate.describe('arrival date'),
  check_out: futureDate.nullable().optional().describe('departure date; wins over nights'),
  nights: nightsField(maxNights).describe('nights of the stay'),
  adults: adultsField(maxAdults).describe('adult guests'),
});

export const provenance = ProvenanceSchema;
export const nullableProvenance = ProvenanceSchema.nullable();
