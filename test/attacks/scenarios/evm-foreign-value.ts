/**
 * Foreign value at an EVM destination: the user funds the destination's order id themselves with
 * `initiateOnBehalf`, naming the solver as the initiator (the id commits to the initiator, so the record
 * sits exactly where the solver's fill would), and tokens sent to the HTLC contract by a plain transfer.
 * A record the solver did not sign is not its fill: it does not pay a second time, does not redeem a
 * source it never judged, and does not refund the user's record; the tokens at the contract belong to no
 * order and change nothing of a fill.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import { mineBlocks, waitFor } from "../../support/localnet.js";
import {
  evmClients,
  journaled,
  lastReason,
  redeemAndSettle,
  solverRounds,
  startAttackNet,
  stopAttackNet,
  type AttackNet,
} from "../support/attack-net.js";
import {
  approveToken,
  htlcHolds,
  initiateOnBehalf,
  refundOn,
  settled,
  storedOrder,
  swapBalances,
  transferToHtlc,
} from "../support/evm-moves.js";

const SOURCE_CHAIN = "ethereum_localnet";
const DESTINATION_CHAIN = "arbitrum_localnet";
const FROM = `${SOURCE_CHAIN}:usdc`;
const TO = `${DESTINATION_CHAIN}:usdc`;
const AMOUNT = 100_000_000n;
/** Blocks: a source lock just long enough for a fill, refundable after this many blocks mined in one call. */
const SOURCE_TIMELOCK = 1_300;

let t: AttackNet;

function balances(user: LocalUser) {
  return swapBalances(t, user, FROM, TO);
}

function useNet(): void {
  beforeAll(async () => {
    t = await startAttackNet({ sourceTimelock: SOURCE_TIMELOCK });
  });
  afterAll(async () => {
    await stopAttackNet(t);
  });
}

export function evmForeignValue(): void {
  useNet();
  describe("attack: the user funds the destination in the solver's name before the fill", () => {
    it("is not the solver's fill: it pays nothing, redeems nothing; the user takes both sides back", async () => {
      const user = t.user(0);
      // The contract refuses a funder who is the redeemer: the attacker pays from a second account.
      const funder = t.user(2);
      const { secret, secretHash } = newUserSecret();
      const o = await user.createOrder(await user.bestQuote(FROM, TO, AMOUNT), { secretHash });
      await approveToken(t, funder, TO);
      const before = await balances(user);
      const funderBefore = await funder.balance(TO);

      // The destination's exact terms, paid by the attacker, with the solver as initiator (and refundee).
      await initiateOnBehalf(t, funder, o.destination_swap);
      const record = await storedOrder(t, TO, o.destination_swap.swap_id);
      expect(record.initiator).toBe(t.net.descriptor.solver.evmAddress);
      expect(record.amount).toBe(BigInt(o.destination_swap.amount));
      await user.initiateOnChain(o);

      await waitFor(() => lastReason(t, o) === "destination_occupied", "the solver to see the record");
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);

      // The user redeems the record: the secret is public, and still no reason to take a source it never judged.
      await user.redeemDestination(o, secret);
      await solverRounds(t, 4);
      expect(journaled(t, o)).toEqual([]);

      await mineBlocks(evmClients(t, SOURCE_CHAIN).chain.rpcUrl, SOURCE_TIMELOCK + 1);
      const htlc = user.assetOf(FROM).asset.htlcAddress;
      await refundOn(t, user, SOURCE_CHAIN, htlc, `0x${o.source_swap.swap_id}`);
      await solverRounds(t, 2);
      expect(journaled(t, o)).toEqual([]);
      // The destination amount went from one of the attacker's accounts to the other; the solver's held still.
      const destinationAmount = BigInt(o.destination_swap.amount);
      const [userFrom, userTo, ...solver] = before;
      expect(await balances(user)).toEqual([userFrom, userTo + destinationAmount, ...solver]);
      expect(await funder.balance(TO)).toBe(funderBefore - destinationAmount);
    }, 120_000);
  });

  describe("attack: tokens sent to the destination HTLC by a plain transfer", () => {
    it("change nothing: the solver fills and settles as usual; the tokens stay at the contract", async () => {
      const user = t.user(1);
      const { secret, secretHash } = newUserSecret();
      const o = await user.createOrder(await user.bestQuote(FROM, TO, AMOUNT), { secretHash });
      const gift = 5_000_000n;
      await transferToHtlc(t, user, TO, gift);
      const atContract = await htlcHolds(t, TO);
      const before = await balances(user);

      await user.initiateOnChain(o);
      await waitFor(() => journaled(t, o).includes("fill:confirmed"), "the fill to be mined");
      await redeemAndSettle(t, user, o, secret);
      expect(journaled(t, o)).toEqual(["fill:confirmed", "redeem:confirmed"]);
      expect(await balances(user)).toEqual(await settled(t, o, before));
      // The fill went in and out again; the transfer is still there, nobody's to take.
      expect(await htlcHolds(t, TO)).toBe(atContract);
    }, 120_000);
  });
}
