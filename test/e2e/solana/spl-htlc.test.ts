/** The SPL-token HTLC program on litesvm: every instruction and every refusal, with token balances checked. */
import type { PublicKey } from "@solana/web3.js";
import { Keypair, type TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  TOKEN_PROGRAM_ID,
  decodeHtlcEvents,
  decodeSplSwapAccount,
  decodeTokenAccount,
  splIdentityAddress,
  splInitiateInstruction,
  splInstantRefundInstruction,
  splRedeemInstruction,
  splRefundInstruction,
  splSwapAddress,
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
  type SendResult,
} from "../../support/solana-svm.js";

const units = new ComputeUnitLog();
afterAll(() => units.print("SPL HTLC compute units (litesvm)"));

const SWAP_RENT = 2_241_120n; // (128 + 194 bytes) at the cluster's rent
const VAULT_RENT = 2_039_280n; // (128 + 165 bytes)

let h: SvmHarness;
let mint: { mint: PublicKey; authority: Keypair };
let funder: Keypair;
let sponsor: Keypair;
let redeemer: Keypair;
let refundee: Keypair;
let funderTokens: PublicKey;
let redeemerTokens: PublicKey;
let refundeeTokens: PublicKey;
let terms: SwapTerms & { secret: Uint8Array };
let swapData: PublicKey;
let vault: PublicKey;

beforeEach(() => {
  h = new SvmHarness();
  mint = h.createMint(6);
  funder = h.fund(LAMPORTS_PER_SOL);
  sponsor = h.fund(LAMPORTS_PER_SOL);
  redeemer = h.fund(LAMPORTS_PER_SOL);
  refundee = h.fund(LAMPORTS_PER_SOL);
  funderTokens = h.tokenAccount(funder.publicKey, mint, 10_000_000n);
  redeemerTokens = h.tokenAccount(redeemer.publicKey, mint);
  refundeeTokens = h.tokenAccount(refundee.publicKey, mint);
  terms = newTerms({ redeemer: redeemer.publicKey, refundee: refundee.publicKey, swapAmount: 1_500_000n });
  swapData = splSwapAddress(h.splId, mint.mint, terms).address;
  vault = splVaultAddress(h.splId, mint.mint).address;
});

function initiateIx(t: SwapTerms = terms, from: PublicKey = funderTokens): TransactionInstruction {
  return splInitiateInstruction({
    programId: h.splId,
    mint: mint.mint,
    terms: t,
    funder: funder.publicKey,
    funderTokenAccount: from,
    rentSponsor: sponsor.publicKey,
    destinationData: Uint8Array.of(1, 2, 3),
  });
}

function initiate(t: SwapTerms = terms): SendResult {
  return h.send([initiateIx(t)], [funder, sponsor]);
}

const settle = (payee: PublicKey) => ({
  programId: h.splId,
  mint: mint.mint,
  swapData,
  payeeTokenAccount: payee,
  rentSponsor: sponsor.publicKey,
});
const redeemIx = (secret = terms.secret, payee = redeemerTokens) =>
  splRedeemInstruction({ ...settle(payee), secret });
const refundIx = (payee = refundeeTokens) => splRefundInstruction(settle(payee));
const instantRefundIx = (signer: PublicKey = redeemer.publicKey) =>
  splInstantRefundInstruction({ ...settle(refundeeTokens), redeemer: signer });

