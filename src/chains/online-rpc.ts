/** One JSON-RPC call to one endpoint, for the online config check (which asks each endpoint on its own). */
import { redactUrlsInText } from "../config/redact-url.js";

/** The endpoint's answer, or throws with the endpoint's error (URLs redacted). */
export async function jsonRpcCall(
  url: string,
  method: string,
  params: unknown[],
  options: { timeoutMs: number; user?: string; password?: string },
): Promise<unknown> {
  const target = new URL(url);
  // Credentials in the URL travel as the Authorization header, as the solver's own clients send them.
  const user = target.username !== "" ? decodeURIComponent(target.username) : (options.user ?? "");
  const password = target.password !== "" ? decodeURIComponent(target.password) : (options.password ?? "");
  target.username = "";
  target.password = "";
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (user !== "" || password !== "")
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const response = await fetch(target, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const body = (await response.json().catch(() => null)) as {
    result?: unknown;
    error?: { message?: string } | null;
  } | null;
  if (body === null) throw new Error(`${method}: HTTP ${response.status}, no JSON-RPC answer`);
  if (body.error !== undefined && body.error !== null)
    throw new Error(`${method}: ${redactUrlsInText(body.error.message ?? "error")}`);
  return body.result;
}

/** An endpoint's failure as text without its URL (it may carry an API key). */
export function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactUrlsInText(text.split("\n")[0] ?? text);
}
