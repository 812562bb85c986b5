/**
 * Source value that is not there, on a Sui source, each attack made as a user (with a service that says
 * what the user wants it to say) and checked on both sides' balances: a source executed but not yet as
 * deep as the solver requires (checkpoints held: the solver counts confirmations from its node's
 * checkpoints, not the service's word), the order's terms locked in a second `OrdersRegistry<SUI>` that the solver does not
 * read (same coin type, another registry id, so another order id), and a source the solver declined and
 * cancelled with its own `instant_refund` (it is the redeemer), then offered again (the module keeps the
 * refunded order: its id cannot be initiated a second time).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import {
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import {
  initiateFrom,
  outcomeOf,
  refundFrom,
  secondSuiRegistry,
  suiAccountOf,
  suiRegistry,
  suiSwapIdIn,
  termsOf,
} from "../support/sui-moves-a.js";
import { SUI, suiBalance, suiGas, suiGasOfAction, solverSui } from "../../e2e/swaps/sui-support.js";

const TO = "arbitrum_localnet:wbtc";
const AMOUNT = 50_000_000_000n;
const CHECKPOINT_MS = 250;
/**
 * Depth the solver requires of a Sui source here: Sui heights are ms of the chain's clock, counted once
 * the lock is in a checkpoint (src/chains/sui/config.ts), so ten minutes of it, which a test passes by
 * moving the clock.
 */
const SUI_SOURCE_DEPTH = 600_000;

let t: AttackNet;
let checkpoints: NodeJS.Timeout | undefined;

/** Checkpoints every quarter second, as the localnet makes them, or none until told. */
function makeCheckpoints(on: boolean): void {
  clearInterval(checkpoints);
  checkpoints = on ? setInterval(() => t.net.sui.local.makeCheckpoint(), CHECKPOINT_MS) : undefined;
}

async function balances(user: LocalUser) {
  return {
    userSui: suiBalance(t, SUI, user.sui.address),
    userTo: await user.balance(TO),
    solverSui: solverSui(t),
    solverTo: await solverHolds(t, TO),
  };
}

async function order(user: LocalUser): Promise<Order> {
  return user.createOrder(await user.bestQuote(SUI, TO, AMOUNT));
}

