import { describe, expect, it } from "vitest";
import type { HtlcParams } from "../../../../src/chains/chain.js";
import { RpcShapeError } from "../../../../src/chains/rpc/rpc-shape-error.js";
import { computeSuiSwapId } from "../../../../src/chains/sui/order-id.js";
import {
  digest,
  FakeSuiNode,
  familyOn,
  OTHER_PACKAGE,
  PACKAGE,
  REGISTRY,
  SECRET,
  SECRET_HASH,
  SOLVER,
  USER,
} from "./fake-node.js";

const TERMS = {
  initiator: USER,
  redeemer: SOLVER,
  secretHash: SECRET_HASH,
  timelock: 86_400_000n,
  amount: 3_000_000_000n,
};
const PARAMS: HtlcParams = {
  chain: "sui_test",
  asset: "sui_test:sui",
  swapId: computeSuiSwapId({ ...TERMS, registry: REGISTRY }),
  ...TERMS,
};
const INITIATED_AT = 1_700_000_000_000n;
const bytes = (hex: string) => Array.from(Buffer.from(hex, "hex"));

function nodeWithOrder(options: { fulfilled?: boolean; checkpoint?: bigint | null } = {}) {
  const node = new FakeSuiNode();
  const previous = digest();
  node.orders.set(PARAMS.swapId, {
    isFulfilled: options.fulfilled ?? false,
    initiator: USER,
    redeemer: SOLVER,
    amount: TERMS.amount,
    initiatedAt: INITIATED_AT,
    timelock: TERMS.timelock,
    previousTransaction: previous,
  });
  node.transactions.set(previous, {
    checkpoint: options.checkpoint === undefined ? 4_990n : options.checkpoint,
    timestampMs: INITIATED_AT + 500n,
  });
  return { node, previous };
}

const redeemed = (pkg: string, secret: Buffer, orderId = PARAMS.swapId) => ({
  type: `${pkg}::AtomicSwap::Redeemed`,
  parsedJson: { order_id: bytes(orderId), secret_hash: bytes(SECRET_HASH), secret: Array.from(secret) },
});

