/**
 * Hiding the redeem of an EVM fill: the user redeems through a contract wallet of theirs (the HTLC is
 * called internally, the transaction goes to the wallet) while the service says nothing of the redeem;
 * and a contract of theirs logs events shaped exactly like the HTLC's `Redeemed`, at the fill's order id,
 * with another secret, alone and in the very block of the real redeem, ahead of it. The solver reads the
 * configured HTLC's own logs only: it finds the real secret and redeems its source; both sides end at the
 * order's fair outcome.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { waitFor } from "../../support/localnet.js";
import { evmClients, journaled, solverRounds, type AttackNet } from "../support/attack-net.js";
import {
  deployLogEmitter,
  deploySmartWallet,
  emitRedeemedDecoy,
  redeemThrough,
  setMining,
  settled,
  swapBalances,
} from "../support/evm-moves.js";
import { serviceSaysNothingOfTheRedeem } from "../support/solana-fill.js";

const FROM = "ethereum_localnet:usdc";
const DESTINATION_CHAIN = "arbitrum_localnet";
const TO = `${DESTINATION_CHAIN}:usdc`;
const AMOUNT = 100_000_000n;

export function evmHiddenRedeem(net: () => AttackNet): void {
  let t: AttackNet;
  beforeAll(() => {
    t = net();
  });

  /** A swap the solver has filled, the service already silent about any redeem of it. */
  async function filledOrder(user: LocalUser) {
    const { secret, secretHash } = newUserSecret();
    const o = await user.createOrder(await user.bestQuote(FROM, TO, AMOUNT), { secretHash });
    const before = await swapBalances(t, user, FROM, TO);
    serviceSaysNothingOfTheRedeem(t, o);
    await user.initiateOnChain(o);
    await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined", 60_000);
    return { o, secret, before };
  }

  /** The solver redeemed its source with the order's own secret, read from the chain. */
  async function redeemedWith(o: Order, secret: Hex): Promise<void> {
    await waitFor(() => journaled(t, o).includes("redeem:confirmed"), "the solver's source redeem", 60_000);
    const redeem = t.net.solver!.journal.orderActions(o.order_id).find((a) => a.kind === "redeem");
    expect(redeem?.request.secret).toBe(secret.slice(2));
    t.proxy.stopLying(o.order_id);
  }

  describe("attack: the fill redeemed through the user's contract wallet, the service silent", () => {
    it("hides nothing: the solver reads the secret from the HTLC's log and redeems its source", async () => {
      const user = t.user(0);
      const { o, secret, before } = await filledOrder(user);
      const wallet = await deploySmartWallet(t, user, DESTINATION_CHAIN);
      const hash = await redeemThrough(t, user, wallet, o.destination_swap, secret);
      const { pub } = evmClients(t, DESTINATION_CHAIN);
      const receipt = await pub.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      // The transaction went to the wallet; the HTLC was only called from inside it.
      expect(receipt.to?.toLowerCase()).toBe(wallet.toLowerCase());

      await redeemedWith(o, secret);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      expect(await swapBalances(t, user, FROM, TO)).toEqual(await settled(t, o, before));
    });
  });

  describe("attack: a contract logs the HTLC's Redeemed event at the fill's order id with another secret", () => {
    it("misleads nothing: no redeem on the decoy; the real secret is found even in the decoy's block", async () => {
      const user = t.user(0);
      const attacker = t.user(2);
      const { o, secret, before } = await filledOrder(user);
      const emitter = await deployLogEmitter(t, attacker, DESTINATION_CHAIN);
      const decoy = (): Hex => `0x${randomBytes(32).toString("hex")}`;
      const { pub } = evmClients(t, DESTINATION_CHAIN);

      // The decoy alone: the solver learns no secret and spends nothing on one.
      const alone = await pub.waitForTransactionReceipt({
        hash: await emitRedeemedDecoy(t, attacker, emitter, o.destination_swap, decoy()),
      });
      expect(alone.logs).toHaveLength(1);
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual(["fill:confirmed"]);

      // A decoy and the real redeem in one block, the decoy first.
      const wallet = await deploySmartWallet(t, user, DESTINATION_CHAIN);
      await setMining(t, DESTINATION_CHAIN, false);
      let hashes: Hex[];
      try {
        hashes = [
          await emitRedeemedDecoy(t, attacker, emitter, o.destination_swap, decoy()),
          await redeemThrough(t, user, wallet, o.destination_swap, secret),
        ];
      } finally {
        await setMining(t, DESTINATION_CHAIN, true);
      }
      const [first, second] = await Promise.all(
        hashes.map((hash) => pub.waitForTransactionReceipt({ hash })),
      );
      expect(second!.blockNumber).toBe(first!.blockNumber);
      expect(first!.transactionIndex).toBeLessThan(second!.transactionIndex);

      await redeemedWith(o, secret);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      expect(await swapBalances(t, user, FROM, TO)).toEqual(await settled(t, o, before));
    });
  });
}