export function suiSourceValue(): void {
  beforeAll(async () => {
    // Checkpoints only when a test makes them: a source can stay executed but unconfirmed.
    t = await startAttackNet({ suiCheckpointMs: 0 }, (config) => ({
      ...config,
      chains: config.chains.map((c) =>
        c.family === "sui" ? { ...c, minConfirmations: SUI_SOURCE_DEPTH } : c,
      ),
    }));
    makeCheckpoints(true);
  });
  afterAll(async () => {
    makeCheckpoints(false);
    await stopAttackNet(t);
  });

  describe("attack: a Sui source executed but not yet in a checkpoint, the service saying it is confirmed", () => {
    it("waits for the lock's checkpoint and depth on the solver's node, then fills; each side its fair share", async () => {
      const user = t.user(0);
      const o = await order(user);
      const destination = BigInt(o.destination_swap.amount);
      const before = await balances(user);
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.source_swap.current_confirmations = lied.source_swap.required_confirmations + 100;
      });
      makeCheckpoints(false);
      const lock = await user.initiateSui(o);
      await solverRounds(t, 4);
      expect(t.net.sui.local.chain.transaction(lock)?.checkpoint).toBeUndefined();
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_unconfirmed");

      // In a checkpoint the source backs a fill; the service redeems it for the user, the solver its source.
      makeCheckpoints(true);
      await waitFor(
        () => t.net.sui.local.chain.transaction(lock)?.checkpoint !== undefined,
        "the checkpoint",
      );
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      t.net.sui.local.advanceClock(SUI_SOURCE_DEPTH);
      t.proxy.stopLying(o.order_id);
      await waitFor(
        () => journaled(t, o).join() === "fill:confirmed,redeem:confirmed",
        "the fill and the source redeem",
        90_000,
      );
      expect(await balances(user)).toEqual({
        userSui: before.userSui - AMOUNT - (await suiGas(t, lock)),
        userTo: before.userTo + destination,
        solverSui: before.solverSui + AMOUNT - (await suiGasOfAction(t, o.order_id, "redeem")),
        solverTo: before.solverTo - destination,
      });
    }, 120_000);
  });

  describe("attack: the user locks the same terms again after the solver's instant refund", () => {
    it("cannot: the module keeps the refunded order (abort 7); the solver fills nothing and paid only its refund", async () => {
      const user = t.user(2);
      const o = await order(user);
      const before = await balances(user);
      // The lock lands in a checkpoint, short of the solver's depth; then the service says the order's
      // deadline passed: the solver refuses the source and, as its redeemer, gives it back at once with
      // `instant_refund`. Said before the lock landed, the solver would have nothing to give back.
      const lock = await user.initiateSui(o);
      await waitFor(
        () => t.net.sui.local.chain.transaction(lock)?.checkpoint !== undefined,
        "the checkpoint",
      );
      await solverRounds(t, 2);
      expect(lastReason(t, o)).toBe("source_unconfirmed");
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.additional_data.deadline = Math.floor(Date.now() / 1000) - 60;
      });
      await waitFor(() => journaled(t, o).includes("instant_refund:confirmed"), "the instant refund", 60_000);
      // The service offers the order again as it is.
      t.proxy.stopLying(o.order_id);
      await waitFor(() => lastReason(t, o) !== "deadline_passed", "the solver to see the source closed");

      const again = await initiateFrom(suiAccountOf(user), suiRegistry(t), termsOf(o.source_swap));
      expect(outcomeOf(again)).toBe("abort 7");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual(["instant_refund:confirmed"]);
      expect(await balances(user)).toEqual({
        ...before,
        userSui: before.userSui - (await suiGas(t, lock)) - (await suiGas(t, again.digest)),
        solverSui: before.solverSui - (await suiGasOfAction(t, o.order_id, "instant_refund")),
      });
    }, 120_000);
  });

  // Last: the user's refund moves the chain's clock past the source's timelock.
  describe("attack: the source locked in a second registry of SUI, the service saying it is locked", () => {
    it("is not a source: the solver reads the configured registry only, and fills nothing", async () => {
      const user = t.user(1);
      const o = await order(user);
      const before = await balances(user);
      const other = secondSuiRegistry(t);
      const lock = await initiateFrom(suiAccountOf(user), other, termsOf(o.source_swap));
      expect(outcomeOf(lock)).toBe("success");
      t.proxy.lieAbout(o.order_id, (lied) => {
        lied.status = "Initiated";
        lied.source_swap.initiate_tx_hash = lock.digest;
        lied.source_swap.filled_amount = lied.source_swap.amount;
        lied.source_swap.current_confirmations = lied.source_swap.required_confirmations + 100;
      });
      await waitFor(() => lastReason(t, o) === "source_not_initiated", "the solver to look for the source");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);
      expect(lastReason(t, o)).toBe("source_not_initiated");
      expect(await balances(user)).toEqual({
        ...before,
        userSui: before.userSui - AMOUNT - (await suiGas(t, lock.digest)),
      });

      // The lock is real, in the other registry: the user takes it back once it expired, less two gases.
      t.net.sui.local.advanceClock(BigInt(o.source_swap.timelock) + 1_000n);
      const refund = await refundFrom(suiAccountOf(user), other, suiSwapIdIn(o.source_swap, other));
      expect(outcomeOf(refund)).toBe("success");
      t.proxy.stopLying(o.order_id);
      expect(await balances(user)).toEqual({
        ...before,
        userSui: before.userSui - (await suiGas(t, lock.digest)) - (await suiGas(t, refund.digest)),
      });
    }, 120_000);
  });
}
