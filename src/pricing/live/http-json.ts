/** One GET of a public JSON endpoint, bounded in time; anything but a 200 with JSON is an error. */
import { PriceFetchError } from "./observation.js";

export async function getJson(url: string, timeoutMs: number, label: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const detail = timedOut
      ? `no answer within ${timeoutMs} ms`
      : `request failed (${(error as Error).message})`;
    throw new PriceFetchError(label, detail, { cause: error });
  }
  const text = await response.text();
  if (response.status !== 200) {
    throw new PriceFetchError(label, `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PriceFetchError(label, `answer is not JSON: ${text.slice(0, 200)}`);
  }
}
