/**
 * A Starknet node stuck at an older head, in front of the local chain: while frozen it answers the head
 * (`starknet_blockNumber`, `starknet_blockHashAndNumber`, the `latest` block) with the block it was frozen
 * at, timestamp and all, and forwards everything else; the chain behind it moves on. Blocks counted from
 * its head are counted from the past.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listen } from "../../../src/util/listen.js";
import { starknetRpc } from "@htlc-solver/localnet/families/starknet/chain/local-account.js";

interface RpcRequest {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown;
}

interface FrozenBlock {
  block_number: number;
  block_hash: string;
}

const HEAD_METHODS = new Set([
  "starknet_blockNumber",
  "starknet_blockHashAndNumber",
  "starknet_getBlockWithTxHashes",
]);

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function blockIdOf(request: RpcRequest): unknown {
  const { params } = request;
  if (Array.isArray(params)) return params[0];
  if (typeof params === "object" && params !== null) return (params as { block_id?: unknown }).block_id;
  return undefined;
}

export class StuckStarknetNode {
  #server: Server | undefined;
  #frozen: (FrozenBlock & Record<string, unknown>) | null = null;
  /** Head reads answered from the frozen block. */
  frozenAnswers = 0;

  constructor(readonly upstream: string) {}

  get url(): string {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    if (address == null) throw new Error("the stuck node is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      void (async () => {
        const text = await bodyOf(req);
        const parsed = JSON.parse(text) as RpcRequest | RpcRequest[];
        const requests = Array.isArray(parsed) ? parsed : [parsed];
        const answers = await Promise.all(requests.map((r) => this.#answer(r)));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
    await listen(this.#server, 0, "127.0.0.1");
  }

  /** Sticks at the chain's latest block as it is now. */
  async freeze(): Promise<number> {
    this.#frozen = await starknetRpc(this.upstream, "starknet_getBlockWithTxHashes", ["latest"]);
    return this.#frozen!.block_number;
  }

  thaw(): void {
    this.#frozen = null;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #answer(request: RpcRequest): Promise<unknown> {
    const frozen = this.#frozen;
    if (frozen !== null && HEAD_METHODS.has(request.method)) {
      const latest = request.method !== "starknet_getBlockWithTxHashes" || blockIdOf(request) === "latest";
      if (latest) {
        this.frozenAnswers += 1;
        const result =
          request.method === "starknet_blockNumber"
            ? frozen.block_number
            : request.method === "starknet_blockHashAndNumber"
              ? { block_hash: frozen.block_hash, block_number: frozen.block_number }
              : frozen;
        return { jsonrpc: "2.0", id: request.id, result };
      }
    }
    const response = await fetch(this.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    return response.json();
  }
}
