/** The legacy SPL-token HTLC program on litesvm: every instruction and every refusal, with balances checked. */
import type { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  decodeLegacyHtlcEvents,
  decodeLegacySplSwapAccount,
  decodeTokenAccount,
  legacySplInitiateInstruction,
  legacySplInstantRefundInstruction,
  legacySplRedeemInstruction,
  legacySplRefundInstruction,
  legacySplSwapAddress,
  splIdentityAddress,
  splVaultAddress,
  type SwapTerms,
} from "../../../src/chains/solana/index.js";
import {
  ComputeUnitLog,
  LAMPORTS_PER_SOL,
  SvmHarness,
  expectCustomError,
  newTerms,
  withAccount,
} from "../../support/solana-svm.js";

const units = new ComputeUnitLog();
afterAll(() => units.print("legacy SPL HTLC compute units (litesvm)"));

const SWAP_RENT = 1_955_760n; // (128 + 153 bytes) at the cluster's rent
const VAULT_RENT = 2_039_280n; // (128 + 165 bytes)

let h: SvmHarness;
let mint: { mint: PublicKey; authority: Keypair };
let initiator: Keypair;
let sponsor: Keypair;
let redeemer: Keypair;
let initiatorTokens: PublicKey;
let redeemerTokens: PublicKey;
let terms: SwapTerms & { secret: Uint8Array };
let swapData: PublicKey;
let vault: PublicKey;

beforeEach(() => {
  h = new SvmHarness();
  mint = h.createMint(6);
  initiator = h.fund(LAMPORTS_PER_SOL);
  sponsor = h.fund(LAMPORTS_PER_SOL);
  redeemer = h.fund(LAMPORTS_PER_SOL);
  initiatorTokens = h.tokenAccount(initiator.publicKey, mint, 10_000_000n);
  redeemerTokens = h.tokenAccount(redeemer.publicKey, mint);
  terms = newTerms({ redeemer: redeemer.publicKey, refundee: initiator.publicKey, swapAmount: 1_500_000n });
  swapData = legacySplSwapAddress(h.legacySplId, initiator.publicKey, terms.secretHash).address;
  vault = splVaultAddress(h.legacySplId, mint.mint).address;
});

function initiateIx(t: SwapTerms = terms, from: PublicKey = initiatorTokens): TransactionInstruction {
  return legacySplInitiateInstruction({
    programId: h.legacySplId,
    mint: mint.mint,
    terms: t,
    initiatorTokenAccount: from,
    sponsor: sponsor.publicKey,
    destinationData: Uint8Array.of(1, 2, 3),
  });
}

const initiate = (t: SwapTerms = terms) => h.send([initiateIx(t)], [initiator, sponsor]);

const settle = (payeeTokenAccount: PublicKey) => ({
  programId: h.legacySplId,
  mint: mint.mint,
  swapData,
  payeeTokenAccount,
  sponsor: sponsor.publicKey,
});

const redeemIx = (secret = terms.secret, to = redeemerTokens) =>
  legacySplRedeemInstruction({ ...settle(to), secret });
const refundIx = (to = initiatorTokens) => legacySplRefundInstruction(settle(to));
const instantRefundIx = (signer: PublicKey = redeemer.publicKey) =>
  legacySplInstantRefundInstruction({ ...settle(initiatorTokens), redeemer: signer });

describe("legacy SPL HTLC: initiate", () => {
  it("creates the 153-byte swap data at [initiator, secret_hash] and the vault, moves the tokens", () => {
    const slot = h.slot();
    const sponsorBefore = h.balance(sponsor.publicKey);
    const result = initiate();
    units.record("initiate (creating the vault)", result);

    expect(h.tokenBalance(initiatorTokens)).toBe(10_000_000n - terms.swapAmount);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount);
    expect(h.balance(sponsor.publicKey)).toBe(sponsorBefore - SWAP_RENT - VAULT_RENT);
    const vaultState = decodeTokenAccount(h.accountData(vault) ?? new Uint8Array());
    expect(vaultState.owner.equals(splIdentityAddress(h.legacySplId).address)).toBe(true);
    const info = h.svm.account(swapData);
    expect(info?.owner.equals(h.legacySplId)).toBe(true);
    expect(info?.data.length).toBe(153);
    const stored = decodeLegacySplSwapAccount(info?.data ?? new Uint8Array());
    expect(stored).toMatchObject({
      expirySlot: slot + terms.timelock,
      swapAmount: terms.swapAmount,
      identityPdaBump: splIdentityAddress(h.legacySplId).bump,
    });
    expect(stored.initiator.equals(initiator.publicKey)).toBe(true);
    expect(stored.redeemer.equals(redeemer.publicKey)).toBe(true);
    expect(stored.sponsor.equals(sponsor.publicKey)).toBe(true);

    const [event] = decodeLegacyHtlcEvents("spl", h.legacySplId, result.logs);
    expect(event).toMatchObject({
      name: "Initiated",
      swapAmount: terms.swapAmount,
      expiresInSlots: terms.timelock,
    });
    if (event?.name !== "Initiated") return;
    expect(event.mint?.equals(mint.mint)).toBe(true);
    expect([...(event.destinationData ?? [])]).toEqual([1, 2, 3]);
  });

  it("refuses the same initiator and secret hash while live, and takes them again once closed", () => {
    expect(initiate().ok).toBe(true);
    expectCustomError(initiate({ ...terms, swapAmount: 1n }), 0);
    expect(h.send([redeemIx()]).ok).toBe(true);
    const again = initiate({ ...terms, swapAmount: 2n });
    units.record("initiate", again);
    expect(decodeLegacySplSwapAccount(h.accountData(swapData) ?? new Uint8Array()).swapAmount).toBe(2n);
  });

  it("refuses unsigned initiator or sponsor, another's token account, a swap data elsewhere", () => {
    expectCustomError(h.send([withAccount(initiateIx(), 3, { isSigner: false })], [sponsor]), 3010);
    expectCustomError(h.send([withAccount(initiateIx(), 6, { isSigner: false })], [initiator]), 3010);
    expectCustomError(h.send([initiateIx(terms, redeemerTokens)], [initiator, sponsor]), 2015);
    const elsewhere = legacySplSwapAddress(h.legacySplId, sponsor.publicKey, terms.secretHash).address;
    expectCustomError(
      h.send([withAccount(initiateIx(), 1, { pubkey: elsewhere })], [initiator, sponsor]),
      2006,
    );
    expectCustomError(initiate({ ...terms, swapAmount: 0n }), 6004);
    expect(h.svm.account(swapData)).toBeUndefined();
  });
});

