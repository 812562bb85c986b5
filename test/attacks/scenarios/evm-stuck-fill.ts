/**
 * A fill stuck in the destination's mempool while the source's timelock runs out: if it landed late, the
 * user could refund the source and still redeem the fill. The solver asks the fill's rules again before
 * re-pricing it, finds the source about to be refundable, and cancels the fill with a transaction that
 * moves nothing; the user refunds the source; the solver has lost only the cancel's gas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { evmChain } from "../../../src/chains/evm/client.js";
import { htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import { CANCELLED } from "../../../src/journal/journal.js";
import { newUserSecret } from "@htlc-solver/localnet/user.js";
import { anvilCall, mineBlocks, waitFor } from "../../support/localnet.js";
import {
  journaled,
  solverHolds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../../attacks/support/attack-net.js";

const SOURCE_CHAIN = "ethereum_localnet";
const DESTINATION_CHAIN = "arbitrum_localnet";
const FROM = `${SOURCE_CHAIN}:usdc`;
const TO = `${DESTINATION_CHAIN}:usdc`;
const GAS_COIN = `${DESTINATION_CHAIN}:eth`;
const SOURCE_TIMELOCK = 1_300;

let t: AttackNet;

function rpcOf(chain: string): string {
  const found = t.net.descriptor.chains.find((c) => c.name === chain);
  if (found === undefined) throw new Error(`no chain ${chain}`);
  return found.rpcUrl;
}

async function setMining(chain: string, on: boolean): Promise<void> {
  await anvilCall(rpcOf(chain), "evm_setAutomine", [false]);
  await anvilCall(rpcOf(chain), "evm_setIntervalMining", [on ? 1 : 0]);
}

/** Starts the net before the tests of the describe this is called in, and stops it after. */
function useNet(): void {
  beforeAll(async () => {
    // A source lock just long enough to pass the timelock rule at fill time (destination 600 blocks plus
    // the 600 s margin), so that a few hundred blocks, not thousands, take it below the rule.
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK }, (config) => ({
      ...config,
      chains: config.chains.map((c) => (c.name === DESTINATION_CHAIN ? { ...c, bumpAfterMs: 2_000 } : c)),
    }));
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

/** A fill held back until the source can be refunded. */
export function evmStuckFill(): void {
  useNet();
  describe("attack: a fill held back until the source can be refunded", () => {
    it("is cancelled before it can land: the user gets the source back, the solver keeps its tokens", async () => {
      const user = t.user(0);
      const { secretHash } = newUserSecret();
      const order = await user.createOrder(await user.bestQuote(FROM, TO, 100_000_000n), { secretHash });
      const solverTo = await solverHolds(t, TO);
      const solverFrom = await solverHolds(t, FROM);
      const solverGas = await solverHolds(t, GAS_COIN);
      const userFrom = await user.balance(FROM);

      // The destination stops mining: the fill goes out and stays in the mempool.
      await setMining(DESTINATION_CHAIN, false);
      await user.initiateOnChain(order);
      await waitFor(() => journaled(t, order).includes("fill:broadcast"), "the fill to be sent");

      // Time passes on the source while the fill waits: it can no longer outlast the destination's lock.
      await mineBlocks(rpcOf(SOURCE_CHAIN), 150);
      const journal = t.net.solver!.journal;
      const fillAction = journal.orderActions(order.order_id).find((a) => a.kind === "fill")!;
      await waitFor(
        () => journal.attemptsOfAction(fillAction.id).some((a) => a.purpose === "cancel"),
        "the solver to cancel the fill",
        60_000,
      );
      const why = t.log.find((l) => l.msg === "fill no longer safe; cancelling it");
      expect(why?.reason).toBe("source_timelock_too_short");

      await setMining(DESTINATION_CHAIN, true);
      await waitFor(
        () => journal.action(fillAction.id).status === "failed",
        "the cancel to be final",
        60_000,
      );
      expect(journal.action(fillAction.id).lastError).toBe(CANCELLED);
      const attempts = journal.attemptsOfAction(fillAction.id);
      expect(attempts.filter((a) => a.state === "confirmed").map((a) => a.purpose)).toEqual(["cancel"]);

      // The user takes the source back once it is refundable; nothing of the solver's moved.
      await mineBlocks(rpcOf(SOURCE_CHAIN), SOURCE_TIMELOCK);
      const source = t.net.descriptor.chains.find((c) => c.name === SOURCE_CHAIN)!;
      const htlc = source.assets.find((a) => a.id === FROM)!.htlcAddress;
      const wallet = createWalletClient({
        account: user.account,
        chain: evmChain(source.chainId, source.name, [source.rpcUrl]),
        transport: http(source.rpcUrl),
      });
      await wallet.writeContract({
        address: htlc as Address,
        abi: htlcAbi,
        functionName: "refund",
        args: [`0x${order.source_swap.swap_id}` as Hex],
      });
      await waitFor(async () => (await user.balance(FROM)) === userFrom, "the user's refund to be mined");
      expect(await solverHolds(t, TO)).toBe(solverTo);
      expect(await solverHolds(t, FROM)).toBe(solverFrom);
      // What the solver paid is exactly the cancel's gas at the price it was mined at; no token moved.
      const cancel = attempts.find((a) => a.state === "confirmed")!;
      const destination = t.net.descriptor.chains.find((c) => c.name === DESTINATION_CHAIN)!;
      const receipt = await createPublicClient({
        chain: evmChain(destination.chainId, destination.name, [destination.rpcUrl]),
        transport: http(destination.rpcUrl),
      }).getTransactionReceipt({ hash: cancel.txHash as Hex });
      expect(receipt.status).toBe("success");
      expect(solverGas - (await solverHolds(t, GAS_COIN))).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    }, 180_000);
  });
}
