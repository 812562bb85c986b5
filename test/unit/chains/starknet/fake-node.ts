/**
 * A small in-test Starknet JSON-RPC node: answers shaped as spec v0.9 (docs/protocol.md, Starknet), each
 * method a replaceable handler, every request recorded. A handler throws `nodeError(...)` to answer with
 * a JSON-RPC error.
 */
import type { JournalView, TxAttemptRef } from "../../../../src/chains/chain.js";
import type { StarknetChainConfig } from "../../../../src/chains/starknet/config.js";
import { MemoryFollowPositions } from "../../../../src/chains/follow-positions.js";
import { createStarknetFamily } from "../../../../src/chains/starknet/family.js";
import { addressHex } from "../../../../src/chains/starknet/felt.js";

export const SOLVER_KEY = `0x${"01".repeat(31)}0d`;
export const SOLVER = addressHex(0x50f7e5n);
export const USER = addressHex(0xabcden);
export const TOKEN = addressHex(0x70c3n);
export const HTLC = addressHex(0x47c1n);
export const STRK = addressHex(0x5f2cn);

class NodeError {
  constructor(
    readonly code: number,
    readonly message: string,
    readonly data?: unknown,
  ) {}
}

export function nodeError(code: number, message: string, data?: unknown): NodeError {
  return new NodeError(code, message, data);
}

type Handler = (params: unknown) => unknown;

export class FakeStarknetNode {
  chainId = "0x534e5f5345504f4c4941";
  block = 1000;
  status: "ACCEPTED_ON_L2" | "ACCEPTED_ON_L1" = "ACCEPTED_ON_L2";
  readonly requests: { method: string; params: unknown }[] = [];
  readonly handlers: Record<string, Handler> = {
    starknet_chainId: () => this.chainId,
    starknet_blockNumber: () => this.block,
    starknet_getBlockWithTxHashes: () => ({
      status: this.status,
      block_number: this.block,
      block_hash: "0x1",
      parent_hash: "0x2",
      timestamp: Math.floor(Date.now() / 1000),
      l1_gas_price: { price_in_fri: "0x10", price_in_wei: "0x1" },
      l2_gas_price: { price_in_fri: "0x20", price_in_wei: "0x1" },
      l1_data_gas_price: { price_in_fri: "0x30", price_in_wei: "0x1" },
      transactions: [],
    }),
  };

  on(method: string, handler: Handler): this {
    this.handlers[method] = handler;
    return this;
  }

  /** The params of every request of a method, in order. */
  paramsOf(method: string): unknown[] {
    return this.requests.filter((r) => r.method === method).map((r) => r.params);
  }

  readonly fetch: typeof fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params: unknown };
    this.requests.push({ method: body.method, params: body.params });
    const handler = this.handlers[body.method];
    let reply: unknown;
    try {
      if (handler === undefined) throw nodeError(-32601, `no method ${body.method}`);
      reply = { jsonrpc: "2.0", id: body.id, result: handler(body.params) };
    } catch (error) {
      if (!(error instanceof NodeError)) throw error;
      reply = {
        jsonrpc: "2.0",
        id: body.id,
        error: { code: error.code, message: error.message, data: error.data },
      };
    }
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}

export function testConfig(overrides: Partial<StarknetChainConfig> = {}): StarknetChainConfig {
  return {
    family: "starknet",
    name: "starknet_test",
    chainId: "SN_SEPOLIA",
    rpcUrls: ["http://node.test:5050"],
    accountAddress: SOLVER,
    orderIdLayout: "deployed",
    finality: "ACCEPTED_ON_L2",
    feeTokenAddress: STRK,
    maxL1GasPriceFri: 1000n,
    maxL2GasPriceFri: 1000n,
    maxL1DataGasPriceFri: 1000n,
    maxFeeFri: 10n ** 12n,
    feeMarginPercent: 50,
    escalationPercent: 25,
    minBlockTimeMs: 1000,
    maxBlockTimeMs: 30_000,
    minConfirmations: 1,
    finalityDepth: 10,
    fillTimelockBlocks: 200,
    bumpAfterMs: 60_000,
    maxHeadLagBlocks: 10,
    rpcTimeoutMs: 1000,
    assets: [
      {
        id: "starknet_test:wbtc",
        chain: "starknet_test",
        symbol: "wbtc",
        decimals: 8,
        tokenAddress: TOKEN,
        htlcAddress: HTLC,
      },
    ],
    ...overrides,
  };
}

export class FakeJournal implements JournalView {
  live: TxAttemptRef[] = [];
  txids: Record<string, string[]> = {};
  liveAttempts(): TxAttemptRef[] {
    return this.live;
  }
  actionTxids(orderId: string, kind: string): string[] {
    return this.txids[`${orderId}:${kind}`] ?? [];
  }
  journaledTx(): null {
    return null;
  }
}

/** The family on a fake node, built from a URL as the product builds it. */
export function familyOn(
  node: FakeStarknetNode,
  options: { config?: Partial<StarknetChainConfig>; pagesPerRead?: number } = {},
) {
  const journal = new FakeJournal();
  const positions = new MemoryFollowPositions();
  const family = createStarknetFamily({
    config: testConfig(options.config),
    key: SOLVER_KEY,
    journal,
    positions,
    rpc: { fetchImpl: node.fetch, pool: { sleep: async () => undefined, maxAttempts: 2 } },
    ...(options.pagesPerRead === undefined ? {} : { reader: { pagesPerRead: options.pagesPerRead } }),
  });
  return { ...family, journal, positions };
}
