/**
 * The wait an HTTP `Retry-After` header asks for (RFC 9110 §10.2.3): either delay-seconds (`120`) or an
 * HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`). Null when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Some providers send fractional seconds; accept them rather than fall back to a guess.
  if (/^\d+\.\d+$/.test(text)) return Math.ceil(Number(text) * 1000);
  // An HTTP-date names its day and month; Date.parse alone would read "-5" as a year.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
