/**
 * A percent-encoded URL part as text. A part that is not valid percent-encoded UTF-8 (a caller's
 * URL, or a link in an upstream page) stays as it was written instead of failing the call.
 */
export function decodeUrlPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
