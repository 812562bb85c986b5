/** Small in-test Esplora servers: each answers from a route function and records every request. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  path: string;
  body: string;
  authorization: string | undefined;
}

export type Route = (method: string, path: string, body: string) => [number, string, Record<string, string>?];

export interface FakeEsplora {
  /** Base URL, with the `/api` prefix a real server has. */
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function startFakeEsplora(route: Route): Promise<FakeEsplora> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/api/, "");
      seen.push({ method: req.method ?? "GET", path, body, authorization: req.headers.authorization });
      const [status, text, headers = {}] = route(req.method ?? "GET", path, body);
      res.writeHead(status, { "content-type": "text/plain", ...headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Esplora's `/blocks` answer: the newest blocks, the tip first. */
export interface EsploraBlockSummary {
  height: number;
  timestamp: number;
  mediantime: number;
}

/** Blocks a minute apart with the tip mined at `tipTimeMs` (now by default). */
export function tipBlocks(tip: number, tipTimeMs = Date.now()): EsploraBlockSummary[] {
  const tipTime = Math.floor(tipTimeMs / 1000);
  return Array.from({ length: 10 }, (_, i) => ({
    height: tip - i,
    timestamp: tipTime - 60 * i,
    mediantime: tipTime - 60 * (i + 5),
  }));
}
