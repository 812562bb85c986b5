/**
 * A Starknet node in front of the local chain that goes wrong when told. Stuck: it answers the head
 * (`starknet_blockNumber`, `starknet_blockHashAndNumber`, the `latest` block) with the block it was frozen
 * at, timestamp and all, while the chain behind it moves on; blocks counted from its head are counted from
 * the past. Lying about an order's initiation: every transaction that initiated the order id is reported
 * REVERTED, without its events. Everything else is forwarded.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listen } from "../../../src/util/listen.js";
import { starknetRpc } from "@htlc-solver/localnet/families/starknet/chain/local-account.js";
import { EVENT_KEYS } from "../../../src/chains/starknet/htlc-calls.js";

interface RpcRequest {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown;
}

interface RpcAnswer {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: unknown;
}

interface LiedReceipt {
  events?: { keys: string[] }[];
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

export class StarknetNodeProxy {
  #server: Server | undefined;
  #frozen: (FrozenBlock & Record<string, unknown>) | null = null;
  /** Head reads answered from the frozen block. */
  frozenAnswers = 0;
  #hiddenInitiations = new Set<bigint>();
  /** Receipts and statuses turned to REVERTED. */
  liedReverted = 0;

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

  /** From now on reports every transaction that initiated `orderId` (on any HTLC) as REVERTED. */
  sayInitiationsOfReverted(orderId: bigint): void {
    this.#hiddenInitiations.add(orderId);
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
    const answer = await this.#forward(request);
    if (this.#hiddenInitiations.size > 0) return this.#revertedIfInitiation(request, answer);
    return answer;
  }

  async #forward(request: RpcRequest): Promise<RpcAnswer> {
    const response = await fetch(this.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    return (await response.json()) as RpcAnswer;
  }

  async #revertedIfInitiation(request: RpcRequest, answer: RpcAnswer): Promise<RpcAnswer> {
    const isReceipt = request.method === "starknet_getTransactionReceipt";
    if (!isReceipt && request.method !== "starknet_getTransactionStatus") return answer;
    if (answer.result === undefined || answer.result === null) return answer;
    const hash = Array.isArray(request.params)
      ? request.params[0]
      : (request.params as { transaction_hash?: unknown } | undefined)?.transaction_hash;
    const receipt = isReceipt
      ? (answer.result as LiedReceipt)
      : ((await this.#forward({ ...request, method: "starknet_getTransactionReceipt", params: [hash] }))
          .result as LiedReceipt | undefined);
    if (receipt?.events === undefined || !receipt.events.some((e) => this.#initiates(e))) return answer;
    this.liedReverted += 1;
    const reverted = { execution_status: "REVERTED", revert_reason: "HTLC: duplicate order" };
    return {
      ...answer,
      result: isReceipt
        ? { ...receipt, ...reverted, events: [] }
        : {
            ...(answer.result as Record<string, unknown>),
            ...reverted,
            failure_reason: reverted.revert_reason,
          },
    };
  }

  #initiates(event: { keys: string[] }): boolean {
    const [selector, orderId] = event.keys;
    return (
      selector !== undefined &&
      orderId !== undefined &&
      BigInt(selector) === EVENT_KEYS.initiated &&
      this.#hiddenInitiations.has(BigInt(orderId))
    );
  }
}
