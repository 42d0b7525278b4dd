/** A route segment as text; a malformed escape is left as it is rather than failing the page. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
