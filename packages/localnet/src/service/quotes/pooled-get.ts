/**
 * GET over node:http with kept-alive connections per solver. `fetch` costs the service several times
 * more CPU per request (its web streams and abort signals were the largest items of the service's CPU
 * profile under load), and a burst of a thousand quotes shares the machine with the solver that answers
 * them. Connections are not capped: a cap queues requests in the service behind a solver that pauses, and
 * that wait counts against the quote timeout (a cap of 64 failed 171 of 1,000 order creations in the load
 * benchmark, none without it).
 */
import { Agent as HttpAgent, get as httpGet, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, get as httpsGet } from "node:https";
import { BodyTooLargeError, readCapped } from "htlc-solver/util/read-capped.js";

/**
 * Every connection a burst opened stays for the next one, and an idle one is closed after 90 s: the
 * defaults of reqwest (hyper's pool), the client a Rust service most likely uses. Node's agent keeps 256,
 * so after each burst of 1,000 the solver accepted and closed 744 connections again.
 */
const IDLE_CONNECTION_MS = 90_000;
/** Largest answer read from a solver: a quote is a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

const agents = {
  http: new HttpAgent({ keepAlive: true, maxFreeSockets: Infinity, timeout: IDLE_CONNECTION_MS }),
  https: new HttpsAgent({ keepAlive: true, maxFreeSockets: Infinity, timeout: IDLE_CONNECTION_MS }),
};

export class PooledGetError extends Error {
  constructor(
    message: string,
    /** `timeout` when no whole answer came within the time allowed. */
    readonly kind: "timeout" | "network" | "too_large",
  ) {
    super(message);
    this.name = "PooledGetError";
  }
}

/** The body of a GET of `url`, whatever its status, read within `timeoutMs` from the request. */
export function pooledGetText(
  url: URL,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  const attempt = (mayRetry: boolean): Promise<string> =>
    new Promise((resolve, reject) => {
      const https = url.protocol === "https:";
      const get = https ? httpsGet : httpGet;
      // The second try goes over a connection of its own: the kept ones went idle together after a
      // burst and the solver closes them together, so another kept one may be closing too (one order
      // creation of 1,000 failed that way in the load benchmark).
      const agent = !mayRetry ? false : https ? agents.https : agents.http;
      const request = get(url, { agent, headers, signal }, (response) => {
        readBody(response).then(resolve, reject);
      });
      request.on("error", (error) => {
        // A kept connection the solver closed as it was reused: the GET never reached it, ask once more.
        const reset = (error as { code?: unknown }).code === "ECONNRESET";
        if (mayRetry && reset && request.reusedSocket && !signal.aborted)
          attempt(false).then(resolve, reject);
        else reject(error);
      });
    });
  return attempt(true).catch((error: unknown) => {
    if (error instanceof PooledGetError) throw error;
    if (signal.aborted) throw new PooledGetError(`no answer within ${timeoutMs} ms`, "timeout");
    throw new PooledGetError(describe(error), "network");
  });
}

function readBody(response: IncomingMessage): Promise<string> {
  return readCapped(response, MAX_ANSWER_BYTES).catch((error: unknown) => {
    if (!(error instanceof BodyTooLargeError)) throw error;
    response.destroy();
    throw new PooledGetError(`answer is larger than ${MAX_ANSWER_BYTES} bytes`, "too_large");
  });
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}
