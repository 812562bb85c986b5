/** The legacy native-SOL HTLC program on litesvm: every instruction and every refusal, with balances checked. */
import { Keypair, type PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  decodeLegacyHtlcEvents,
  decodeLegacyNativeSwapAccount,
  legacyNativeInitiateInstruction,
  legacyNativeInstantRefundInstruction,
  legacyNativeRedeemInstruction,
  legacyNativeRefundInstruction,
  legacyNativeSwapAddress,
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
afterAll(() => units.print("legacy native HTLC compute units (litesvm)"));

let h: SvmHarness;
let initiator: Keypair;
let redeemer: Keypair;
let terms: SwapTerms & { secret: Uint8Array };
let swap: PublicKey;
const RENT = 1_726_080n; // (128 + 120 bytes) at the cluster's rent: the legacy SwapAccount's minimum

beforeEach(() => {
  h = new SvmHarness();
  initiator = h.fund(10n * LAMPORTS_PER_SOL);
  redeemer = h.fund(LAMPORTS_PER_SOL);
  terms = newTerms({ redeemer: redeemer.publicKey, refundee: initiator.publicKey });
  swap = legacyNativeSwapAddress(h.legacyNativeId, initiator.publicKey, terms.secretHash).address;
});

const initiateIx = (t: SwapTerms = terms): TransactionInstruction =>
  legacyNativeInitiateInstruction(h.legacyNativeId, t);
const initiate = () => h.send([initiateIx()], [initiator]);

function redeemIx(secret = terms.secret, to: PublicKey = redeemer.publicKey): TransactionInstruction {
  return legacyNativeRedeemInstruction({
    programId: h.legacyNativeId,
    swapAccount: swap,
    initiator: initiator.publicKey,
    redeemer: to,
    secret,
  });
}

function refundIx(): TransactionInstruction {
  return legacyNativeRefundInstruction({
    programId: h.legacyNativeId,
    swapAccount: swap,
    initiator: initiator.publicKey,
  });
}

function instantRefundIx(signer: PublicKey = redeemer.publicKey): TransactionInstruction {
  return legacyNativeInstantRefundInstruction({
    programId: h.legacyNativeId,
    swapAccount: swap,
    initiator: initiator.publicKey,
    redeemer: signer,
  });
}

describe("legacy native HTLC: initiate", () => {
  it("creates the 120-byte swap account at [swap_account, initiator, secret_hash], paid by the initiator", () => {
    const slot = h.slot();
    const before = h.balance(initiator.publicKey);
    const result = initiate();
    units.record("initiate", result);

    expect(h.balance(initiator.publicKey)).toBe(before - terms.swapAmount - RENT);
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
    const info = h.svm.account(swap);
    expect(info?.owner.equals(h.legacyNativeId)).toBe(true);
    expect(info?.data.length).toBe(120);
    const stored = decodeLegacyNativeSwapAccount(info?.data ?? new Uint8Array());
    expect(stored.swapAmount).toBe(terms.swapAmount);
    expect(stored.expirySlot).toBe(slot + terms.timelock);
    expect(stored.initiator.equals(initiator.publicKey)).toBe(true);
    expect(stored.redeemer.equals(redeemer.publicKey)).toBe(true);
    expect(Buffer.from(stored.secretHash).equals(Buffer.from(terms.secretHash))).toBe(true);

    const [event] = decodeLegacyHtlcEvents("native", h.legacyNativeId, result.logs);
    expect(event).toMatchObject({
      name: "Initiated",
      swapAmount: terms.swapAmount,
      expiresInSlots: terms.timelock,
    });
    if (event?.name !== "Initiated") return;
    expect(event.initiator.equals(initiator.publicKey)).toBe(true);
    expect(event.redeemer.equals(redeemer.publicKey)).toBe(true);
  });

  it("refuses the same initiator and secret hash while the swap is live, whatever the other terms", () => {
    expect(initiate().ok).toBe(true);
    const other = h.send([initiateIx({ ...terms, swapAmount: 1n, timelock: 5n })], [initiator]);
    expectCustomError(other, 0);
    expect(other.logs.join("\n")).toContain("already in use");
  });

  it("takes the same initiator and secret hash again once the swap closed", () => {
    expect(initiate().ok).toBe(true);
    expect(h.send([redeemIx()]).ok).toBe(true);
    expect(h.send([initiateIx({ ...terms, swapAmount: 7n })], [initiator]).ok).toBe(true);
    expect(decodeLegacyNativeSwapAccount(h.accountData(swap) ?? new Uint8Array()).swapAmount).toBe(7n);
  });

  it("refuses an unsigned or read-only initiator, a read-only or foreign swap account, a fake system program", () => {
    expectCustomError(h.send([withAccount(initiateIx(), 1, { isSigner: false })]), 3010);
    expectCustomError(h.send([withAccount(initiateIx(), 1, { isWritable: false })], [initiator]), 2000);
    expectCustomError(h.send([withAccount(initiateIx(), 0, { isWritable: false })], [initiator]), 2000);
    const elsewhere = legacyNativeSwapAddress(h.legacyNativeId, redeemer.publicKey, terms.secretHash).address;
    expectCustomError(h.send([withAccount(initiateIx(), 0, { pubkey: elsewhere })], [initiator]), 2006);
    expectCustomError(h.send([withAccount(initiateIx(), 2, { pubkey: h.splId })], [initiator]), 3008);
    expect(h.svm.account(swap)).toBeUndefined();
  });

  it("refuses a zero amount and an expiry that overflows", () => {
    expectCustomError(h.send([initiateIx({ ...terms, swapAmount: 0n })], [initiator]), 6004);
    h.warpTo(10n);
    expectCustomError(h.send([initiateIx({ ...terms, timelock: (1n << 64n) - 1n })], [initiator]), 6005);
  });
});

describe("legacy native HTLC: redeem", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("pays the redeemer the amount, returns the rent to the initiator, closes the account, emits the secret", () => {
    const before = { initiator: h.balance(initiator.publicKey), redeemer: h.balance(redeemer.publicKey) };
    const result = h.send([redeemIx()]);
    units.record("redeem", result);
    expect(h.balance(redeemer.publicKey)).toBe(before.redeemer + terms.swapAmount);
    expect(h.balance(initiator.publicKey)).toBe(before.initiator + RENT);
    expect(h.balance(swap)).toBe(0n);
    const [event] = decodeLegacyHtlcEvents("native", h.legacyNativeId, result.logs);
    expect(event?.name).toBe("Redeemed");
    if (event?.name !== "Redeemed") return;
    expect(Buffer.from(event.secret).equals(Buffer.from(terms.secret))).toBe(true);
    expect(event.initiator.equals(initiator.publicKey)).toBe(true);
    expectCustomError(h.send([redeemIx()]), 3012);
  });

  it("refuses a wrong secret, another redeemer, another initiator and a read-only payee", () => {
    expectCustomError(h.send([redeemIx(new Uint8Array(32))]), 6002);
    expectCustomError(h.send([redeemIx(terms.secret, Keypair.generate().publicKey)]), 6001);
    expectCustomError(h.send([withAccount(redeemIx(), 1, { pubkey: redeemer.publicKey })]), 6000);
    expectCustomError(h.send([withAccount(redeemIx(), 2, { isWritable: false })]), 2000);
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
  });

  it("refuses a look-alike account under another owner", () => {
    const fake = Keypair.generate().publicKey;
    h.svm.setAccount(fake, {
      lamports: RENT + terms.swapAmount,
      data: h.accountData(swap) ?? new Uint8Array(),
      owner: h.nativeId,
      executable: false,
    });
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: fake })]), 3007);
  });
});

