/**
 * CSV as RFC 4180 writes it: CRLF line ends, a header row, a field quoted when it holds a comma, a
 * quote or a line break (quotes doubled). An absent value (null) is an empty field, never a 0.
 * UTF-8 without a byte-order mark.
 */
export type CsvValue = string | number | boolean | null;

function csvField(v: CsvValue): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  let out = csvLine(header);
  for (const r of rows) out += csvLine(r);
  return out;
}
