/**
 * Host → base URL replacements for board requests (tests point real ATS hosts at a local replay
 * server). The path and query of the request are kept; the replacement may add a path prefix.
 */
export type AtsHostOverrides = Readonly<Record<string, string>>;

export function atsUrl(url: string, overrides: AtsHostOverrides | undefined): string {
  if (!overrides) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const base = overrides[u.hostname.toLowerCase()];
  if (!base) return url;
  return `${base.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}
