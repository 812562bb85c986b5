/**
 * A JSON-RPC proxy in front of a node (anvil, or bitcoind and the local regtest chain) that, while
 * `holdSends` is on, accepts eth_sendRawTransaction / sendrawtransaction and never answers or forwards
 * it: the node never sees the transaction, as when a solver dies between journaling a signed transaction
 * and broadcasting it. Credentials pass through.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface RpcRequest {
  method?: string;
  params?: unknown[];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

const SEND_METHODS = new Set(["eth_sendRawTransaction", "sendrawtransaction"]);

function sendsOf(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    return calls.filter((c) => SEND_METHODS.has(c.method ?? "")).map((c) => String(c.params?.[0]));
  } catch {
    return [];
  }
}

export class HoldingRpcProxy {
  holdSends = false;
  /** Raw transactions held back, in arrival order. */
  readonly held: string[] = [];
  url = "";
  private server: Server | null = null;

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void (async () => {
        const body = await readBody(request);
        const sends = sendsOf(body);
        if (this.holdSends && sends.length > 0) {
          this.held.push(...sends);
          return; // no answer: the caller waits until it dies
        }
        const upstream = await fetch(this.upstream, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
          },
          body,
        });
        response.writeHead(upstream.status, { "content-type": "application/json" });
        response.end(await upstream.text());
      })().catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
