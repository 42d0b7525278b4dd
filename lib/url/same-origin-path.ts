// Where to send a user after sign-in: only a path of this site. The value is
// resolved the way a browser would (which drops tabs and newlines and reads
// a backslash as a slash, so "/\t/evil.example" is "//evil.example"), and
// kept only if it stays on the origin.
const ORIGIN = "http://same-origin.invalid";

export function sameOriginPath(value: string | string[] | undefined | null): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  let resolved: URL;
  try {
    resolved = new URL(value, ORIGIN);
  } catch {
    return "/";
  }
  if (resolved.origin !== ORIGIN) return "/";
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
