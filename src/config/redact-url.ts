/**
 * How the solver shows a URL anywhere (log lines, error messages, metric labels, `config check`,
 * `/status`, the CLI): alone (`redactUrl`) or wherever it appears inside a text (`redactUrlsInText`):
 * error messages, stacks, log fields and HTTP answers all go through the latter, because client
 * libraries quote the URL when a request fails.
 */

/**
 * A URL as scheme, host and port only. RPC providers put API keys in the path (Infura, Alchemy,
 * QuickNode), in the query or in the user info, in forms no pattern can tell from an ordinary path, so
 * nothing after the host is ever shown. Strings that are not URLs are returned unchanged.
 */
export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not a URL the parser takes, yet written like one: cut it after the authority all the same.
    const written = URL_START.exec(value);
    return written === null ? value : `${written[1]}//${written[2]}`;
  }
  if (!url.host) return value;
  return `${url.protocol}//${url.host}`;
}

/** A scheme, then the authority without its user info. */
const URL_START = /^([a-z][a-z0-9+.-]*:)\/\/(?:[^/?#@]*@)?([^/?#]*)/i;

/**
 * Anything from a scheme up to the first character that cannot be part of a URL written in prose, JSON
 * or a stack trace (white space, quotes, angle brackets, a backslash of a JSON escape).
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>\\]+/gi;
/** Punctuation that usually closes the sentence around a URL rather than belonging to it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** Every URL inside `text` shown as scheme, host and port (see `redactUrl`); the rest is unchanged. */
export function redactUrlsInText(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? "";
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
