/**
 * Attack class: the secret. A secret of another length or hash than the source chain accepts, so that
 * the destination's redeem takes the solver's fill and the source refuses what it reveals. What holds:
 * the destination accepts no secret the source would refuse, or the order is not filled; what the service
 * says about who holds the secret relaxes nothing.
 *
 * Bitcoin's redeem leaf checks only the secret's hash; the EVM and Solana HTLCs take only 32 bytes. So the
 * class is expressed by every pair whose destination is Bitcoin and whose source is not: EVM -> Bitcoin and
 * Solana -> Bitcoin below (the legacy Solana programs' redeem takes 32 bytes too: their row runs the same
 * pair on a net of its own). A Bitcoin source takes any preimage the destination reveals, and an EVM or
 * Solana destination reveals only 32-byte secrets, which every source takes: those pairs cannot express it.
 *
 * The Starknet HTLC takes a secret of any whole number of u32 words. As a destination it can reveal a
 * secret of 36 bytes to an EVM source that takes 32 only: EVM -> Starknet is refused like EVM -> Bitcoin.
 * As a source it refuses what a Bitcoin destination may reveal (33 bytes): its row runs Starknet -> Bitcoin.
 *
 * The Sui module's redeem takes exactly 32 bytes: Sui -> Bitcoin is refused like Starknet -> Bitcoin, and
 * the source given back at once by the solver's `instant_refund` (it is the source's redeemer).
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalnetOptions } from "@htlc-solver/localnet/localnet.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../src/orderbook/types.js";
import { waitFor } from "../support/localnet.js";
import { forEachFamily } from "./support/for-each-family.js";
import {
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "./support/attack-net.js";
import { BTC } from "../e2e/swaps/bitcoin-support.js";
import { feeOf, SOL, solverSolana } from "../e2e/swaps/solana-support.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  starknetFeeOfAction,
  STARKNET_WBTC,
  strkBalance,
} from "../e2e/swaps/starknet-support.js";
import { SUI, suiBalance, suiGas, suiGasOfAction, solverSui } from "../e2e/swaps/sui-support.js";

const EVM_SOURCE = "ethereum_localnet:usdc";
const EVM_WBTC = "ethereum_localnet:wbtc";

let t: AttackNet;
/** Orders made while the solver still quoted the pairs (the localnet's profile accepts the risk). */
const orders = new Map<string, { order: Order; user: LocalUser }>();

/** The hash of a secret of `bytes` bytes (33 by default: not 32, and no whole number of u32 words). */
function longSecretHash(bytes = 33): string {
  return createHash("sha256").update(randomBytes(bytes)).digest("hex");
}

/**
 * A net on which orders were made while the solver still quoted the pairs (the localnet's profile accepts
 * the risk), its solver then restarted with the rule on, as a live profile runs.
 */
async function startSecretNet(
  options: Partial<LocalnetOptions>,
  labelled: [label: string, user: number, from: string, amount: bigint, to?: string, secretBytes?: number][],
): Promise<AttackNet> {
  const net = await startAttackNet(options);
  for (const [label, index, from, amount, to = BTC, secretBytes] of labelled) {
    const user = net.user(index);
    const quote = await user.bestQuote(from, to, amount);
    const secretHash = longSecretHash(secretBytes);
    orders.set(label, { order: await user.createOrder(quote, { secretHash }), user });
  }
  const config = net.net.solverConfig;
  await net.net.solver!.stop();
  await net.net.startSolver({
    ...config,
    service: { ...config.service, url: net.proxy.url },
    safety: { ...config.safety, allowUnenforcedSecretLength: false },
  });
  return net;
}

beforeAll(async () => {
  t = await startSecretNet({}, [
    ["evm client", 0, EVM_SOURCE, 100_000_000n],
    ["evm service", 1, EVM_SOURCE, 100_000_000n],
    ["solana", 2, SOL, 2_000_000_000n],
    // 36 bytes: nine u32 words, a secret the Starknet HTLC takes and the EVM source refuses.
    ["evm starknet", 0, EVM_WBTC, 1_000_000n, STARKNET_WBTC, 36],
    ["starknet", 1, STARKNET_WBTC, 1_000_000n],
    ["sui", 2, SUI, 50_000_000_000n],
  ]);
});

afterAll(async () => {
  await stopAttackNet(t);
});

