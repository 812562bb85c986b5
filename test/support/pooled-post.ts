/**
 * POST over node:http with kept-alive connections, for the RPC proxies in front of the local chains.
 * `fetch` costs several times the CPU per request, and the load benchmark's proxies forward every RPC call
 * of the solver and the service from the process that also runs the users and the local service.
 */
import { Agent, request as httpRequest } from "node:http";
import type { Readable } from "node:stream";

/** Idle connections close after 4 s, before a Node server's own 5 s, so none is reused as it closes. */
const agent = new Agent({ keepAlive: true, maxFreeSockets: Infinity, timeout: 4_000 });

export interface PostAnswer {
  status: number;
  text: string;
}

export function pooledPost(url: string, body: string, headers: Record<string, string>): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (response) => {
        readWhole(response).then((text) => resolve({ status: response.statusCode ?? 0, text }), reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A whole request or answer body as text: the proxies' peers are the tests and the local chains. */
export function readWhole(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}
