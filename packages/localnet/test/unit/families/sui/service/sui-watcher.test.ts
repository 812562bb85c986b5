/**
 * The service's Sui watcher against a node that answers from a table (sui-wire.md's shapes): what it
 * reports of an order's initiate, redeem and refund, and what it refuses to take as a secret.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeOrder } from "../../../../../../../test/support/order-fixture.js";
import { SuiReader } from "htlc-solver/chains/sui/reader.js";
import { SuiRpc } from "htlc-solver/chains/sui/rpc.js";
import { suiReadConfig } from "@htlc-solver/localnet/families/sui/service/sui-read-config.js";
import { SuiWatcher } from "@htlc-solver/localnet/families/sui/service/sui-watcher.js";

const PACKAGE = `0x${"a1".repeat(32)}`;
const OTHER_PACKAGE = `0x${"b2".repeat(32)}`;
const REGISTRY = `0x${"c3".repeat(32)}`;
const SUI_TYPE = `0x${"0".repeat(63)}2::sui::SUI`;
const ORDER_TYPE = `${PACKAGE}::AtomicSwap::Order<${SUI_TYPE}>`;
const INITIATOR = `0x${"d4".repeat(32)}`;
const REDEEMER = `0x${"e5".repeat(32)}`;
const SECRET = "11".repeat(32);
const SECRET_HASH = createHash("sha256").update(Buffer.from(SECRET, "hex")).digest("hex");
const ORDER_ID = "0f".repeat(32);
const INITIATE = "4".repeat(44);
const REDEEM = "5".repeat(44);
const bytes = (hex: string) => Array.from(Buffer.from(hex, "hex"));

interface Node {
  field: { isFulfilled: boolean; previousTransaction: string } | null;
  transactions: Record<
    string,
    { checkpoint: string | null; events: { type: string; parsedJson: unknown }[] }
  >;
  initiatedEvents: { txDigest: string; orderId: string }[];
  calls: string[];
}

function answer(node: Node, method: string, params: unknown[]): unknown {
  node.calls.push(method);
  switch (method) {
    case "sui_getLatestCheckpointSequenceNumber":
      return "10";
    case "sui_getObject":
      return {
        data: {
          objectId: `0x${"0".repeat(63)}6`,
          version: "5",
          digest: "1".repeat(44),
          content: {
            dataType: "moveObject",
            type: "0x2::clock::Clock",
            fields: { timestamp_ms: String(Date.now()) },
          },
        },
      };
    case "suix_getDynamicFieldObject":
      if (node.field === null) return { error: { code: "dynamicFieldNotFound", parent_object_id: REGISTRY } };
      return {
        data: {
          objectId: `0x${"99".repeat(32)}`,
          version: "7",
          digest: "2".repeat(44),
          previousTransaction: node.field.previousTransaction,
          content: {
            dataType: "moveObject",
            type: `0x${"0".repeat(63)}2::dynamic_field::Field<vector<u8>, ${ORDER_TYPE}>`,
            fields: {
              name: bytes(ORDER_ID),
              value: {
                type: ORDER_TYPE,
                fields: {
                  is_fulfilled: node.field.isFulfilled,
                  initiator: INITIATOR,
                  redeemer: REDEEMER,
                  amount: "3000000000",
                  initiated_at: "1700000000000",
                  timelock: "600000",
                },
              },
            },
          },
        },
      };
    case "sui_getTransactionBlock": {
      const tx = node.transactions[params[0] as string];
      if (tx === undefined)
        throw Object.assign(new Error("unknown"), {
          rpc: { code: -32602, message: "Could not find the referenced transaction" },
        });
      return {
        digest: params[0],
        effects: {
          status: { status: "success" },
          gasUsed: {
            computationCost: "1000",
            storageCost: "0",
            storageRebate: "0",
            nonRefundableStorageFee: "0",
          },
          transactionDigest: params[0],
        },
        events: tx.events.map((e, i) => ({
          id: { txDigest: params[0], eventSeq: String(i) },
          packageId: e.type.split("::")[0],
          transactionModule: "AtomicSwap",
          ...e,
        })),
        ...(tx.checkpoint === null ? {} : { checkpoint: tx.checkpoint, timestampMs: "1700000001000" }),
      };
    }
    case "suix_queryEvents": {
      const cursor = params[1] as { eventSeq: string } | null;
      const start = cursor === null ? 0 : Number(cursor.eventSeq) + 1;
      const page = node.initiatedEvents.slice(start, start + 2);
      return {
        data: page.map((e, i) => ({
          id: { txDigest: e.txDigest, eventSeq: String(start + i) },
          type: `${PACKAGE}::AtomicSwap::Initiated`,
          parsedJson: { order_id: bytes(e.orderId) },
        })),
        nextCursor:
          page.length === 0
            ? null
            : { txDigest: page.at(-1)!.txDigest, eventSeq: String(start + page.length - 1) },
        hasNextPage: start + page.length < node.initiatedEvents.length,
      };
    }
    default:
      throw new Error(`unexpected ${method}`);
  }
}

function watcherOn(node: Node): SuiWatcher {
  const fetchImpl = (async (_url: string, init: { body: string }) => {
    const { id, method, params } = JSON.parse(init.body) as { id: number; method: string; params: unknown[] };
    try {
      return Response.json({ jsonrpc: "2.0", id, result: answer(node, method, params) });
    } catch (error) {
      const rpc = (error as { rpc?: unknown }).rpc;
      if (rpc === undefined) throw error;
      return Response.json({ jsonrpc: "2.0", id, error: rpc });
    }
  }) as unknown as typeof fetch;
  const config = suiReadConfig({
    name: "sui_localnet",
    family: "sui",
    chainId: "sui_localnet",
    rpcUrl: "http://127.0.0.1:1",
    packageId: PACKAGE,
    relayerAddress: REDEEMER,
    relayerPrivateKey: "unused",
    requiredConfirmations: 1,
    sourceTimelock: 7_200_000,
    destinationTimelock: 600_000,
    blockTimeMs: 250,
    assets: [
      {
        symbol: "sui",
        name: "Sui",
        decimals: 9,
        coinType: SUI_TYPE,
        registryId: REGISTRY,
        registryInitialSharedVersion: "3",
        priceUsd: "3",
        minAmount: "1",
        maxAmount: "10",
      },
    ],
  });
  const rpc = new SuiRpc(config, { fetchImpl });
  return new SuiWatcher(rpc, new SuiReader(config, rpc), PACKAGE);
}

const initiated = { type: `${PACKAGE}::AtomicSwap::Initiated`, parsedJson: { order_id: bytes(ORDER_ID) } };
const redeemed = (secret: string, type = `${PACKAGE}::AtomicSwap::Redeemed`) => ({
  type,
  parsedJson: { order_id: bytes(ORDER_ID), secret_hash: bytes(SECRET_HASH), secret: bytes(secret) },
});

function swap(overrides: Partial<ReturnType<typeof makeOrder>["source_swap"]> = {}) {
  return {
    ...makeOrder().source_swap,
    chain: "sui_localnet",
    asset: "sui_localnet:sui",
    swap_id: ORDER_ID,
    secret_hash: SECRET_HASH,
    initiate_tx_hash: "",
    redeem_tx_hash: "",
    refund_tx_hash: "",
    ...overrides,
  };
}

describe("the service's Sui watcher", () => {
  it("reports nothing on chain for an order the registry has no field of", async () => {
    const node: Node = { field: null, transactions: {}, initiatedEvents: [], calls: [] };
    expect(await watcherOn(node).observe(swap(), 0n, 10n)).toEqual({ onChain: null });
  });

  it("takes the open order's last transaction as its initiate once it is checkpointed at or below the tip", async () => {
    const node: Node = {
      field: { isFulfilled: false, previousTransaction: INITIATE },
      transactions: { [INITIATE]: { checkpoint: "7", events: [initiated] } },
      initiatedEvents: [],
      calls: [],
    };
    const facts = await watcherOn(node).observe(swap(), 0n, 10n);
    expect(facts.onChain).toEqual({
      initiator: INITIATOR,
      redeemer: REDEEMER,
      timelock: 600000n,
      amount: 3000000000n,
    });
    expect(facts.initiate).toEqual({
      txHash: INITIATE,
      blockNumber: 7n,
      timestamp: new Date(1700000001000).toISOString(),
      filledAmount: 3000000000n,
    });
    // Not yet in a checkpoint, or in one above the poll's tip: not reported (its height would be wrong).
    node.transactions[INITIATE]!.checkpoint = null;
    expect((await watcherOn(node).observe(swap(), 0n, 10n)).initiate).toBeUndefined();
    node.transactions[INITIATE]!.checkpoint = "11";
    expect((await watcherOn(node).observe(swap(), 0n, 10n)).initiate).toBeUndefined();
  });

  it("takes the secret from the configured package's Redeemed event of the order's last transaction", async () => {
    const node: Node = {
      field: { isFulfilled: true, previousTransaction: REDEEM },
      transactions: { [REDEEM]: { checkpoint: "9", events: [redeemed(SECRET)] } },
      initiatedEvents: [],
      calls: [],
    };
    const facts = await watcherOn(node).observe(swap({ initiate_tx_hash: INITIATE }), 0n, 10n);
    expect(facts.redeem).toMatchObject({ txHash: REDEEM, blockNumber: 9n, secret: SECRET });
    expect(facts.refund).toBeUndefined();
  });

  it("ignores a look-alike Redeemed of another package and a secret that does not hash to the order's", async () => {
    const node: Node = {
      field: { isFulfilled: true, previousTransaction: REDEEM },
      transactions: {
        [REDEEM]: {
          checkpoint: "9",
          events: [redeemed(SECRET, `${OTHER_PACKAGE}::AtomicSwap::Redeemed`), redeemed("22".repeat(32))],
        },
      },
      initiatedEvents: [],
      calls: [],
    };
    const facts = await watcherOn(node).observe(swap({ initiate_tx_hash: INITIATE }), 0n, 10n);
    expect(facts.redeem).toBeUndefined();
    expect(facts.refund).toBeUndefined();
  });

  it("reports a refund by the order's Refunded event", async () => {
    const node: Node = {
      field: { isFulfilled: true, previousTransaction: REDEEM },
      transactions: {
        [REDEEM]: {
          checkpoint: "9",
          events: [{ type: `${PACKAGE}::AtomicSwap::Refunded`, parsedJson: { order_id: bytes(ORDER_ID) } }],
        },
      },
      initiatedEvents: [],
      calls: [],
    };
    const facts = await watcherOn(node).observe(swap({ initiate_tx_hash: INITIATE }), 0n, 10n);
    expect(facts.refund).toMatchObject({ txHash: REDEEM, blockNumber: 9n });
    expect(facts.redeem).toBeUndefined();
  });

  it("finds the initiate of an order fulfilled before it was seen among the Initiated events, reading each page once", async () => {
    const other = "7".repeat(44);
    const node: Node = {
      field: { isFulfilled: true, previousTransaction: REDEEM },
      transactions: {
        [INITIATE]: { checkpoint: "5", events: [initiated] },
        [REDEEM]: { checkpoint: "9", events: [redeemed(SECRET)] },
      },
      initiatedEvents: [
        { txDigest: other, orderId: "01".repeat(32) },
        { txDigest: other, orderId: "02".repeat(32) },
        { txDigest: INITIATE, orderId: ORDER_ID },
      ],
      calls: [],
    };
    const watcher = watcherOn(node);
    const facts = await watcher.observe(swap(), 0n, 10n);
    expect(facts.initiate).toMatchObject({ txHash: INITIATE, blockNumber: 5n });
    expect(facts.redeem).toMatchObject({ txHash: REDEEM, secret: SECRET });
    expect(node.calls.filter((m) => m === "suix_queryEvents")).toHaveLength(2);
    // The next poll finds it in what was read: no page is asked for again.
    await watcher.observe(swap(), 0n, 10n);
    expect(node.calls.filter((m) => m === "suix_queryEvents")).toHaveLength(2);
  });

  it("names the method and field of an answer in another shape", async () => {
    const node: Node = {
      field: { isFulfilled: false, previousTransaction: "not a digest" },
      transactions: {},
      initiatedEvents: [],
      calls: [],
    };
    await expect(watcherOn(node).observe(swap(), 0n, 10n)).rejects.toThrow(
      "suix_getDynamicFieldObject on sui_localnet answered in an unexpected shape: data.previousTransaction is not a base58 digest",
    );
  });
});