/** What the solver holds of an asset, on its chain. */
async function solverAsset(t: AttackNet, asset: string): Promise<bigint> {
  if (asset === SOL) return solverSolana(t, SOL);
  if (asset === STARKNET_WBTC) return solverStarknet(t, asset);
  return solverHolds(t, asset);
}

/** What the solver holds of an order's source asset, on its chain. */
function solverSource(t: AttackNet, order: Order): Promise<bigint> {
  return solverAsset(t, order.source_swap.asset);
}

/**
 * The user locks the source; the solver must refuse it for good and fill nothing: its BTC stays. An EVM
 * source stays locked for the user to refund after its timelock, the solver taking nothing of it; a Solana
 * source the solver refunds at once (its instant refund needs only the solver's signature), paying that
 * transaction's fee, and the user has their SOL back less their own fee.
 */
async function lockedAndRefused(
  t: AttackNet,
  label: string,
  lock: (user: LocalUser, order: Order) => Promise<string>,
  expectJournal: string[],
) {
  const { order, user } = orders.get(label)!;
  const asset = order.source_swap.asset;
  const amount = BigInt(order.source_swap.amount);
  const destination = order.destination_swap.asset;
  const [destinationBefore, sourceBefore, userBefore] = [
    await solverAsset(t, destination),
    await solverSource(t, order),
    await user.balance(asset),
  ];
  const locked = await lock(user, order);
  await waitFor(() => lastReason(t, order) === "secret_length_unenforced", `the refusal of ${label}`);
  await waitFor(
    () => journaled(t, order).join() === expectJournal.join(),
    `${label}: ${expectJournal.join()}`,
  );
  await solverRounds(t, 3);
  expect(journaled(t, order)).toEqual(expectJournal);
  expect(await solverAsset(t, destination)).toBe(destinationBefore);
  if (asset === SOL) {
    const refund = t.net.solver!.journal.orderActions(order.order_id)[0]!;
    const refundTx = t.net.solver!.journal.attemptsOfAction(refund.id)[0]!;
    expect(sourceBefore - (await solverSource(t, order))).toBe(feeOf(t, refundTx.txHash));
    expect(userBefore - (await user.balance(asset))).toBe(feeOf(t, locked));
  } else {
    expect(await solverSource(t, order)).toBe(sourceBefore);
    expect(userBefore - (await user.balance(asset))).toBe(amount);
  }
}

