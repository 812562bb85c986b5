/**
 * A lying service against a fill tried again after the solver froze the order's terms (its first
 * attempt could not be built: the solver's token allowance was gone). The fill pays the frozen
 * destination amount for the frozen source amount, so that is what the solver prices: a service that
 * understates the source cannot make a good fill fail, and one that overstates it cannot pass a fill the
 * market no longer pays for. Each is checked on both sides' balances.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, http, maxUint256, type Hex } from "viem";
import { evmChain } from "../../../src/chains/evm/client.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { priceOf } from "../../e2e/pricing/support.js";
import {
  journaled,
  lastReason,
  redeemAndSettle,
  setSolverAllowance,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const SOURCE_CHAIN = "ethereum_localnet";
const FROM = `${SOURCE_CHAIN}:eth`;
const TO = "arbitrum_localnet:usdc";
const AMOUNT = 10n ** 17n; // 0.1 ETH

let t: AttackNet;

async function setEthPrice(price: string): Promise<void> {
  await t.net.priceFeeds.set("eth", price);
  t.net.tickers.set("ETH", price);
  await waitFor(() => priceOf(t, FROM) === price, `the solver's ETH price at ${price}`, 30_000);
}

/** An order whose fill was claimed, its terms frozen, and whose first attempt could not be built. */
async function orderWithFailedFill(userIndex: number): Promise<{ order: Order; secret: Hex }> {
  const user = t.user(userIndex);
  const { secret, secretHash } = newUserSecret();
  const order = await user.createOrder(await user.bestQuote(FROM, TO, AMOUNT), { secretHash });
  await setSolverAllowance(t, TO, 0n);
  await user.initiateOnChain(order);
  await waitFor(() => journaled(t, order).includes("fill:failed"), "the fill to fail for its allowance");
  const terms = t.net.solver!.journal.orderTerms(order.order_id);
  expect(terms?.source.amount).toBe(AMOUNT);
  expect(terms?.destination.amount).toBe(BigInt(order.destination_swap.amount));
  return { order, secret };
}

/** What a journaled transaction of the solver's cost in gas on the source chain. */
async function sourceGasOf(txHash: string): Promise<bigint> {
  const chain = t.net.descriptor.chains.find((c) => c.name === SOURCE_CHAIN)!;
  const pub = createPublicClient({
    chain: evmChain(chain.chainId, chain.name, [chain.rpcUrl]),
    transport: http(chain.rpcUrl),
  });
  const receipt = await pub.getTransactionReceipt({ hash: txHash as Hex });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet();
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** A service that restates amounts after the solver froze the terms. */
export function evmAmountsRestatedAfterFreeze(): void {
  useNet();
  describe("attack: a service that restates amounts after the solver froze the terms", () => {
    it("understating the source cannot fail a good fill: it is filled by the frozen terms", async () => {
      const user = t.user(0);
      const { order, secret } = await orderWithFailedFill(0);
      const frozenTo = BigInt(order.destination_swap.amount);
      const [userTo, solverTo, solverFrom] = [
        await user.balance(TO),
        await solverHolds(t, TO),
        await solverHolds(t, FROM),
      ];

      // By the stated amounts the fill would now pay 299 USDC for 1 wei.
      t.proxy.lieAbout(order.order_id, (lied) => {
        lied.source_swap.amount = "1";
      });
      await setSolverAllowance(t, TO, maxUint256);
      await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to be mined");
      await redeemAndSettle(t, user, order, secret);
      t.proxy.stopLying(order.order_id);

      const journal = t.net.solver!.journal;
      const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      expect(fill.request.params.amount).toBe(frozenTo);
      const redeem = journal.orderActions(order.order_id).find((a) => a.kind === "redeem")!;
      const redeemTx = journal.attemptsOfAction(redeem.id).find((a) => a.state === "confirmed")!;
      expect((await user.balance(TO)) - userTo).toBe(frozenTo);
      expect(solverTo - (await solverHolds(t, TO))).toBe(frozenTo);
      expect((await solverHolds(t, FROM)) - solverFrom).toBe(AMOUNT - (await sourceGasOf(redeemTx.txHash)));
    });

    it("overstating the source cannot pass a fill at a loss: it is refused by the frozen terms", async () => {
      const user = t.user(1);
      const { order } = await orderWithFailedFill(1);
      const [userTo, solverTo] = [await user.balance(TO), await solverHolds(t, TO)];

      // The market falls a third: the frozen 0.1 ETH no longer pays for the frozen USDC. By the stated
      // amounts (10 ETH) the fill would still look very good.
      await setEthPrice("2000");
      t.proxy.lieAbout(order.order_id, (lied) => {
        lied.source_swap.amount = (100n * AMOUNT).toString();
      });
      await setSolverAllowance(t, TO, maxUint256);
      await waitFor(() => lastReason(t, order) === "price_moved", "the solver to refuse the fill");
      await solverRounds(t, 4);
      expect(journaled(t, order)).toEqual(["fill:failed"]);
      const refusal = t.log.find((l) => l.orderId === order.order_id && l.msg === "refusing to fill");
      expect(refusal?.detail).toContain(`(${order.destination_swap.amount}) but the solver quotes`);
      expect(await solverHolds(t, TO)).toBe(solverTo);
      expect(await user.balance(TO)).toBe(userTo);

      t.proxy.stopLying(order.order_id);
      await setEthPrice("3000");
    });
  });
}
