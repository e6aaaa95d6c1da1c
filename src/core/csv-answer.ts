import { toCsv, type CsvValue } from '../domain/csv.js';
import { RawBody } from './raw-body.js';

/**
 * CSV answers: a route that also answers CSV (a descriptor's `csv`) does so when the caller asks
 * `format=csv` or sends `Accept: text/csv` (and no `format=json`). The bytes go out as a download
 * (RawBody: text/csv, UTF-8, RFC 4180 with a header row).
 */
export function wantsCsv(format: 'json' | 'csv' | undefined, headers: Record<string, string | undefined>): boolean {
  if (format) return format === 'csv';
  return /(^|,)\s*text\/csv\b/i.test(headers.accept ?? '');
}

export function csvAnswer(filename: string, header: readonly string[], rows: readonly (readonly CsvValue[])[]): RawBody {
  return new RawBody('text/csv; charset=utf-8', Buffer.from(toCsv(header, rows), 'utf8'), filename);
}
