/**
 * Network fees on the localnet: quotes pay for the fees a swap causes, so swaps settle at or above the
 * minimum profit; and once one chain's gas price rises tenfold, small orders into it are refused (a new
 * quote, and the fill of an order quoted before the rise) while large ones still fill. The solver's and
 * the user's balances are read on the chains on both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../../src/orderbook/types.js";
import { PnlStore } from "../../../src/journal/pnl-store.js";
import { anvilCall, startTestLocalnet, waitFor, type TestLocalnet } from "../../support/localnet.js";
import { completed } from "../swaps/bitcoin-support.js";
import { quoteRefusal, solverBalances } from "./support.js";
import { EVM_ACTION_GAS } from "../../../src/chains/evm/network-fees.js";
import { legUsd } from "../../../src/pnl/report.js";
import { sumUsd, type Usd } from "../../../src/pnl/usd.js";

const FROM = "ethereum_localnet:usdc";
const TO = "arbitrum_localnet:usdc";
const MIN_PROFIT_CENTS = 1n;

describe("network fees on the localnet", () => {
  let t: TestLocalnet;
  let arbitrumRpc: string;
  beforeAll(async () => {
    t = await startTestLocalnet({ startSolver: false });
    const config = t.net.solverConfig;
    // Every cent of a fee rise counts: no tolerance, and a minimum profit to keep.
    await t.net.startSolver({
      ...config,
      networkFees: { ...config.networkFees, minProfitUsdCents: MIN_PROFIT_CENTS, lossToleranceUsdCents: 0n },
    });
    arbitrumRpc = config.chains.find((c) => c.name === "arbitrum_localnet")!.rpcUrls[0]!;
  });
  afterAll(async () => {
    await t?.net.stop();
  });

  async function swap(user: number, amount: bigint): Promise<Order> {
    const u = t.user(user);
    const order = await createOrder(user, amount);
    await u.initiateOnChain(order);
    return u.waitForOrder(order.order_id, (o) => completed(o) || o.status === "Redeemed", {
      timeoutMs: 120_000,
    });
  }

  /**
   * An order at a fresh quote. The service asks the solver again when the order is made, and a base fee
   * that moved between the two (blocks mined meanwhile) can make that second quote lower: quoted again.
   */
  async function createOrder(user: number, amount: bigint): Promise<Order> {
    const u = t.user(user);
    for (let attempt = 1; ; attempt++) {
      try {
        return await u.createOrder(await u.bestQuote(FROM, TO, amount));
      } catch (error) {
        if (attempt >= 3 || !/exceeds the solver's live quote/.test(String(error))) throw error;
      }
    }
  }

  /** Each of the order's EVM transactions used at most the gas its kind is charged for alone. */
  async function expectGasWithinEstimate(orderId: string): Promise<void> {
    const journal = t.net.solver!.journal;
    for (const action of journal.orderActions(orderId)) {
      const kind = action.kind as "fill" | "redeem";
      const rpc = t.net.solverConfig.chains.find((c) => c.name === action.request.params.chain)!.rpcUrls[0]!;
      const mined = journal.attemptsOfAction(action.id).filter((a) => a.state === "confirmed");
      expect(mined).toHaveLength(1);
      const receipt = (await anvilCall(rpc, "eth_getTransactionReceipt", [mined[0]!.txHash])) as {
        gasUsed: string;
      };
      const charged = EVM_ACTION_GAS[kind].perTransaction + EVM_ACTION_GAS[kind].perAction;
      console.log(`${kind} used ${BigInt(receipt.gasUsed)} gas, charged for ${charged}`);
      expect(BigInt(receipt.gasUsed)).toBeLessThanOrEqual(charged);
    }
  }

  /** The order's settled profit and loss, exactly, as `solver pnl` sums it. */
  async function settledPnl(orderId: string): Promise<Usd> {
    const store = new PnlStore(t.net.solver!.journal.database);
    await waitFor(() => store.settlements().some((s) => s.orderId === orderId), `pnl of ${orderId}`, 60_000);
    const settlement = store.settlements().find((s) => s.orderId === orderId)!;
    const legs = settlement.legs.map((leg) => legUsd(leg));
    expect(legs.every((leg) => leg !== null)).toBe(true);
    return sumUsd(legs as Usd[]);
  }

  it("settles a swap at or above the minimum profit, its quote's fixed_fee paying for its fees", async () => {
    const quote = await t.user(0).bestQuote(FROM, TO, 1_000_000n);
    expect(Number(quote.fixed_fee)).toBeGreaterThan(0);
    const order = await swap(0, 1_000_000n);
    const pnl = await settledPnl(order.order_id);
    await expectGasWithinEstimate(order.order_id);
    // pnl ≥ min profit: units / 10^scale ≥ cents / 100.
    expect(pnl.units * 100n >= MIN_PROFIT_CENTS * 10n ** BigInt(pnl.scale)).toBe(true);
  });

  it("refuses small orders into a chain whose gas price rose tenfold, and still fills large ones", async () => {
    const app = t.net.solver!;
    // The quote of now states the fees: a small order is three times them, a large one a hundred times.
    const probe = await t.user(1).bestQuote(FROM, TO, 10_000_000n);
    const feeUnits = BigInt(Math.ceil(Number(probe.fixed_fee) * 1e6));
    const small = 3n * feeUnits;
    const large = 100n * feeUnits;
    const user = t.user(1);
    const quotedBefore = await user.createOrder(await user.bestQuote(FROM, TO, small));

    const block = (await anvilCall(arbitrumRpc, "eth_getBlockByNumber", ["latest", false])) as {
      baseFeePerGas: string;
    };
    const priority = BigInt((await anvilCall(arbitrumRpc, "eth_maxPriorityFeePerGas", [])) as string);
    const raised = 10n * (BigInt(block.baseFeePerGas) + priority);
    // Held at every block: an empty block would let the base fee fall again.
    let holding = true;
    const hold = (async () => {
      while (holding) {
        await anvilCall(arbitrumRpc, "anvil_setNextBlockBaseFeePerGas", [`0x${raised.toString(16)}`]);
        await anvilCall(arbitrumRpc, "evm_mine", []);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      await waitFor(
        async () => (await quoteRefusal(t, FROM, TO, small))?.startsWith("network_fees") ?? false,
        "small quotes refused for their network fees",
        20_000,
      );
      expect(await quoteRefusal(t, FROM, TO, large)).toBeNull();

      // The order quoted before the rise is locked by its user, and waits unfilled.
      const solverBefore = await solverBalances(t);
      await user.initiateOnChain(quotedBefore);
      await waitFor(
        () => app.journal.lastDecision(quotedBefore.order_id)?.reason === "network_fees",
        "the fill quoted before the rise to wait for its network fees",
        60_000,
      );
      const decision = app.journal.lastDecision(quotedBefore.order_id)!;
      expect(decision.outcome).toBe("wait");
      expect(decision.detail).toMatch(/unpaid, more than the loss tolerance/);
      expect(app.journal.orderActions(quotedBefore.order_id).some((a) => a.kind === "fill")).toBe(false);
      const solverAfter = await solverBalances(t);
      expect(solverAfter[TO]).toBe(solverBefore[TO]);

      // A large order fills and settles at the raised fees, the user receiving what was quoted.
      const largeOrder = await swap(1, large);
      const largeQuote = { destination: { amount: largeOrder.destination_swap.amount } };
      const pnl = await settledPnl(largeOrder.order_id);
      expect(pnl.units * 100n >= MIN_PROFIT_CENTS * 10n ** BigInt(pnl.scale)).toBe(true);
      const solverEnd = await solverBalances(t);
      expect(solverBefore[TO]! - solverEnd[TO]!).toBe(BigInt(largeQuote.destination.amount));
      expect(solverEnd[FROM]! - solverBefore[FROM]!).toBe(large);
    } finally {
      holding = false;
      await hold;
    }
  });
});