/** A token account of `mint` owned by `owner` at a fresh address (not an associated token account). */
function plantTokenAccount(
  owner: PublicKey,
  ofMint: PublicKey,
  amount: bigint,
  address = Keypair.generate().publicKey,
): PublicKey {
  const data = new Uint8Array(165);
  data.set(ofMint.toBytes(), 0);
  data.set(owner.toBytes(), 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1; // initialized
  h.svm.setAccount(address, {
    lamports: VAULT_RENT,
    data,
    owner: TOKEN_PROGRAM_ID,
    executable: false,
  });
  return address;
}

describe("SPL HTLC: initiate", () => {
  it("creates the vault on a mint's first swap, stores the live layout and emits Initiated", () => {
    const slot = h.slot();
    const sponsorBefore = h.balance(sponsor.publicKey);
    const result = initiate();
    units.record("initiate (first swap of a mint: creates the vault)", result);
    expect(h.tokenBalance(funderTokens)).toBe(10_000_000n - terms.swapAmount);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount);
    expect(h.balance(sponsor.publicKey)).toBe(sponsorBefore - SWAP_RENT - VAULT_RENT);
    const vaultState = decodeTokenAccount(h.accountData(vault) ?? new Uint8Array());
    expect(vaultState.owner.equals(splIdentityAddress(h.splId).address)).toBe(true);
    expect(vaultState.mint.equals(mint.mint)).toBe(true);

    const stored = decodeSplSwapAccount(h.accountData(swapData) ?? new Uint8Array());
    expect(h.accountData(swapData)?.length).toBe(194);
    expect(stored.bump).toBe(splSwapAddress(h.splId, mint.mint, terms).bump);
    expect(stored.expirySlot).toBe(slot + terms.timelock);
    expect(stored.identityPdaBump).toBe(splIdentityAddress(h.splId).bump);
    expect(stored.rentSponsor.equals(sponsor.publicKey)).toBe(true);
    expect(stored.mint.equals(mint.mint)).toBe(true);
    expect(stored.redeemer.equals(redeemer.publicKey)).toBe(true);
    expect(stored.refundee.equals(refundee.publicKey)).toBe(true);
    expect(stored.swapAmount).toBe(terms.swapAmount);
    expect(stored.timelock).toBe(terms.timelock);

    const [event] = decodeHtlcEvents("spl", h.splId, result.logs);
    expect(event?.name).toBe("Initiated");
    if (event?.name !== "Initiated") return;
    expect(event.mint?.equals(mint.mint)).toBe(true);
    expect(event.funder.equals(funder.publicKey)).toBe(true);
    expect([...(event.destinationData ?? [])]).toEqual([1, 2, 3]);
  });

  it("reuses the vault for the next swap of the same mint", () => {
    expect(initiate().ok).toBe(true);
    const second = newTerms({
      redeemer: redeemer.publicKey,
      refundee: refundee.publicKey,
      swapAmount: 700_000n,
    });
    const sponsorBefore = h.balance(sponsor.publicKey);
    const result = initiate(second);
    units.record("initiate (vault exists)", result);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount + 700_000n);
    expect(h.balance(sponsor.publicKey)).toBe(sponsorBefore - SWAP_RENT);
  });

  it("refuses a second initiate of the same swap", () => {
    expect(initiate().ok).toBe(true);
    expectCustomError(initiate(), 0);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount);
  });

  it("refuses a funder token account of another mint or owner", () => {
    const otherMint = h.createMint(6);
    expectCustomError(
      h.send([initiateIx(terms, h.tokenAccount(funder.publicKey, otherMint, 5_000_000n))], [funder, sponsor]),
      2014,
    );
    const someoneElses = h.tokenAccount(refundee.publicKey, mint, 5_000_000n);
    expectCustomError(h.send([initiateIx(terms, someoneElses)], [funder, sponsor]), 2015);
    expect(h.tokenBalance(someoneElses)).toBe(5_000_000n);
  });

  it("refuses a fake vault, a vault of another mint and a fake identity", () => {
    const identity = splIdentityAddress(h.splId).address;
    const fakeVault = plantTokenAccount(identity, mint.mint, 0n);
    expectCustomError(h.send([withAccount(initiateIx(), 2, { pubkey: fakeVault })], [funder, sponsor]), 2006);
    const otherVault = splVaultAddress(h.splId, h.createMint(6).mint).address;
    expectCustomError(
      h.send([withAccount(initiateIx(), 2, { pubkey: otherVault })], [funder, sponsor]),
      2006,
    );
    expectCustomError(
      h.send([withAccount(initiateIx(), 0, { pubkey: Keypair.generate().publicKey })], [funder, sponsor]),
      2006,
    );
  });

  it("refuses a vault address squatted by a token account of another owner", () => {
    plantTokenAccount(funder.publicKey, mint.mint, 0n, vault);
    expectCustomError(initiate(), 2015);
  });

  it("refuses unsigned parties, a wrong token program, a zero amount and a wrong swap address", () => {
    expectCustomError(h.send([withAccount(initiateIx(), 3, { isSigner: false })], [sponsor]), 3010);
    expectCustomError(h.send([withAccount(initiateIx(), 6, { isSigner: false })], [funder]), 3010);
    expectCustomError(
      h.send([withAccount(initiateIx(), 7, { pubkey: h.nativeId })], [funder, sponsor]),
      3008,
    );
    expectCustomError(
      h.send([withAccount(initiateIx(), 8, { pubkey: h.nativeId })], [funder, sponsor]),
      3008,
    );
    expectCustomError(h.send([initiateIx({ ...terms, swapAmount: 0n })], [funder, sponsor]), 6004);
    const other = splSwapAddress(h.splId, mint.mint, { ...terms, swapAmount: 1n }).address;
    expectCustomError(h.send([withAccount(initiateIx(), 1, { pubkey: other })], [funder, sponsor]), 2006);
    expectCustomError(
      h.send([withAccount(initiateIx(), 5, { pubkey: funderTokens })], [funder, sponsor]),
      3003,
    );
    const ix = initiateIx();
    expectCustomError(
      h.send([{ ...ix, keys: ix.keys.slice(0, 8) } as TransactionInstruction], [funder, sponsor]),
      3005,
    );
  });

  it("fails when the funder holds too few tokens (the Token program refuses)", () => {
    expectCustomError(initiate({ ...terms, swapAmount: 10_000_001n }), 1);
    expect(h.svm.account(swapData)).toBeUndefined();
  });
});

