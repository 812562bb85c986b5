/**
 * A small in-test Sui JSON-RPC node: answers shaped as sui-wire's list of methods (the SDK's
 * jsonRpc/types/generated.d.ts), each method a replaceable handler, every request recorded. A handler
 * throws `nodeError(...)` to answer with a JSON-RPC error.
 */
import { createHash, randomBytes } from "node:crypto";
import { toBase58 } from "@mysten/sui/utils";
import type { JournalView, TxAttemptRef } from "../../../../src/chains/chain.js";
import { SUI_COIN_TYPE } from "../../../../src/chains/sui/address.js";
import type { SuiChainConfig } from "../../../../src/chains/sui/config.js";
import { createSuiFamily } from "../../../../src/chains/sui/family.js";
import { suiAddressOfKey } from "../../../../src/chains/sui/key.js";

export const SOLVER_KEY = `0x${"2a".repeat(32)}`;
export const SOLVER = suiAddressOfKey(SOLVER_KEY);
export const USER = `0x${"ab".repeat(32)}`;
export const PACKAGE = `0x${"99".repeat(32)}`;
export const OTHER_PACKAGE = `0x${"66".repeat(32)}`;
export const REGISTRY = `0x${"5c".repeat(32)}`;
export const SECRET = Buffer.alloc(32, 7);
export const SECRET_HASH = createHash("sha256").update(SECRET).digest("hex");

export function digest(): string {
  return toBase58(randomBytes(32));
}

export function objectId(): string {
  return `0x${randomBytes(32).toString("hex")}`;
}

class NodeError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

export function nodeError(code: number, message: string): NodeError {
  return new NodeError(code, message);
}

type Handler = (params: unknown[]) => unknown;

export interface FakeOrder {
  isFulfilled?: boolean;
  initiator: string;
  redeemer: string;
  amount: bigint;
  initiatedAt: bigint;
  timelock: bigint;
  previousTransaction: string;
  coinType?: string;
  packageId?: string;
}

export interface FakeTx {
  status?: "success" | "failure";
  error?: string;
  checkpoint?: bigint | null;
  timestampMs?: bigint | null;
  events?: { type: string; parsedJson: unknown }[];
  gas?: { computationCost: bigint; storageCost: bigint; storageRebate: bigint };
}

export interface FakeCoin {
  coinType: string;
  coinObjectId: string;
  version: bigint;
  digest: string;
  balance: bigint;
}

/** Nodes print framework types short: `0x2::sui::SUI`. */
const short = (type: string) => type.replace(/0x0{63}2::/g, "0x2::");
const orderType = (pkg: string, coin: string) => `${pkg}::AtomicSwap::Order<${short(coin)}>`;

export class FakeSuiNode {
  checkpoint = 5_000n;
  clockMs = BigInt(Date.now());
  referenceGasPrice = 1_000n;
  readonly orders = new Map<string, FakeOrder>();
  readonly transactions = new Map<string, FakeTx>();
  readonly coins: FakeCoin[] = [];
  readonly objectVersions = new Map<string, bigint>();
  /** The transaction that last changed an owned object, where a test sets it. */
  readonly objectWriters = new Map<string, string>();
  dryRunGas = { computationCost: 1_000_000n, storageCost: 3_000_000n, storageRebate: 1_000_000n };
  dryRunError: string | null = null;
  readonly requests: { method: string; params: unknown[] }[] = [];
  readonly handlers: Record<string, Handler> = {
    sui_getLatestCheckpointSequenceNumber: () => this.checkpoint.toString(),
    suix_getReferenceGasPrice: () => this.referenceGasPrice.toString(),
    sui_getObject: ([id]) => this.object(String(id)),
    suix_getDynamicFieldObject: ([parent, name]) => this.field(String(parent), name as { value: number[] }),
    sui_getTransactionBlock: ([id]) => {
      const tx = this.transactions.get(String(id));
      if (tx === undefined)
        throw nodeError(-32602, `Could not find the referenced transaction [${String(id)}]`);
      return this.txResponse(String(id), tx);
    },
    suix_getCoins: ([_owner, coinType, cursor]) => {
      const all = this.coins.filter((c) => c.coinType === coinType);
      const start = cursor === null ? 0 : Number(cursor);
      const page = all.slice(start, start + 2);
      const next = start + 2 < all.length ? String(start + 2) : null;
      return {
        data: page.map((c) => ({
          ...c,
          coinType: short(c.coinType),
          version: c.version.toString(),
          balance: c.balance.toString(),
        })),
        nextCursor: next,
        hasNextPage: next !== null,
      };
    },
    suix_getBalance: ([_owner, coinType]) => ({
      coinType,
      coinObjectCount: 1,
      totalBalance: this.coins
        .filter((c) => c.coinType === coinType)
        .reduce((s, c) => s + c.balance, 0n)
        .toString(),
      lockedBalance: {},
    }),
    sui_dryRunTransactionBlock: () => ({
      effects: {
        status:
          this.dryRunError === null ? { status: "success" } : { status: "failure", error: this.dryRunError },
        gasUsed: this.gasJson(this.dryRunGas),
        transactionDigest: digest(),
      },
    }),
  };

  on(method: string, handler: Handler): this {
    this.handlers[method] = handler;
    return this;
  }

  paramsOf(method: string): unknown[][] {
    return this.requests.filter((r) => r.method === method).map((r) => r.params);
  }

