/**
 * Acting on the block an HTLC changes in: with the solver's rounds ten minutes apart, a source locked
 * after the solver last looked at its order is filled within a few blocks, and the secret the user's
 * redeem reveals is used as fast, on an EVM source (found by its HTLC events) and on a Bitcoin source
 * (processed at each new block while the order waits on it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../../src/orderbook/types.js";
import { anvilCall, startTestLocalnet, type TestLocalnet } from "../../support/localnet.js";
import { solverHolds } from "../../attacks/support/attack-net.js";
import { BTC, completed } from "./bitcoin-support.js";

const ROUNDS_APART_MS = 600_000;

async function blockTimeS(t: TestLocalnet, chain: string, height: string | number): Promise<number> {
  const rpcUrl = t.net.anvils.get(chain)?.rpcUrl;
  if (rpcUrl === undefined) throw new Error(`no anvil for ${chain}`);
  const block = (await anvilCall(rpcUrl, "eth_getBlockByNumber", [
    `0x${BigInt(height).toString(16)}`,
    false,
  ])) as { timestamp: string };
  return Number(BigInt(block.timestamp));
}

describe("acting on a chain's new block, between rounds", () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet({ startSolver: false });
    const config = t.net.solverConfig;
    await t.net.startSolver({ ...config, solver: { ...config.solver, pollIntervalMs: ROUNDS_APART_MS } });
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  /** A round that sees the order before its source is locked; the next is ten minutes away. */
  async function seenUnlocked(order: Order): Promise<number> {
    const solver = t.net.solver;
    if (solver === null || solver === undefined) throw new Error("the solver is not running");
    await solver.runner.tick();
    expect(solver.journal.lastDecision(order.order_id)).toMatchObject({
      outcome: "wait",
      reason: "source_not_initiated",
    });
    return solver.runner.lastTickMs;
  }

  it("EVM source: filled within two blocks of its lock, the source redeemed within two of the secret", async () => {
    const user = t.user(0);
    const to = "arbitrum_localnet:usdc";
    const quote = await user.bestQuote("ethereum_localnet:eth", to, 10n ** 17n);
    const order = await user.createOrder(quote);
    const lastRound = await seenUnlocked(order);
    const before = await user.balance(to);
    await user.initiateOnChain(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 60_000 });
    expect(t.net.solver?.runner.lastTickMs).toBe(lastRound);
    expect(await user.balance(to)).toBe(before + BigInt(quote.destination.amount));
    const locked = await blockTimeS(t, "ethereum_localnet", done.source_swap.initiate_block_number);
    const filled = await blockTimeS(t, to.split(":")[0] ?? "", done.destination_swap.initiate_block_number);
    const revealed = await blockTimeS(t, "arbitrum_localnet", done.destination_swap.redeem_block_number);
    const redeemed = await blockTimeS(t, "ethereum_localnet", done.source_swap.redeem_block_number);
    console.log(
      `evm source: fill ${filled - locked} s after the lock, redeem ${redeemed - revealed} s after the secret`,
    );
    expect(filled - locked).toBeLessThanOrEqual(2);
    expect(redeemed - revealed).toBeLessThanOrEqual(2);
  });

  it("Bitcoin source: filled and redeemed with no round in between", async () => {
    const user = t.user(1);
    const to = "arbitrum_localnet:wbtc";
    const quote = await user.bestQuote(BTC, to, 100_000n);
    const order = await user.createOrder(quote);
    const lastRound = await seenUnlocked(order);
    const before = await user.balance(to);
    const started = Date.now();
    await user.fundBitcoinSource(order);
    const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 60_000 });
    console.log(`bitcoin source: deposit to source redeem in ${Date.now() - started} ms`);
    expect(t.net.solver?.runner.lastTickMs).toBe(lastRound);
    expect(await user.balance(to)).toBe(before + BigInt(quote.destination.amount));
    expect(done.source_swap.redeem_tx_hash).not.toBe("");
  });

  it("a user who locks while rounds are forced beside the watch at every turn gets one fill, not two", async () => {
    // The attack: the source locks in a block the watch acts on while a round plans the same order,
    // hoping both pass the fill gate before either fill is signed.
    const user = t.user(2);
    const from = "arbitrum_localnet:usdc";
    const to = "ethereum_localnet:usdc";
    const quote = await user.bestQuote(from, to, 40_000_000n);
    const order = await user.createOrder(quote);
    await seenUnlocked(order);
    const [userBefore, solverFromBefore, solverToBefore] = [
      await user.balance(to),
      await solverHolds(t, from),
      await solverHolds(t, to),
    ];
    const solver = t.net.solver;
    if (solver === null || solver === undefined) throw new Error("the solver is not running");
    let forcing = true;
    const rounds = (async () => {
      while (forcing) {
        await solver.runner.tick();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await user.initiateWithSignature(order);
    await user.waitForOrder(order.order_id, completed, { timeoutMs: 60_000 });
    forcing = false;
    await rounds;
    const fills = solver.journal.orderActions(order.order_id).filter((a) => a.kind === "fill");
    expect(fills).toHaveLength(1);
    expect((await user.balance(to)) - userBefore).toBe(BigInt(quote.destination.amount));
    expect(solverToBefore - (await solverHolds(t, to))).toBe(BigInt(quote.destination.amount));
    expect((await solverHolds(t, from)) - solverFromBefore).toBe(BigInt(quote.source.amount));
  });
});
