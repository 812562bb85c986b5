/**
 * A Bitcoin fill held back in the mempool (blocks take nothing below a fee rate the solver will not pay)
 * while the EVM source's timelock runs out: landing late, it would let the user refund the source and
 * still redeem the fill. The solver asks the fill's rules again before re-pricing it, finds the source
 * about to be refundable, and replaces the fill with a cancel paying its inputs back to its own wallet;
 * the user refunds the source; the solver is out only the cancel's fee.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWalletClient, http, type Address, type Hex } from "viem";
import { evmChain } from "../../../src/chains/evm/client.js";
import { htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import { CANCELLED } from "../../../src/journal/journal.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { bitcoinFeeOf } from "../../support/memory-journal.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import { confirmedAt, mineOnlyAbove, minedBitcoin } from "../support/bitcoin-moves.js";
import type { BitcoinChainConfig } from "../../../src/chains/bitcoin/config.js";

const SOURCE_CHAIN = "ethereum_localnet";
const FROM = `${SOURCE_CHAIN}:usdc`;
const BTC = "bitcoin_regtest:btc";
/**
 * Just long enough to pass the timelock rule at fill time (the Bitcoin fill's 144 one-second blocks plus
 * the 600 s margin), so that a hundred blocks take it below the rule.
 */
const SOURCE_TIMELOCK = 800;
/** Above any rate the solver pays, a cancel's doubled ceiling included. */
const HOLD_BACK_SAT_VB = 1_000n;

let t: AttackNet;

function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK }, (config) => ({
      ...config,
      chains: config.chains.map((c) =>
        c.family === "bitcoin" ? ({ ...c, bumpAfterMs: 2_000 } as BitcoinChainConfig) : c,
      ),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** A Bitcoin fill held back until the EVM source can be refunded. */
export function bitcoinStuckFill(): void {
  useNet();
  describe("attack: a Bitcoin fill held back until the source can be refunded", () => {
    it("is cancelled before it can land: the user gets the source back, the solver keeps its BTC less the fee", async () => {
      const user = t.user(0);
      const { secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(FROM, BTC, 60_000_000n), { secretHash });
      const address = order.destination_swap.swap_id;
      const solverBtc = await solverHolds(t, BTC);
      const solverFrom = await solverHolds(t, FROM);
      const userFrom = await user.balance(FROM);

      // No block takes the solver's transactions: the fill goes out and stays in the mempool.
      const restore = mineOnlyAbove(t, HOLD_BACK_SAT_VB);
      const journal = t.net.solver!.journal;
      let fillId: number;
      try {
        await user.initiateWithSignature(order);
        await waitFor(() => journaled(t, order).includes("fill:broadcast"), "the fill to be sent", 60_000);
        fillId = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!.id;

        // Time passes on the source while the fill waits: it can no longer outlast the fill's lock.
        await mineBlocks(t.net.descriptor.chains.find((c) => c.name === SOURCE_CHAIN)!.rpcUrl, 100);
        await waitFor(
          () => journal.attemptsOfAction(fillId).some((a) => a.purpose === "cancel"),
          "the solver to cancel the fill",
          60_000,
        );
        const why = t.log.find((l) => l.msg === "fill no longer safe; cancelling it");
        expect(why?.reason).toBe("source_timelock_too_short");
      } finally {
        restore();
      }
      await waitFor(() => journal.action(fillId).status === "failed", "the cancel to be final", 60_000);
      expect(journal.action(fillId).lastError).toBe(CANCELLED);
      const attempts = journal.attemptsOfAction(fillId);
      const confirmed = attempts.filter((a) => a.state === "confirmed");
      expect(confirmed.map((a) => a.purpose)).toEqual(["cancel"]);
      const cancel = confirmed[0]!;
      await minedBitcoin(t, cancel.txHash);

      // No fill ever landed: the destination address was never paid, and no fill attempt can be mined now
      // (the cancel spent their inputs).
      expect(await user.bitcoin.outputsOf(address)).toEqual([]);
      await t.net.bitcoin.mine(3);
      expect(await confirmedAt(t, address)).toBe(0n);

      // The user takes the source back once it is refundable.
      const source = t.net.descriptor.chains.find((c) => c.name === SOURCE_CHAIN)!;
      await mineBlocks(source.rpcUrl, SOURCE_TIMELOCK);
      const wallet = createWalletClient({
        account: user.account,
        chain: evmChain(source.chainId, source.name, [source.rpcUrl]),
        transport: http(source.rpcUrl),
      });
      await wallet.writeContract({
        address: source.assets.find((a) => a.id === FROM)!.htlcAddress as Address,
        abi: htlcAbi,
        functionName: "refund",
        args: [`0x${order.source_swap.swap_id}` as Hex],
      });
      await waitFor(async () => (await user.balance(FROM)) === userFrom, "the user's refund to be mined");

      // The solver: its source tokens unchanged, its BTC less exactly the cancel's fee.
      expect(await solverHolds(t, FROM)).toBe(solverFrom);
      expect(await solverHolds(t, BTC)).toBe(solverBtc - bitcoinFeeOf(cancel));
    }, 180_000);
  });
}