describe("legacy native HTLC: refund and instant refund", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("refunds only past the expiry slot, everything back to the initiator", () => {
    const expiry = decodeLegacyNativeSwapAccount(h.accountData(swap) ?? new Uint8Array()).expirySlot;
    h.warpTo(expiry);
    expectCustomError(h.send([refundIx()]), 6003);
    h.warpTo(expiry + 1n);
    const before = h.balance(initiator.publicKey);
    const result = h.send([refundIx()]);
    units.record("refund", result);
    expect(h.balance(initiator.publicKey)).toBe(before + terms.swapAmount + RENT);
    expect(decodeLegacyHtlcEvents("native", h.legacyNativeId, result.logs)[0]?.name).toBe("Refunded");
    expectCustomError(h.send([refundIx()]), 3012);
  });

  it("instant-refunds with the redeemer's signature only", () => {
    expectCustomError(h.send([withAccount(instantRefundIx(), 2, { isSigner: false })]), 3010);
    const stranger = h.fund(LAMPORTS_PER_SOL);
    expectCustomError(h.send([instantRefundIx(stranger.publicKey)], [stranger]), 6001);
    const before = h.balance(initiator.publicKey);
    const result = h.send([instantRefundIx()], [redeemer]);
    units.record("instant_refund", result);
    expect(h.balance(initiator.publicKey)).toBe(before + terms.swapAmount + RENT);
    expect(decodeLegacyHtlcEvents("native", h.legacyNativeId, result.logs)[0]?.name).toBe("InstantRefunded");
  });
});