describe("Sui reader", () => {
  it("counts heights on the chain's clock", async () => {
    const node = new FakeSuiNode();
    node.clockMs = BigInt(Date.now()) - 1_234n;
    expect(await familyOn(node).reader.tipHeight()).toBe(node.clockMs);
    expect(node.paramsOf("sui_getObject")[0]?.[0]).toBe(`0x${"0".repeat(63)}6`);
  });

  it("counts from no clock a minute old", async () => {
    const node = new FakeSuiNode();
    node.clockMs = BigInt(Date.now()) - 120_000n;
    await expect(familyOn(node).reader.tipHeight()).rejects.toThrow(/stale/);
  });

  it("reports no lock where the registry has no field", async () => {
    expect(await familyOn(new FakeSuiNode()).reader.readHtlc(PARAMS)).toEqual({
      locks: [],
      onChain: null,
      secret: null,
    });
  });

  it("reads an order's lock: value, parties, and a refund once initiated_at + timelock is past", async () => {
    const { node } = nodeWithOrder();
    const state = await familyOn(node).reader.readHtlc(PARAMS);
    expect(state.onChain).toEqual({
      initiator: USER,
      redeemer: SOLVER,
      timelock: TERMS.timelock,
      amount: TERMS.amount,
    });
    expect(state.locks).toEqual([
      {
        id: PARAMS.swapId,
        fundingTx: null,
        value: TERMS.amount,
        height: INITIATED_AT,
        refundableAtHeight: INITIATED_AT + TERMS.timelock + 1n,
        worthSpending: true,
        spend: null,
      },
    ]);
    expect(state.occupied).toBe(true);
    const [parent, name] = node.paramsOf("suix_getDynamicFieldObject")[0] ?? [];
    expect(parent).toBe(REGISTRY);
    expect(name).toEqual({ type: "vector<u8>", value: bytes(PARAMS.swapId) });
  });

  it("does not count a lock whose transaction is not in a checkpoint finalityDepth deep", async () => {
    const { node } = nodeWithOrder({ checkpoint: null });
    expect((await familyOn(node).reader.readHtlc(PARAMS)).locks[0]?.height).toBeNull();
    const deep = nodeWithOrder({ checkpoint: 4_999n });
    const family = familyOn(deep.node, undefined, { finalityDepth: 3 });
    expect((await family.reader.readHtlc(PARAMS)).locks[0]?.height).toBeNull();
  });

  it("reads the secret from the fulfilling transaction's Redeemed event, ignoring look-alikes", async () => {
    const { node, previous } = nodeWithOrder({ fulfilled: true });
    node.transactions.set(previous, {
      checkpoint: 4_995n,
      timestampMs: INITIATED_AT + 9_000n,
      events: [
        redeemed(OTHER_PACKAGE, SECRET),
        redeemed(PACKAGE, Buffer.alloc(32, 9)),
        redeemed(PACKAGE, SECRET, "00".repeat(32)),
        redeemed(PACKAGE, SECRET),
      ],
    });
    const state = await familyOn(node).reader.readHtlc(PARAMS);
    expect(state.secret).toBe(SECRET.toString("hex"));
    expect(state.locks[0]?.spend).toEqual({ kind: "redeem", txid: previous, height: INITIATED_AT + 9_000n });
  });

  it.each([
    ["another package's event", [redeemed(OTHER_PACKAGE, SECRET)]],
    ["a secret of another hash", [redeemed(PACKAGE, Buffer.alloc(32, 9))]],
    ["another order's event", [redeemed(PACKAGE, SECRET, "11".repeat(32))]],
  ])("reveals no secret from %s", async (_what, events) => {
    const { node, previous } = nodeWithOrder({ fulfilled: true });
    node.transactions.set(previous, { checkpoint: 4_995n, timestampMs: INITIATED_AT + 9_000n, events });
    const state = await familyOn(node).reader.readHtlc(PARAMS);
    expect(state.secret).toBeNull();
    expect(state.locks[0]?.spend).toEqual({ kind: "unknown", txid: null, height: null });
  });

  it("tells an instant refund (before expiry) from a refund", async () => {
    const { node, previous } = nodeWithOrder({ fulfilled: true });
    const refunded = {
      type: `${PACKAGE}::AtomicSwap::Refunded`,
      parsedJson: { order_id: bytes(PARAMS.swapId) },
    };
    node.transactions.set(previous, {
      checkpoint: 4_995n,
      timestampMs: INITIATED_AT + 1_000n,
      events: [refunded],
    });
    expect((await familyOn(node).reader.readHtlc(PARAMS)).locks[0]?.spend?.kind).toBe("instant_refund");
    node.transactions.set(previous, {
      checkpoint: 4_995n,
      timestampMs: INITIATED_AT + TERMS.timelock + 1n,
      events: [refunded],
    });
    expect((await familyOn(node).reader.readHtlc(PARAMS)).locks[0]?.spend?.kind).toBe("refund");
  });

  it("refuses a stated swap id in another spelling", async () => {
    const { node } = nodeWithOrder();
    for (const swapId of [PARAMS.swapId.toUpperCase(), `0x${PARAMS.swapId}`, PARAMS.swapId.slice(2)])
      await expect(familyOn(node).reader.readHtlc({ ...PARAMS, swapId })).rejects.toThrow(
        /64 lower-case hex/,
      );
  });

  it("names the method and field of a node that lies about an order", async () => {
    const { node } = nodeWithOrder();
    const honest = node.handlers.suix_getDynamicFieldObject!;
    node.on("suix_getDynamicFieldObject", (params) => {
      const answer = honest(params) as {
        data: { content: { fields: { value: { fields: Record<string, unknown> } } } };
      };
      answer.data.content.fields.value.fields.amount = "3e9";
      return answer;
    });
    const read = familyOn(node).reader.readHtlc(PARAMS);
    await expect(read).rejects.toThrow(RpcShapeError);
    await expect(familyOn(node).reader.readHtlc(PARAMS)).rejects.toThrow(
      /suix_getDynamicFieldObject .*value\.fields\.amount is not a decimal u64/,
    );
  });

  it("refuses a field holding another package's order", async () => {
    const { node } = nodeWithOrder();
    node.orders.get(PARAMS.swapId)!.packageId = OTHER_PACKAGE;
    await expect(familyOn(node).reader.readHtlc(PARAMS)).rejects.toThrow(/not 0x0*2::dynamic_field::Field/);
  });
});