forEachFamily("secret", {
  evm: () => {
    describe("evm -> bitcoin: a 33-byte secret", () => {
      it("held by the client: refused, nothing sent, the solver's BTC untouched", async () => {
        await lockedAndRefused(t, "evm client", (u, o) => u.initiateOnChain(o), []);
      });

      it("held, the service says, by the service itself: refused all the same", async () => {
        const { order } = orders.get("evm service")!;
        t.proxy.lieAbout(order.order_id, (lied) => {
          lied.additional_data.user_secret = false;
        });
        await lockedAndRefused(t, "evm service", (u, o) => u.initiateOnChain(o), []);
        t.proxy.stopLying(order.order_id);
      });
    });
    describe("evm -> starknet: a 36-byte secret (whole u32 words: the Starknet HTLC takes it)", () => {
      it("held by the client: refused, nothing sent, the solver's Starknet WBTC untouched", async () => {
        await lockedAndRefused(t, "evm starknet", (u, o) => u.initiateOnChain(o), []);
      });
    });
    describe("quotes", () => {
      it("are refused up front for a pair whose destination does not check the source's secret length", async () => {
        await expect(t.user(0).bestQuote(EVM_SOURCE, BTC, 100_000_000n)).rejects.toThrow(/no quote/);
        const said = t.log.lines.filter((l) => l.msg === "solver gave no quote").map((l) => String(l.reason));
        expect(said.some((reason) => reason.includes("secret_length_unenforced"))).toBe(true);
        // A Starknet destination takes a preimage of any whole number of u32 words: refused up front too.
        await expect(t.user(0).bestQuote(EVM_WBTC, STARKNET_WBTC, 1_000_000n)).rejects.toThrow(/no quote/);
        // A Starknet source towards Bitcoin: Bitcoin takes a preimage the Starknet HTLC refuses.
        await expect(t.user(0).bestQuote(STARKNET_WBTC, BTC, 1_000_000n)).rejects.toThrow(/no quote/);
        // The other way the source takes any preimage: quoted as before.
        expect((await t.user(0).bestQuote(BTC, EVM_SOURCE, 100_000n)).destination.asset).toBe(EVM_SOURCE);
      });
    });
  },
  solana: () => {
    describe("solana -> bitcoin: a 33-byte secret", () => {
      it("is refused and the source refunded at once: Bitcoin would take it, the Solana source would not", async () => {
        await lockedAndRefused(t, "solana", (u, o) => u.initiateSolana(o), ["instant_refund:confirmed"]);
      });
    });
  },
  starknet: () => {
    describe("starknet -> bitcoin: a 33-byte secret (no whole number of u32 words: the Starknet HTLC refuses it)", () => {
      it("is refused and the source given back at once: Bitcoin would take it, the Starknet source would not", async () => {
        const { order, user } = orders.get("starknet")!;
        const before = {
          btc: await solverHolds(t, BTC),
          solverWbtc: solverStarknet(t, STARKNET_WBTC),
          solverStrk: solverStrk(t),
          userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
          userStrk: strkBalance(t, user.starknet.address),
        };
        const lock = await user.initiateStarknet(order);
        await waitFor(() => lastReason(t, order) === "secret_length_unenforced", "the refusal");
        await waitFor(() => journaled(t, order).includes("instant_refund:confirmed"), "the instant refund");
        await solverRounds(t, 3);
        expect(journaled(t, order)).toEqual(["instant_refund:confirmed"]);
        expect({
          btc: await solverHolds(t, BTC),
          solverWbtc: solverStarknet(t, STARKNET_WBTC),
          solverStrk: solverStrk(t),
          userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
          userStrk: strkBalance(t, user.starknet.address),
        }).toEqual({
          ...before,
          solverStrk: before.solverStrk - (await starknetFeeOfAction(t, order.order_id, "instant_refund")),
          userStrk: before.userStrk - (await starknetFee(t, lock)),
        });
      });
    });
  },
  sui: () => {
    describe("sui -> bitcoin: a 33-byte secret (the Sui module takes exactly 32 bytes)", () => {
      it("is refused and the source given back at once: Bitcoin would take it, the Sui source would not", async () => {
        const { order, user } = orders.get("sui")!;
        const snapshot = async () => ({
          btc: await solverHolds(t, BTC),
          solverSui: solverSui(t),
          userSui: suiBalance(t, SUI, user.sui.address),
        });
        const before = await snapshot();
        const lock = await user.initiateSui(order);
        await waitFor(() => lastReason(t, order) === "secret_length_unenforced", "the refusal");
        await waitFor(() => journaled(t, order).includes("instant_refund:confirmed"), "the instant refund");
        await solverRounds(t, 3);
        expect(journaled(t, order)).toEqual(["instant_refund:confirmed"]);
        expect(await snapshot()).toEqual({
          btc: before.btc,
          solverSui: before.solverSui - (await suiGasOfAction(t, order.order_id, "instant_refund")),
          userSui: before.userSui - (await suiGas(t, lock)),
        });
      });

      it("is not quoted towards Bitcoin; towards a destination that takes 32 bytes it is", async () => {
        await expect(t.user(0).bestQuote(SUI, BTC, 50_000_000_000n)).rejects.toThrow(/no quote/);
        expect((await t.user(0).bestQuote(SUI, EVM_WBTC, 50_000_000_000n)).destination.asset).toBe(EVM_WBTC);
      });
    });
  },
  solana_legacy: () => {
    // The legacy programs' redeem takes a 32-byte secret as well; a net of their own.
    let legacy: AttackNet | undefined;
    beforeAll(async () => {
      legacy = await startSecretNet({ solanaProgramVersion: "legacy" }, [
        ["solana legacy", 0, SOL, 2_000_000_000n],
      ]);
    });
    afterAll(async () => {
      await stopAttackNet(legacy);
    });
    describe("solana (legacy) -> bitcoin: a 33-byte secret", () => {
      it("is refused and the source refunded at once: Bitcoin would take it, the legacy source would not", async () => {
        await lockedAndRefused(legacy!, "solana legacy", (u, o) => u.initiateSolana(o), [
          "instant_refund:confirmed",
        ]);
      });
    });
  },
});