describe("SPL HTLC: redeem", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("pays the redeemer's token account, returns the rent and emits Redeemed", () => {
    const sponsorBefore = h.balance(sponsor.publicKey);
    const result = h.send([redeemIx()]);
    units.record("redeem", result);
    expect(h.tokenBalance(redeemerTokens)).toBe(terms.swapAmount);
    expect(h.tokenBalance(vault)).toBe(0n);
    expect(h.balance(sponsor.publicKey)).toBe(sponsorBefore + SWAP_RENT);
    expect(h.accountData(swapData)).toBeUndefined();
    const [event] = decodeHtlcEvents("spl", h.splId, result.logs);
    expect(event?.name === "Redeemed" && Buffer.from(event.secret).equals(Buffer.from(terms.secret))).toBe(
      true,
    );
  });

  it("refuses a wrong secret and a second redeem", () => {
    expectCustomError(h.send([redeemIx(new Uint8Array(32))]), 6001);
    expect(h.send([redeemIx()]).ok).toBe(true);
    expectCustomError(h.send([redeemIx()]), 3012);
  });

  it("refuses a payee token account owned by someone else or of another mint", () => {
    const thief = h.fund(LAMPORTS_PER_SOL);
    const thiefTokens = h.tokenAccount(thief.publicKey, mint);
    expectCustomError(h.send([redeemIx(terms.secret, thiefTokens)]), 2015);
    const otherMintTokens = h.tokenAccount(redeemer.publicKey, h.createMint(6));
    expectCustomError(h.send([redeemIx(terms.secret, otherMintTokens)]), 2014);
    expect(h.tokenBalance(thiefTokens)).toBe(0n);
    expect(h.tokenBalance(vault)).toBe(terms.swapAmount);
  });

  it("accepts any token account of the redeemer, not only the associated one", () => {
    const extra = plantTokenAccount(redeemer.publicKey, mint.mint, 0n);
    expect(h.send([redeemIx(terms.secret, extra)]).ok).toBe(true);
    expect(h.tokenBalance(extra)).toBe(terms.swapAmount);
  });

  it("refuses a fake vault, a fake identity, a wrong rent sponsor and a wrong token program", () => {
    const identity = splIdentityAddress(h.splId).address;
    const fakeVault = plantTokenAccount(identity, mint.mint, terms.swapAmount);
    expectCustomError(h.send([withAccount(redeemIx(), 2, { pubkey: fakeVault })]), 2006);
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: Keypair.generate().publicKey })]), 2006);
    expectCustomError(h.send([withAccount(redeemIx(), 4, { pubkey: redeemer.publicKey })]), 6002);
    expectCustomError(h.send([withAccount(redeemIx(), 5, { pubkey: h.nativeId })]), 3008);
    expectCustomError(h.send([withAccount(redeemIx(), 1, { isWritable: false })]), 2000);
    expectCustomError(h.send([withAccount(redeemIx(), 3, { isWritable: false })]), 2000);
  });

  it("refuses a swap data account copied under another owner or address", () => {
    const data = h.accountData(swapData) ?? new Uint8Array();
    const copy = Keypair.generate().publicKey;
    h.svm.setAccount(copy, { lamports: SWAP_RENT, data, owner: h.splId, executable: false });
    expectCustomError(h.send([withAccount(redeemIx(), 1, { pubkey: copy })]), 2006);
    const foreign = Keypair.generate().publicKey;
    h.svm.setAccount(foreign, { lamports: SWAP_RENT, data, owner: h.nativeId, executable: false });
    expectCustomError(h.send([withAccount(redeemIx(), 1, { pubkey: foreign })]), 3007);
  });
});

describe("SPL HTLC: refund and instant refund", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("refunds only after the expiry slot, to the refundee's token account", () => {
    const expiry = decodeSplSwapAccount(h.accountData(swapData) ?? new Uint8Array()).expirySlot;
    h.warpTo(expiry);
    expectCustomError(h.send([refundIx()]), 6003);
    h.warpTo(expiry + 1n);
    expectCustomError(h.send([refundIx(redeemerTokens)]), 2015);
    const result = h.send([refundIx()]);
    units.record("refund", result);
    expect(h.tokenBalance(refundeeTokens)).toBe(terms.swapAmount);
    expect(decodeHtlcEvents("spl", h.splId, result.logs)[0]?.name).toBe("Refunded");
    expectCustomError(h.send([redeemIx()]), 3012);
  });

  it("instant-refunds with the redeemer's signature only", () => {
    expectCustomError(h.send([withAccount(instantRefundIx(), 4, { isSigner: false })]), 3010);
    const impostor = h.fund(LAMPORTS_PER_SOL);
    expectCustomError(h.send([instantRefundIx(impostor.publicKey)], [impostor]), 6000);
    const result = h.send([instantRefundIx()], [redeemer]);
    units.record("instant_refund", result);
    expect(h.tokenBalance(refundeeTokens)).toBe(terms.swapAmount);
    expect(h.accountData(swapData)).toBeUndefined();
    expect(decodeHtlcEvents("spl", h.splId, result.logs)[0]?.name).toBe("InstantRefunded");
  });
});
