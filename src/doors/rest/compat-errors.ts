import type { ValidationIssue } from '../../domain/errors.js';

/**
 * The compatible search API's `error` text for a refused request: every problem in one sentence,
 * each with the parameter name the caller sent. Wording: a missing parameter is named as missing;
 * a value we cannot take follows that API's own recorded form, "Unsupported value en in hl"
 * (../shared/fixtures/SOURCES-searchapi.md), with our reason after it.
 */
export function compatErrorText(detail: string | ValidationIssue[]): string {
  if (typeof detail === 'string') return detail;
  return detail.map(sentence).join('; ');
}

function sentence(d: ValidationIssue): string {
  const param = d.loc.slice(1).join('.') || String(d.loc[0] ?? 'request');
  if (d.type === 'missing' || d.input === undefined || (d.input === null && d.type === 'enum')) return `Missing required parameter ${param}: ${d.msg}`;
  if (d.type === 'unsupported') return `${param}: ${d.msg}`;
  const shown = typeof d.input === 'string' || typeof d.input === 'number' || typeof d.input === 'boolean' ? ` ${d.input}` : '';
  return `Unsupported value${shown} in ${param}: ${d.msg}`;
}