  gasJson(gas: { computationCost: bigint; storageCost: bigint; storageRebate: bigint }) {
    return {
      computationCost: gas.computationCost.toString(),
      storageCost: gas.storageCost.toString(),
      storageRebate: gas.storageRebate.toString(),
      nonRefundableStorageFee: "0",
    };
  }

  txResponse(id: string, tx: FakeTx) {
    return {
      digest: id,
      effects: {
        status:
          tx.status === "failure"
            ? { status: "failure", error: tx.error ?? "failure" }
            : { status: "success" },
        gasUsed: this.gasJson(tx.gas ?? { computationCost: 1000n, storageCost: 2000n, storageRebate: 500n }),
        transactionDigest: id,
      },
      events: (tx.events ?? []).map((event, i) => ({
        id: { txDigest: id, eventSeq: String(i) },
        packageId: event.type.split("::")[0],
        transactionModule: "AtomicSwap",
        sender: USER,
        type: event.type,
        parsedJson: event.parsedJson,
        bcs: "",
      })),
      ...(tx.checkpoint === null || tx.checkpoint === undefined
        ? {}
        : { checkpoint: tx.checkpoint.toString() }),
      ...(tx.timestampMs === null || tx.timestampMs === undefined
        ? {}
        : { timestampMs: tx.timestampMs.toString() }),
    };
  }

  object(id: string): unknown {
    if (id === "0x0000000000000000000000000000000000000000000000000000000000000006")
      return {
        data: {
          objectId: id,
          version: "1",
          digest: digest(),
          content: {
            dataType: "moveObject",
            type: "0x2::clock::Clock",
            fields: { timestamp_ms: this.clockMs.toString() },
          },
        },
      };
    if (id === REGISTRY)
      return {
        data: {
          objectId: id,
          version: "700",
          digest: digest(),
          type: `${PACKAGE}::AtomicSwap::OrdersRegistry<0x2::sui::SUI>`,
          owner: { Shared: { initial_shared_version: 42 } },
        },
      };
    const version = this.objectVersions.get(id);
    if (version === undefined) return { error: { code: "notExists", object_id: id } };
    const writer = this.objectWriters.get(id);
    return {
      data: {
        objectId: id,
        version: version.toString(),
        digest: digest(),
        ...(writer === undefined ? {} : { previousTransaction: writer }),
      },
    };
  }

  field(parent: string, name: { value: number[] }): unknown {
    const key = Buffer.from(name.value).toString("hex");
    const order = parent === REGISTRY ? this.orders.get(key) : undefined;
    if (order === undefined) return { error: { code: "dynamicFieldNotFound", parent_object_id: parent } };
    const coin = order.coinType ?? SUI_COIN_TYPE;
    const type = orderType(order.packageId ?? PACKAGE, coin);
    return {
      data: {
        objectId: objectId(),
        version: "900",
        digest: digest(),
        type: `0x2::dynamic_field::Field<vector<u8>, ${type}>`,
        previousTransaction: order.previousTransaction,
        content: {
          dataType: "moveObject",
          type: `0x2::dynamic_field::Field<vector<u8>, ${type}>`,
          hasPublicTransfer: false,
          fields: {
            id: { id: objectId() },
            name: name.value,
            value: {
              type,
              fields: {
                id: { id: objectId() },
                is_fulfilled: order.isFulfilled ?? false,
                initiator: order.initiator,
                redeemer: order.redeemer,
                amount: order.amount.toString(),
                initiated_at: order.initiatedAt.toString(),
                timelock: order.timelock.toString(),
                coins: { type: `0x2::coin::Coin<${coin}>`, fields: { id: { id: objectId() }, balance: "0" } },
              },
            },
          },
        },
      },
    };
  }

  readonly fetch: typeof fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params: unknown[] };
    this.requests.push({ method: body.method, params: body.params });
    const handler = this.handlers[body.method];
    let reply: unknown;
    try {
      if (handler === undefined) throw nodeError(-32601, `no method ${body.method}`);
      reply = { jsonrpc: "2.0", id: body.id, result: handler(body.params) };
    } catch (error) {
      if (!(error instanceof NodeError)) throw error;
      reply = { jsonrpc: "2.0", id: body.id, error: { code: error.code, message: error.message } };
    }
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}

export function testConfig(overrides: Partial<SuiChainConfig> = {}): SuiChainConfig {
  return {
    family: "sui",
    name: "sui_test",
    rpcUrls: ["http://node.test:9000"],
    packageId: PACKAGE,
    solverAddress: "",
    registryInitialSharedVersions: {},
    gasBudgetMarginPercent: 20,
    maxGasBudgetMist: 50_000_000n,
    maxGasPriceMist: 5_000n,
    minBlockTimeMs: 1,
    maxBlockTimeMs: 1,
    minConfirmations: 1,
    finalityDepth: 1,
    fillTimelockBlocks: 3_600_000,
    bumpAfterMs: 30_000,
    maxHeadLagBlocks: 40,
    rpcTimeoutMs: 1000,
    assets: [
      {
        id: "sui_test:sui",
        chain: "sui_test",
        symbol: "sui",
        decimals: 9,
        tokenAddress: SUI_COIN_TYPE,
        htlcAddress: REGISTRY,
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
  node: FakeSuiNode,
  journal = new FakeJournal(),
  overrides: Partial<SuiChainConfig> = {},
) {
  return createSuiFamily({
    config: testConfig(overrides),
    key: SOLVER_KEY,
    journal,
    rpc: { fetchImpl: node.fetch, pool: { maxAttempts: 1 } },
  });
}
