/**
 * A JSON-RPC proxy in front of a node (anvil, bitcoind and the local regtest chain, or the local Solana
 * cluster) that, while `holdSends` is on, accepts eth_sendRawTransaction / sendrawtransaction /
 * sendTransaction and never answers or forwards it: the node never sees the transaction, as when a solver
 * dies between journaling a signed transaction and broadcasting it. `loses` picks sends that are answered
 * as accepted (with `acceptedAs`) but never forwarded: a node that took a transaction and lost it.
 * Credentials pass through.
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

const SEND_METHODS = new Set(["eth_sendRawTransaction", "sendrawtransaction", "sendTransaction"]);

/** The id of a single (not batched) request, for answering it here. */
function idOf(body: string): unknown {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    return Array.isArray(parsed) ? undefined : parsed.id;
  } catch {
    return undefined;
  }
}

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
  /** Sends to answer as accepted and drop; `acceptedAs` gives the node's answer for one. */
  loses: ((raw: string) => boolean) | null = null;
  acceptedAs: (raw: string) => unknown = () => null;
  /** Raw transactions answered as accepted and dropped, in arrival order. */
  readonly lost: string[] = [];
  url = "";
  private server: Server | null = null;

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void (async () => {
        const body = await readBody(request);
        const sends = sendsOf(body);
        const lose = this.loses;
        const id = idOf(body);
        if (lose !== null && id !== undefined && sends.length === 1 && lose(sends[0]!)) {
          this.lost.push(sends[0]!);
          response.writeHead(200, { "content-type": "application/json" });
          response.end(JSON.stringify({ jsonrpc: "2.0", id, result: this.acceptedAs(sends[0]!) }));
          return;
        }
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
