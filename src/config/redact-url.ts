const REDACTED = "[redacted]";

/** A path segment that looks like an API key (`/v3/<key>`, `/v2/<key>`): long, with digits, no separators. */
function looksLikeToken(segment: string): boolean {
  return segment.length >= 20 && /^[A-Za-z0-9_-]+$/.test(segment) && /[0-9]/.test(segment);
}

/**
 * Removes credentials from a URL: user info, query values and path segments that look like API keys
 * (RPC providers put keys in the path). Strings that are not URLs are returned unchanged.
 */
export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (!url.host) return value;
  let changed = false;
  if (url.username !== "" || url.password !== "") {
    url.username = REDACTED;
    url.password = "";
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    url.searchParams.set(key, REDACTED);
    changed = true;
  }
  const segments = url.pathname.split("/");
  if (segments.some(looksLikeToken)) {
    url.pathname = segments.map((s) => (looksLikeToken(s) ? REDACTED : s)).join("/");
    changed = true;
  }
  // URL encodes the brackets; put them back so the marker reads the same everywhere.
  return changed ? url.toString().replaceAll("%5Bredacted%5D", REDACTED) : value;
}
