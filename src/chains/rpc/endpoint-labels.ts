import { redactUrl } from "../../config/redact-url.js";

/**
 * The names endpoints go by in errors, logs and status: their URLs as scheme, host and port, made
 * unique (` (2)`, ` (3)`) because two keys of one provider, or two paths of one host, read the same.
 */
export function endpointLabels(urls: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return urls.map((url) => {
    const label = redactUrl(url);
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    return count === 1 ? label : `${label} (${count})`;
  });
}
