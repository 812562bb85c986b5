/**
 * Time against a Starknet fill and a Starknet source.
 *
 * A Starknet fill priced out of the blocks (every block's L2 gas price above the solver's ceiling) while
 * the EVM source's timelock runs out: if it landed late, the user could refund the source and still
 * redeem the fill. The solver never signs past its ceiling; once the source, counted at its fastest
 * blocks, no longer outlasts the fill's 600 Starknet blocks counted at their slowest plus the margin, it
 * cancels the fill with a zero transfer at the fill's nonce; the user refunds the source, and the solver
 * has paid only the cancel's fee.
 *
 * A Starknet source seen through a stale head (the chain's blocks paused): its blocks left before refund
 * cannot be counted from the past, so the solver fills nothing until blocks come again, then completes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { CANCELLED } from "../../../src/journal/journal.js";
import type { StarknetChainConfig } from "../../../src/chains/starknet/config.js";
import type { SolverConfig } from "../../../src/config/types.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import {
  solverStarknet,
  solverStrk,
  starknetBalance,
  starknetFee,
  STARKNET_WBTC,
} from "../../e2e/swaps/starknet-support.js";
import { completed } from "../../e2e/swaps/bitcoin-support.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  evmClients,
  journaled,
  lastReason,
  solverHolds,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { refundOn } from "../support/evm-moves.js";
import { signedL2Price } from "../support/starknet-moves-b.js";

const SOURCE_CHAIN = "ethereum_localnet";
const EVM_WBTC = `${SOURCE_CHAIN}:wbtc`;
const STARKNET_CHAIN = "starknet_localnet";
const AMOUNT = 1_000_000n;
/**
 * EVM source blocks (a second each at the fastest): enough at fill time for the Starknet fill's 600
 * blocks at their slowest 1.25 s (750 s) plus the 600 s margin, with 150 s to spare. Counting Starknet
 * blocks at 1 s (600 s) would leave 300 s to spare.
 */
const SOURCE_TIMELOCK = 1_500;
/** Source blocks mined while the fill waits: 1 300 left, below 1 350 s (but above 1 200 s). */
const SOURCE_BLOCKS_PASSED = 200;
/** A head older than this is stale (the default allowance is a minute). */
const MAX_HEAD_AGE_MS = 5_000;

let t: AttackNet;
let ceiling: bigint;

/** The solver's config here: replacements every two seconds, and heads stale after MAX_HEAD_AGE_MS. */
function adjusted(config: SolverConfig): SolverConfig {
  return {
    ...config,
    chains: config.chains.map((c) =>
      c.name === STARKNET_CHAIN ? { ...c, bumpAfterMs: 2_000, maxHeadAgeMs: MAX_HEAD_AGE_MS } : c,
    ),
  };
}

function starknetConfig(): StarknetChainConfig {
  const chain = t.net.solverConfig.chains.find((c) => c.name === STARKNET_CHAIN);
  if (chain === undefined || chain.family !== "starknet")
    throw new Error("no Starknet chain in the solver's config");
  return chain;
}

