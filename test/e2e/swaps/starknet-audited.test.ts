/**
 * Starknet swaps on the audited HTLC (the version the network moves to): its order id hashes the secret
 * hash first and the HTLC's address last, and its SNIP-12 `Initiate` carries `verifyingContract`. From
 * Starknet the user signs, the service relays, the solver fills on EVM and redeems the Starknet source;
 * to Starknet the solver fills under the audited id and the service redeems. Swap ids are recomputed here
 * from the audited formula, and both sides' balances are checked exactly.
 */
import { hash, shortString } from "starknet";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedAmount } from "../../support/quote-drift.js";
import { startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { actionsSettled, completed } from "./bitcoin-support.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  starknetHtlcEvents,
  STARKNET_WBTC,
  strkBalance,
} from "./starknet-support.js";

const ARBITRUM_WBTC = "arbitrum_localnet:wbtc";

/** The audited contract's order id of a swap on `htlc`, as the service prints it. */
function auditedSwapId(swap: SwapRecord, htlc: string): string {
  const words = (swap.secret_hash.match(/.{8}/g) ?? []).map((word) => BigInt(`0x${word}`));
  const id = hash.computePoseidonHashOnElements([
    BigInt(shortString.encodeShortString("SN_LOCALNET")),
    ...words,
    BigInt(swap.initiator),
    BigInt(swap.redeemer),
    BigInt(swap.timelock),
    BigInt(swap.amount),
    0n,
    BigInt(htlc),
  ]);
  return BigInt(id).toString(16);
}

describe("Starknet swaps on the audited HTLC", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet({ starknetOrderIdLayout: "audited" });
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  it("Starknet WBTC (signed) -> EVM WBTC under the audited order id and typed data", async () => {
    const user = t.user(0);
    const htlc = t.net.descriptor.starknet.assets[0]!.htlcAddress;
    expect(htlc).toBe(t.net.starknet.htlcs.audited);
    const quote = await user.bestQuote(STARKNET_WBTC, ARBITRUM_WBTC, 1_000_000n);
    const created = await t.orderbook.createOrder(user.orderRequest(quote));
    const order = await t.orderbook.getOrder(created.order_id);
    const swap = order.source_swap;
    expect(swap.swap_id).toBe(auditedSwapId(swap, htlc));
    expect(created.typed_data).toMatchObject({
      primaryType: "Initiate",
      message: { verifyingContract: `0x${BigInt(htlc).toString(16)}` },
    });

    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userArbitrum: await user.balance(ARBITRUM_WBTC),
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
    };
    const approveTx = await user.starknet.approveSource(swap);
    const relayTx = await t.orderbook.initiate(order.order_id, user.starknet.signInitiate(swap));
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(done.source_swap.initiate_tx_hash).toBe(relayTx);
    expect(await user.balance(ARBITRUM_WBTC)).toBe(before.userArbitrum + amount);
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc - 1_000_000n);
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk - (await starknetFee(t, approveTx)));
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc + 1_000_000n);
    expect(solverStrk(t)).toBe(before.solverStrk - (await starknetFeeOfAction(t, order.order_id, "redeem")));
    expect((await starknetHtlcEvents(t, done.source_swap)).map((e) => e.name)).toEqual([
      "Initiated",
      "Redeemed",
    ]);
  });

  it("EVM WBTC -> Starknet WBTC: the solver fills under the audited order id, the service redeems", async () => {
    const user = t.user(1);
    const quote = await user.bestQuote(ARBITRUM_WBTC, STARKNET_WBTC, 1_000_000n);
    const order = await user.createOrder(quote);
    const swap = order.destination_swap;
    expect(swap.swap_id).toBe(auditedSwapId(swap, t.net.starknet.htlcs.audited));
    const amount = orderedAmount(order, BigInt(quote.destination.amount));
    const before = {
      userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      userStrk: strkBalance(t, user.starknet.address),
      solverWbtc: solverStarknet(t, STARKNET_WBTC),
      solverStrk: solverStrk(t),
    };
    await user.initiateOnChain(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
    expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc + amount);
    expect(strkBalance(t, user.starknet.address)).toBe(before.userStrk);
    await actionsSettled(t, order.order_id, ["fill", "redeem"]);
    expect(before.solverWbtc - solverStarknet(t, STARKNET_WBTC)).toBe(amount);
    expect(before.solverStrk - solverStrk(t)).toBe(await starknetFeeOfAction(t, order.order_id, "fill"));
    expect((await starknetHtlcEvents(t, done.destination_swap)).map((e) => e.name)).toEqual([
      "Initiated",
      "Redeemed",
    ]);
  });
});
