/**
 * Removes credentials from URLs, alone (`redactUrl`) or wherever they appear inside a text
 * (`redactUrlsInText`): error messages, stacks, log fields and HTTP answers all go through the latter,
 * because RPC providers put API keys into URLs and client libraries quote the URL when a request fails.
 */
const REDACTED = "[redacted]";

/**
 * A path segment that looks like an API key (`/v3/<key>`, `/v2/<key>`): long, no separators other than
 * `-` and `_`, and either with a digit or with both cases (Alchemy keys may have no digit).
 */
function looksLikeToken(segment: string): boolean {
  if (segment.length < 20 || !/^[A-Za-z0-9_-]+$/.test(segment)) return false;
  return /[0-9]/.test(segment) || (/[a-z]/.test(segment) && /[A-Z]/.test(segment));
}

/**
 * Removes credentials from a URL: user info, query values, the fragment and path segments that look
 * like API keys (RPC providers put keys in the path). Strings that are not URLs are returned unchanged.
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
  if (url.hash !== "") {
    url.hash = REDACTED;
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

/**
 * Anything from a scheme up to the first character that cannot be part of a URL written in prose, JSON
 * or a stack trace (white space, quotes, angle brackets, a backslash of a JSON escape).
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>\\]+/gi;
/** Punctuation that usually closes the sentence around a URL rather than belonging to it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** Every URL inside `text` with its credentials removed (see `redactUrl`); the rest is unchanged. */
export function redactUrlsInText(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    let trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? "";
    // A URL redacted before ends in the marker, whose bracket belongs to it: redacting stays idempotent.
    if (trailing.startsWith("]") && match.slice(0, -trailing.length).endsWith(REDACTED.slice(0, -1)))
      trailing = trailing.slice(1);
    const url = trailing === "" ? match : match.slice(0, -trailing.length);
    return redactUrl(url) + trailing;
  });
}

/**
 * A copy of a JSON-like value in which every string has its URLs redacted. Plain objects and arrays are
 * copied; other objects (Errors, Dates, class instances) are returned as they are, for their own
 * serializers. A cycle is cut where it closes (the original would carry its strings out unredacted);
 * an object reached twice by different paths is redacted both times.
 */
export function redactUrlsDeep(value: unknown, ancestors: Set<object> = new Set()): unknown {
  if (typeof value === "string") return redactUrlsInText(value);
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) return "[Circular]";
  const proto: unknown = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) || proto === Object.prototype || proto === null;
  if (!plain) return value;
  ancestors.add(value);
  const result = Array.isArray(value)
    ? value.map((item) => redactUrlsDeep(item, ancestors))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactUrlsDeep(v, ancestors)]));
  ancestors.delete(value);
  return result;
}
