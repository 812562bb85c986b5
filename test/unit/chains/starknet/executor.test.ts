import { createHash } from "node:crypto";
import { ec } from "starknet";
import { describe, expect, it } from "vitest";
import type { ActionRequest, HtlcParams, TxAttemptRef } from "../../../../src/chains/chain.js";
import { AlreadyOnChainError, RefusedForGoodError } from "../../../../src/chains/seam-errors.js";
import { StarknetActionError } from "../../../../src/chains/starknet/errors.js";
import { bytesToWords, feltHex, secretHashWords } from "../../../../src/chains/starknet/felt.js";
import { VALIDATE_L2_GAS } from "../../../../src/chains/starknet/fee-policy.js";
import { decodeExecuteCalldata, SELECTORS } from "../../../../src/chains/starknet/htlc-calls.js";
import { invokeHash, invokeOfRaw, draftOfInvoke } from "../../../../src/chains/starknet/invoke.js";
import { computeStarknetSwapId } from "../../../../src/chains/starknet/order-id.js";
import { instantRefundTypedData, messageHash } from "../../../../src/chains/starknet/snip12.js";
import { FakeStarknetNode, familyOn, HTLC, nodeError, SOLVER, SOLVER_KEY, TOKEN, USER } from "./fake-node.js";

const SECRET = Buffer.alloc(32, 3);
const SECRET_HASH = createHash("sha256").update(SECRET).digest("hex");

function params(initiator: string, redeemer: string): HtlcParams {
  const base = {
    chain: "starknet_test",
    asset: "starknet_test:wbtc",
    initiator,
    redeemer,
    secretHash: SECRET_HASH,
    timelock: 200n,
    amount: 70_000n,
  };
  return {
    swapId: computeStarknetSwapId({ layout: "deployed", chainId: "SN_SEPOLIA", htlc: HTLC, ...base }),
    ...base,
  };
}

const FILL: ActionRequest = { kind: "fill", orderId: "order-1", params: params(SOLVER, USER) };

const ESTIMATE = {
  l1_gas_consumed: "0x0",
  l1_gas_price: "0x10",
  l2_gas_consumed: "0x100000",
  l2_gas_price: "0x20",
  l1_data_gas_consumed: "0x80",
  l1_data_gas_price: "0x30",
  overall_fee: "0x2001800",
  unit: "FRI",
};

/** A node where the order is absent (or `order`), the account's nonce is `nonce` and estimates succeed. */
function chainNode(options: { nonce?: number; order?: bigint[] } = {}): FakeStarknetNode {
  const node = new FakeStarknetNode();
  return node
    .on("starknet_getNonce", () => feltHex(BigInt(options.nonce ?? 5)))
    .on("starknet_estimateFee", () => [ESTIMATE])
    .on("starknet_call", (request) => {
      const [call] = request as [{ entry_point_selector: string }];
      if (call.entry_point_selector === SELECTORS.getOrder)
        return (options.order ?? Array(7).fill(0n)).map(feltHex);
      throw nodeError(40, "unexpected call");
    });
}

function attemptOf(signed: {
  txHash: string;
  raw: string;
  nonce: bigint | null;
  terms: TxAttemptRef["terms"];
}) {
  return { id: 1, chain: "starknet_test", createdAtMs: 0, ...signed };
}