export function starknetTime(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK }, adjusted);
    ceiling = starknetConfig().maxL2GasPriceFri;
  });
  afterAll(async () => {
    t?.net.starknet.local.resume();
    await stopAttackNet(t);
  });

  describe("attack: a Starknet fill priced out of the blocks until the source can be refunded", () => {
    it("is never signed past the ceiling and is cancelled: the user gets the source back, the solver keeps its WBTC", async () => {
      const user = t.user(0);
      const { secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(EVM_WBTC, STARKNET_WBTC, AMOUNT), {
        secretHash,
      });
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverStrk: solverStrk(t),
        solverFrom: await solverHolds(t, EVM_WBTC),
        userFrom: await user.balance(EVM_WBTC),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
      };

      // Every Starknet block from now on asks five times the solver's L2 price ceiling.
      const local = t.net.starknet.local;
      const normal = local.chain.gasPrices;
      local.setGasPrices({ l2: ceiling * 5n });
      try {
        await user.initiateOnChain(order);
        await waitFor(() => journaled(t, order).includes("fill:broadcast"), "the fill to be sent", 60_000);
        // Bumps come every two seconds and stop at the ceiling: the fill waits.
        await solverRounds(t, 6);
        expect(journaled(t, order)).toEqual(["fill:broadcast"]);

        // Time passes on the source while the fill waits: it can no longer outlast the fill's lock.
        await mineBlocks(evmClients(t, SOURCE_CHAIN).chain.rpcUrl, SOURCE_BLOCKS_PASSED);
        const journal = t.net.solver!.journal;
        const fill = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
        await waitFor(
          () => journal.attemptsOfAction(fill.id).some((a) => a.purpose === "cancel"),
          "the solver to cancel the fill",
          60_000,
        );
        const why = t.log.find(
          (l) => l.msg === "fill no longer safe; cancelling it" && l.orderId === order.order_id,
        );
        expect(why?.reason).toBe("source_timelock_too_short");
        const attempts = journal.attemptsOfAction(fill.id);
        for (const attempt of attempts) {
          const { l2Price } = signedL2Price(attempt);
          // The fill's attempts within the ceiling; the cancel within the twice the ceiling it may pay to out-bid them.
          expect(l2Price).toBeLessThanOrEqual(attempt.purpose === "cancel" ? ceiling * 2n : ceiling);
        }

        // Prices come back down: the cancel, which replaced the fill at its nonce, is what lands.
        local.setGasPrices(normal);
        await waitFor(() => journal.action(fill.id).status === "failed", "the cancel to be final", 60_000);
        expect(journal.action(fill.id).lastError).toBe(CANCELLED);
        const landed = journal.attemptsOfAction(fill.id).filter((a) => a.state === "confirmed");
        expect(landed.map((a) => a.purpose)).toEqual(["cancel"]);

        // The user takes the source back once it is refundable; nothing of the solver's moved.
        await mineBlocks(evmClients(t, SOURCE_CHAIN).chain.rpcUrl, SOURCE_TIMELOCK);
        const htlc = evmClients(t, SOURCE_CHAIN).chain.assets.find((a) => a.id === EVM_WBTC)!.htlcAddress;
        await refundOn(t, user, SOURCE_CHAIN, htlc as Address, `0x${order.source_swap.swap_id}` as Hex);
        expect(await user.balance(EVM_WBTC)).toBe(before.userFrom);
        expect(starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(before.userWbtc);
        expect(await solverHolds(t, EVM_WBTC)).toBe(before.solverFrom);
        expect(solverStarknet(t, STARKNET_WBTC)).toBe(before.solverWbtc);
        expect(before.solverStrk - solverStrk(t)).toBe(await starknetFee(t, landed[0]!.txHash));
      } finally {
        local.setGasPrices(normal);
      }
    }, 240_000);
  });

  describe("attack: a Starknet source seen through a stale head (the chain's blocks paused)", () => {
    it("fills nothing while the head is stale, then completes the swap once blocks come again", async () => {
      const user = t.user(1);
      const quote = await user.bestQuote(STARKNET_WBTC, EVM_WBTC, AMOUNT);
      const order = await user.createOrder(quote);
      const before = {
        solverWbtc: solverStarknet(t, STARKNET_WBTC),
        solverFrom: await solverHolds(t, EVM_WBTC),
        userWbtc: starknetBalance(t, STARKNET_WBTC, user.starknet.address),
        userTo: await user.balance(EVM_WBTC),
      };
      // The solver is down while the user locks the source and the chain stops making blocks.
      const config = adjusted({
        ...t.net.solverConfig,
        service: { ...t.net.solverConfig.service, url: t.proxy.url },
      });
      await t.net.solver!.stop();
      const local = t.net.starknet.local;
      try {
        await user.initiateStarknet(order);
        local.pause();
        await new Promise((resolve) => setTimeout(resolve, MAX_HEAD_AGE_MS + 2_000));
        await t.net.startSolver(config);
        await solverRounds(t, 5);
        expect(journaled(t, order)).toEqual([]);
        expect(lastReason(t, order)).toBe("source_chain_unreadable");
        const stale = t.log.find(
          (l) =>
            l.msg === "RPC endpoint's head is stale; its tips are not used" && l.chain === STARKNET_CHAIN,
        );
        expect(stale).toBeDefined();
      } finally {
        local.resume();
      }
      await waitFor(
        () => journaled(t, order).includes("fill:confirmed"),
        "the fill once blocks come again",
        90_000,
      );
      const done = await user.waitForOrder(order.order_id, completed, { timeoutMs: 120_000 });
      await waitFor(
        () => journaled(t, order).includes("redeem:confirmed"),
        "the solver's source redeem",
        90_000,
      );
      const source = BigInt(order.source_swap.amount);
      const destination = BigInt(done.destination_swap.amount);
      expect(solverStarknet(t, STARKNET_WBTC) - before.solverWbtc).toBe(source);
      expect(before.solverFrom - (await solverHolds(t, EVM_WBTC))).toBe(destination);
      expect(before.userWbtc - starknetBalance(t, STARKNET_WBTC, user.starknet.address)).toBe(source);
      expect((await user.balance(EVM_WBTC)) - before.userTo).toBe(destination);
    }, 240_000);
  });
}