describe("legacy SPL HTLC: settle", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("redeems to the redeemer's token account, the rent back to the sponsor, the secret in the event", () => {
    const sponsorBefore = h.balance(sponsor.publicKey);
    const result = h.send([redeemIx()]);
    units.record("redeem", result);
    expect(h.tokenBalance(redeemerTokens)).toBe(terms.swapAmount);
    expect(h.tokenBalance(vault)).toBe(0n);
    expect(h.balance(sponsor.publicKey)).toBe(sponsorBefore + SWAP_RENT);
    const [event] = decodeLegacyHtlcEvents("spl", h.legacySplId, result.logs);
    expect(event?.name === "Redeemed" && Buffer.from(event.secret).equals(Buffer.from(terms.secret))).toBe(
      true,
    );
    expectCustomError(h.send([redeemIx()]), 3012);
  });

  it("refuses a wrong secret, a thief's token account, another sponsor", () => {
    expectCustomError(h.send([redeemIx(new Uint8Array(32))]), 6001);
    expectCustomError(h.send([redeemIx(terms.secret, initiatorTokens)]), 2015);
    expectCustomError(h.send([withAccount(redeemIx(), 4, { pubkey: redeemer.publicKey })]), 6002);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount);
  });

  it("refunds past expiry only, to the initiator's token account", () => {
    const expiry = decodeLegacySplSwapAccount(h.accountData(swapData) ?? new Uint8Array()).expirySlot;
    h.warpTo(expiry);
    expectCustomError(h.send([refundIx()]), 6003);
    h.warpTo(expiry + 1n);
    expectCustomError(h.send([refundIx(redeemerTokens)]), 2015);
    const result = h.send([refundIx()]);
    units.record("refund", result);
    expect(h.tokenBalance(initiatorTokens)).toBe(10_000_000n);
    expect(decodeLegacyHtlcEvents("spl", h.legacySplId, result.logs)[0]?.name).toBe("Refunded");
  });

  it("instant-refunds with the stored redeemer's signature only", () => {
    const stranger = h.fund(LAMPORTS_PER_SOL);
    expectCustomError(h.send([instantRefundIx(stranger.publicKey)], [stranger]), 6000);
    expectCustomError(h.send([withAccount(instantRefundIx(), 4, { isSigner: false })]), 3010);
    const result = h.send([instantRefundIx()], [redeemer]);
    units.record("instant_refund", result);
    expect(h.tokenBalance(initiatorTokens)).toBe(10_000_000n);
    expect(decodeLegacyHtlcEvents("spl", h.legacySplId, result.logs)[0]?.name).toBe("InstantRefunded");
  });

  it("pays from whichever mint's vault it is handed: the swap data stores no mint", () => {
    // Another mint's swap fills its own vault; this swap's redeem pointed at that vault is accepted.
    const other = h.createMint(6);
    const otherInitiator = h.fund(LAMPORTS_PER_SOL);
    const otherTokens = h.tokenAccount(otherInitiator.publicKey, other, 5_000_000n);
    const otherTerms = newTerms({ refundee: otherInitiator.publicKey, swapAmount: 5_000_000n });
    const otherIx = legacySplInitiateInstruction({
      programId: h.legacySplId,
      mint: other.mint,
      terms: otherTerms,
      initiatorTokenAccount: otherTokens,
      sponsor: sponsor.publicKey,
    });
    expect(h.send([otherIx], [otherInitiator, sponsor]).ok).toBe(true);
    const thiefTokens = h.tokenAccount(redeemer.publicKey, other);
    const crossMint = legacySplRedeemInstruction({
      programId: h.legacySplId,
      mint: other.mint,
      swapData,
      payeeTokenAccount: thiefTokens,
      sponsor: sponsor.publicKey,
      secret: terms.secret,
    });
    expect(h.send([crossMint]).ok).toBe(true);
    expect(h.tokenBalance(thiefTokens)).toBe(terms.swapAmount);
  });
});