describe("the Starknet executor", () => {
  it("fills with one invoke: approve of exactly the amount, then initiate, signed by the account's key", async () => {
    const { executor } = familyOn(chainNode());
    const signed = await executor.build([FILL]);
    const invoke = invokeOfRaw(signed.raw);
    const calls = decodeExecuteCalldata(invoke.calldata.map((f) => BigInt(f)));
    expect(calls.map((c) => [feltHex(c.to), feltHex(c.selector)])).toEqual([
      [feltHex(BigInt(TOKEN)), SELECTORS.approve],
      [feltHex(BigInt(HTLC)), SELECTORS.initiate],
    ]);
    expect(calls[0]?.calldata).toEqual([BigInt(HTLC), 70_000n, 0n]);
    expect(calls[1]?.calldata).toEqual([BigInt(USER), 200n, 70_000n, 0n, ...secretHashWords(SECRET_HASH)]);
    expect(signed.nonce).toBe(5n);
    const draft = draftOfInvoke("SN_SEPOLIA", invoke);
    expect(feltHex(invokeHash(draft))).toBe(signed.txHash);
    const [r, s] = invoke.signature.map((f) => BigInt(f));
    const signature = new ec.starkCurve.Signature(r!, s!);
    expect(ec.starkCurve.verify(signature, signed.txHash, ec.starkCurve.getPublicKey(SOLVER_KEY))).toBe(true);
  });

  it("bounds the fee by the estimate with its margin, validation included, each price capped at its ceiling", async () => {
    const node = chainNode().on("starknet_estimateFee", () => [{ ...ESTIMATE, l2_gas_price: "0x3e8" }]);
    const { executor } = familyOn(node);
    const signed = await executor.build([FILL]);
    if (signed.terms.family !== "starknet") throw new Error("not Starknet terms");
    expect(signed.terms.l2Gas.maxAmount).toBe(((0x100000n + VALIDATE_L2_GAS) * 150n + 99n) / 100n);
    // 1000 × 1.5 would pass the ceiling of 1000.
    expect(signed.terms.l2Gas.maxPricePerUnit).toBe(1000n);
    expect(signed.terms.l1DataGas).toEqual({ maxAmount: 192n, maxPricePerUnit: 72n });
    const [estimate] = node.paramsOf("starknet_estimateFee") as [[unknown[], string[]]];
    expect(estimate[1]).toEqual(["SKIP_VALIDATE"]);
  });

  it("refuses to sign past the fee ceiling, unless an urgent action's allowance covers it", async () => {
    const { executor } = familyOn(chainNode(), { config: { maxFeeFri: 1000n } });
    await expect(executor.build([FILL])).rejects.toThrow(/passes the ceiling of 1000 FRI/);
    const allowed = await executor.build([FILL], { maxFee: 10n ** 12n, reason: "urgent" });
    expect(allowed.nonce).toBe(5n);
  });

  it("takes the next nonce past the journal's live attempts and past builds not yet journaled", async () => {
    const { executor, journal } = familyOn(chainNode({ nonce: 5 }));
    journal.live = [
      {
        id: 9,
        chain: "starknet_test",
        txHash: "0x9",
        raw: "",
        nonce: 6n,
        terms: null as never,
        createdAtMs: 0,
      },
    ];
    expect((await executor.build([FILL])).nonce).toBe(7n);
    expect((await executor.build([FILL])).nonce).toBe(8n);
  });

  it("refuses a call the node's estimate shows would fail, naming the contract's error", async () => {
    const node = chainNode().on("starknet_estimateFee", () => {
      throw nodeError(41, "Transaction execution error", { execution_error: "HTLC: duplicate order" });
    });
    await expect(familyOn(node).executor.build([FILL])).rejects.toThrow(/would fail .*HTLC: duplicate order/);
  });

  it("does not fill an order the HTLC already holds as the solver's, nor a stated id that does not recompute", async () => {
    const p = FILL.params;
    const order = [0n, BigInt(SOLVER), BigInt(USER), 10n, p.timelock, p.amount, 0n];
    await expect(familyOn(chainNode({ order })).executor.build([FILL])).rejects.toBeInstanceOf(
      AlreadyOnChainError,
    );
    const lying = { ...FILL, params: { ...p, swapId: params(SOLVER, SOLVER).swapId } };
    await expect(familyOn(chainNode()).executor.build([lying])).rejects.toThrow(/differs from/);
    const notOurs = { ...FILL, params: params(USER, SOLVER) };
    await expect(familyOn(chainNode()).executor.build([notOurs])).rejects.toThrow(/is not the solver/);
  });

  it("redeems with the secret as u32 words, and refuses a secret that does not hash to the order's", async () => {
    const p = params(USER, SOLVER);
    const order = [0n, BigInt(USER), BigInt(SOLVER), 10n, p.timelock, p.amount, 0n];
    const redeem: ActionRequest = {
      kind: "redeem",
      orderId: "o",
      params: p,
      secret: SECRET.toString("hex"),
      locks: [p.swapId],
    };
    const { executor } = familyOn(chainNode({ order }));
    const signed = await executor.build([redeem]);
    const [call] = decodeExecuteCalldata(invokeOfRaw(signed.raw).calldata.map((f) => BigInt(f)));
    expect(call?.calldata).toEqual([BigInt(`0x${p.swapId}`), 8n, ...bytesToWords(SECRET)]);
    await expect(executor.build([{ ...redeem, secret: "00".repeat(32) }])).rejects.toThrow(/does not hash/);
  });

  it("signs the instant refund the stored redeemer's account checks, SNIP-12 over the order id", async () => {
    const p = params(USER, SOLVER);
    const order = [0n, BigInt(USER), BigInt(SOLVER), 10n, p.timelock, p.amount, 0n];
    const { executor } = familyOn(chainNode({ order }));
    const signed = await executor.build([
      { kind: "instant_refund", orderId: "o", params: p, locks: [p.swapId] },
    ]);
    const [call] = decodeExecuteCalldata(invokeOfRaw(signed.raw).calldata.map((f) => BigInt(f)));
    const orderId = BigInt(`0x${p.swapId}`);
    expect(call?.selector).toBe(BigInt(SELECTORS.instantRefund));
    expect(call?.calldata.slice(0, 2)).toEqual([orderId, 2n]);
    const hash = messageHash(instantRefundTypedData("deployed", "SN_SEPOLIA", orderId, HTLC), SOLVER);
    const signature = new ec.starkCurve.Signature(call!.calldata[2]!, call!.calldata[3]!);
    expect(ec.starkCurve.verify(signature, feltHex(hash), ec.starkCurve.getPublicKey(SOLVER_KEY))).toBe(true);
    // A refund needs the solver as initiator: this order's is the user.
    await expect(
      executor.build([{ kind: "refund", orderId: "o", params: p, locks: [p.swapId] }]),
    ).rejects.toThrow(/initiator .* to be the solver/);
  });

  it("replaces a pending invoke at its nonce with tip and L2 price each raised by at least 10%, never past the ceiling", async () => {
    const { executor } = familyOn(chainNode(), { config: { escalationPercent: 10 } });
    const first = await executor.build([FILL]);
    const bumped = await executor.bump(attemptOf(first), [FILL]);
    if (bumped === null || first.terms.family !== "starknet" || bumped.terms.family !== "starknet")
      throw new Error("no replacement");
    expect(bumped.nonce).toBe(first.nonce);
    expect(bumped.terms.tip * 10n).toBeGreaterThanOrEqual(first.terms.tip * 11n);
    expect(bumped.terms.l2Gas.maxPricePerUnit * 10n).toBeGreaterThanOrEqual(
      first.terms.l2Gas.maxPricePerUnit * 11n,
    );
    expect(bumped.terms.l1DataGas).toEqual(first.terms.l1DataGas);
    expect(invokeOfRaw(bumped.raw).calldata).toEqual(invokeOfRaw(first.raw).calldata);
    let attempt = attemptOf(bumped);
    for (let i = 0; i < 40; i++) {
      const next = await executor.bump(attempt, [FILL]);
      if (next === null) break;
      if (next.terms.family !== "starknet") throw new Error("not Starknet terms");
      expect(next.terms.l2Gas.maxPricePerUnit).toBeLessThanOrEqual(1000n);
      attempt = attemptOf(next);
    }
    expect(await executor.bump(attempt, [FILL])).toBeNull();
  });

  it("reports a REVERTED invoke failed with the fee it paid, and a forgotten one dead once its nonce is used", async () => {
    const node = chainNode({ nonce: 5 });
    const { executor } = familyOn(node);
    const signed = await executor.build([FILL]);
    node
      .on("starknet_getTransactionStatus", () => ({
        finality_status: "ACCEPTED_ON_L2",
        execution_status: "REVERTED",
      }))
      .on("starknet_getTransactionReceipt", () => ({
        transaction_hash: signed.txHash,
        actual_fee: { amount: "0x64", unit: "FRI" },
        execution_status: "REVERTED",
        finality_status: "ACCEPTED_ON_L2",
        revert_reason: "HTLC: duplicate order",
        block_number: 990,
        events: [],
      }));
    expect(await executor.txStatus(attemptOf(signed))).toEqual({
      state: "failed",
      blockHeight: 990n,
      reason: "HTLC: duplicate order",
      feePaid: 100n,
    });
    node.on("starknet_getTransactionStatus", () => {
      throw nodeError(29, "Transaction hash not found");
    });
    expect(await executor.txStatus(attemptOf(signed))).toEqual({ state: "unknown" });
    node.on("starknet_getNonce", () => "0x6");
    expect((await executor.txStatus(attemptOf(signed))).state).toBe("dead");
    node.on("starknet_getTransactionStatus", () => ({ finality_status: "RECEIVED" }));
    expect(await executor.txStatus(attemptOf(signed))).toEqual({ state: "pending" });
  });

  it("counts a sent duplicate as sent, and a nonce the account has passed as refused for good", async () => {
    const node = chainNode({ nonce: 5 });
    const { executor } = familyOn(node);
    const signed = await executor.build([FILL]);
    node
      .on("starknet_addInvokeTransaction", () => {
        throw nodeError(59, "A transaction with the same hash already exists in the mempool");
      })
      .on("starknet_getTransactionStatus", () => ({ finality_status: "RECEIVED" }));
    await expect(executor.broadcast(signed)).resolves.toBeUndefined();
    node
      .on("starknet_addInvokeTransaction", () => {
        throw nodeError(52, "Invalid transaction nonce");
      })
      .on("starknet_getTransactionStatus", () => {
        throw nodeError(29, "Transaction hash not found");
      })
      .on("starknet_getNonce", () => "0x9");
    await expect(executor.broadcast(signed)).rejects.toBeInstanceOf(RefusedForGoodError);
    node.on("starknet_addInvokeTransaction", () => ({ transaction_hash: signed.txHash }));
    await expect(executor.broadcast(signed)).resolves.toBeUndefined();
  });

  it("refuses an action it does not expect", async () => {
    const { executor } = familyOn(chainNode());
    await expect(executor.build([FILL, FILL])).rejects.toBeInstanceOf(StarknetActionError);
    await expect(executor.build([{ ...FILL, params: { ...FILL.params, chain: "other" } }])).rejects.toThrow(
      /other/,
    );
  });

  it("cancels at the attempt's nonce with a zero self-transfer of STRK that out-pays it, up to twice the ceiling", async () => {
    const { executor } = familyOn(chainNode());
    const first = await executor.build([FILL]);
    const cancel = await executor.cancel(attemptOf(first));
    if (cancel === null || cancel.terms.family !== "starknet" || first.terms.family !== "starknet")
      throw new Error("no cancel");
    expect(cancel.nonce).toBe(first.nonce);
    expect(cancel.terms.tip).toBeGreaterThan(first.terms.tip);
    const [call] = decodeExecuteCalldata(invokeOfRaw(cancel.raw).calldata.map((f) => BigInt(f)));
    expect(call?.selector).toBe(BigInt(SELECTORS.transfer));
    expect(call?.calldata).toEqual([BigInt(SOLVER), 0n, 0n]);
  });

  it("prices a fill, a redeem and a refund at the latest block's L2 gas and L1 data gas prices", async () => {
    const fees = await familyOn(chainNode()).executor.networkFees();
    // The fake block's prices: L2 gas 0x20, L1 data gas 0x30 FRI.
    expect(fees.fill.perTransaction).toBe(VALIDATE_L2_GAS * 0x20n + 128n * 0x30n);
    expect(fees.fill.perAction).toBeGreaterThan(fees.refund.perAction);
  });

  it("counts a live attempt's tokens and its most fee off the balance until it is in a block", async () => {
    const node = chainNode();
    const { executor, journal } = familyOn(node);
    const signed = await executor.build([FILL]);
    node
      .on("starknet_call", () => ["0x30d40", "0x0"])
      .on("starknet_getTransactionStatus", () => ({ finality_status: "RECEIVED" }));
    journal.live = [attemptOf(signed)];
    expect(await executor.balance("starknet_test:wbtc")).toBe(200_000n - 70_000n);
    node.on("starknet_getTransactionStatus", () => ({ finality_status: "PRE_CONFIRMED" }));
    expect(await executor.balance("starknet_test:wbtc")).toBe(200_000n);
  });
});
