/** The native-SOL HTLC program on litesvm: every instruction and every refusal, with balances checked. */
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  accountDiscriminator,
  decodeHtlcEvents,
  decodeNativeSwapAccount,
  instructionDiscriminator,
  nativeInitiateInstruction,
  nativeInstantRefundInstruction,
  nativeRedeemInstruction,
  nativeRefundInstruction,
  nativeSwapAddress,
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
afterAll(() => units.print("native HTLC compute units (litesvm)"));

let h: SvmHarness;
let funder: Keypair;
let sponsor: Keypair;
let redeemer: Keypair;
let refundee: Keypair;
let terms: SwapTerms & { secret: Uint8Array };
let swap: PublicKey;
const RENT = 2_011_440n; // (128 + 161 bytes) at the cluster's rent: the SwapAccount's rent-exempt minimum

beforeEach(() => {
  h = new SvmHarness();
  funder = h.fund(10n * LAMPORTS_PER_SOL);
  sponsor = h.fund(LAMPORTS_PER_SOL);
  redeemer = h.fund(LAMPORTS_PER_SOL);
  refundee = h.fund(LAMPORTS_PER_SOL);
  terms = newTerms({ redeemer: redeemer.publicKey, refundee: refundee.publicKey });
  swap = nativeSwapAddress(h.nativeId, terms).address;
});

function initiateIx(t: SwapTerms = terms, destinationData?: Uint8Array): TransactionInstruction {
  return nativeInitiateInstruction({
    programId: h.nativeId,
    terms: t,
    funder: funder.publicKey,
    rentSponsor: sponsor.publicKey,
    ...(destinationData ? { destinationData } : {}),
  });
}

function initiate(): SendResult {
  return h.send([initiateIx()], [funder, sponsor]);
}

function redeemIx(secret = terms.secret): TransactionInstruction {
  return nativeRedeemInstruction({
    programId: h.nativeId,
    swapAccount: swap,
    redeemer: redeemer.publicKey,
    rentSponsor: sponsor.publicKey,
    secret,
  });
}

function refundIx(): TransactionInstruction {
  return nativeRefundInstruction({
    programId: h.nativeId,
    swapAccount: swap,
    refundee: refundee.publicKey,
    rentSponsor: sponsor.publicKey,
  });
}

function instantRefundIx(signer: PublicKey = redeemer.publicKey): TransactionInstruction {
  return nativeInstantRefundInstruction({
    programId: h.nativeId,
    swapAccount: swap,
    refundee: refundee.publicKey,
    redeemer: signer,
    rentSponsor: sponsor.publicKey,
  });
}

describe("native HTLC: initiate", () => {
  it("creates the swap account with the live layout, moves amount and rent, and emits Initiated", () => {
    const destination = new TextEncoder().encode("bitcoin_testnet:bc1qexample");
    const slot = h.slot();
    const before = { funder: h.balance(funder.publicKey), sponsor: h.balance(sponsor.publicKey) };
    const result = h.send([initiateIx(terms, destination)], [funder, sponsor]);
    units.record("initiate (with destination_data)", result);

    expect(h.balance(funder.publicKey)).toBe(before.funder - terms.swapAmount);
    expect(h.balance(sponsor.publicKey)).toBe(before.sponsor - RENT);
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
    const info = h.svm.account(swap);
    expect(info?.owner.equals(h.nativeId)).toBe(true);
    expect(info?.data.length).toBe(161);
    expect(
      Buffer.from(info?.data.subarray(0, 8) ?? []).equals(Buffer.from(accountDiscriminator("SwapAccount"))),
    ).toBe(true);
    const stored = decodeNativeSwapAccount(info?.data ?? new Uint8Array());
    expect(stored.expirySlot).toBe(slot + terms.timelock);
    expect(stored.bump).toBe(nativeSwapAddress(h.nativeId, terms).bump);
    expect(stored.redeemer.equals(redeemer.publicKey)).toBe(true);
    expect(stored.refundee.equals(refundee.publicKey)).toBe(true);
    expect(Buffer.from(stored.secretHash).equals(Buffer.from(terms.secretHash))).toBe(true);
    expect(stored.swapAmount).toBe(terms.swapAmount);
    expect(stored.rentSponsor.equals(sponsor.publicKey)).toBe(true);
    expect(stored.timelock).toBe(terms.timelock);

    const [event] = decodeHtlcEvents("native", h.nativeId, result.logs);
    expect(event?.name).toBe("Initiated");
    if (event?.name !== "Initiated") return;
    expect(event.funder.equals(funder.publicKey)).toBe(true);
    expect(Buffer.from(event.destinationData ?? []).toString()).toBe("bitcoin_testnet:bc1qexample");
    expect(event.swapAmount).toBe(terms.swapAmount);
    expect(event.mint).toBeUndefined();
  });

  it("emits Initiated without destination data when none is given", () => {
    const result = initiate();
    units.record("initiate", result);
    const [event] = decodeHtlcEvents("native", h.nativeId, result.logs);
    expect(event?.name === "Initiated" && event.destinationData === undefined).toBe(true);
  });

  it("lets the funder be its own rent sponsor", () => {
    const ix = nativeInitiateInstruction({
      programId: h.nativeId,
      terms,
      funder: funder.publicKey,
      rentSponsor: funder.publicKey,
    });
    const before = h.balance(funder.publicKey);
    expect(h.send([ix], [funder]).ok).toBe(true);
    expect(h.balance(funder.publicKey)).toBe(before - terms.swapAmount - RENT);
  });

  it("initiates at an address someone pre-funded, keeping the donation in the account", () => {
    h.svm.airdrop(swap, 5_000n);
    expect(initiate().ok).toBe(true);
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
    expect(decodeNativeSwapAccount(h.accountData(swap) ?? new Uint8Array()).swapAmount).toBe(
      terms.swapAmount,
    );
  });

  it("refuses a second initiate of the same swap (the System program reports the account in use)", () => {
    expect(initiate().ok).toBe(true);
    const again = initiate();
    expectCustomError(again, 0);
    expect(again.logs.join("\n")).toContain("already in use");
  });

  it("refuses an unsigned funder, an unsigned rent sponsor and read-only accounts", () => {
    expectCustomError(h.send([withAccount(initiateIx(), 1, { isSigner: false })], [sponsor]), 3010);
    expectCustomError(h.send([withAccount(initiateIx(), 2, { isSigner: false })], [funder]), 3010);
    expectCustomError(h.send([withAccount(initiateIx(), 0, { isWritable: false })], [funder, sponsor]), 2000);
    expectCustomError(h.send([withAccount(initiateIx(), 1, { isWritable: false })], [funder, sponsor]), 2000);
    expect(h.svm.account(swap)).toBeUndefined();
  });

  it("refuses a swap account that is not the program address of the terms", () => {
    const other = nativeSwapAddress(h.nativeId, { ...terms, timelock: terms.timelock + 1n }).address;
    expectCustomError(h.send([withAccount(initiateIx(), 0, { pubkey: other })], [funder, sponsor]), 2006);
  });

  it("refuses a fake system program", () => {
    expectCustomError(h.send([withAccount(initiateIx(), 3, { pubkey: h.splId })], [funder, sponsor]), 3008);
  });

  it("refuses a zero amount and a timelock that overflows the expiry slot", () => {
    expectCustomError(h.send([initiateIx({ ...terms, swapAmount: 0n })], [funder, sponsor]), 6005);
    h.warpTo(10n); // slot 0 plus any u64 timelock still fits
    expectCustomError(
      h.send([initiateIx({ ...terms, timelock: (1n << 64n) - 1n })], [funder, sponsor]),
      6006,
    );
  });

  it("fails when the funder cannot pay (System program: insufficient lamports)", () => {
    const poor = h.fund(1_000_000n);
    const ix = nativeInitiateInstruction({
      programId: h.nativeId,
      terms,
      funder: poor.publicKey,
      rentSponsor: sponsor.publicKey,
    });
    expectCustomError(h.send([ix], [poor, sponsor]), 1);
    expect(h.svm.account(swap)).toBeUndefined();
  });

  it("refuses missing accounts and malformed instruction data", () => {
    const ix = initiateIx();
    expectCustomError(
      h.send([{ ...ix, keys: ix.keys.slice(0, 3) } as TransactionInstruction], [funder, sponsor]),
      3005,
    );
    expectCustomError(
      h.send([{ ...ix, data: ix.data.subarray(0, 100) } as TransactionInstruction], [funder, sponsor]),
      102,
    );
    const badOption = Buffer.from(ix.data);
    badOption[8 + 32 + 32 + 32 + 8 + 8] = 2;
    expectCustomError(h.send([{ ...ix, data: badOption } as TransactionInstruction], [funder, sponsor]), 102);
    expectCustomError(
      h.send([{ ...ix, data: Buffer.from("notaninstruction") } as TransactionInstruction], [funder, sponsor]),
      101,
    );
    expectCustomError(
      h.send([{ ...ix, data: Buffer.from([5, 63, 123]) } as TransactionInstruction], [funder, sponsor]),
      100,
    );
  });
});

describe("native HTLC: redeem", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("pays the amount to the redeemer, the rent to the sponsor, closes the account and emits Redeemed", () => {
    const before = { redeemer: h.balance(redeemer.publicKey), sponsor: h.balance(sponsor.publicKey) };
    const result = h.send([redeemIx()]);
    units.record("redeem", result);
    expect(h.balance(redeemer.publicKey)).toBe(before.redeemer + terms.swapAmount);
    expect(h.balance(sponsor.publicKey)).toBe(before.sponsor + RENT);
    expect(h.balance(swap)).toBe(0n);
    expect(h.accountData(swap)).toBeUndefined();
    const [event] = decodeHtlcEvents("native", h.nativeId, result.logs);
    expect(event?.name).toBe("Redeemed");
    if (event?.name === "Redeemed")
      expect(Buffer.from(event.secret).equals(Buffer.from(terms.secret))).toBe(true);
  });

  it("refuses a wrong secret", () => {
    const result = h.send([redeemIx(new Uint8Array(32).fill(7))]);
    expectCustomError(result, 6002);
    expect(result.logs.join("\n")).toContain("Error Code: InvalidSecret. Error Number: 6002");
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
  });

  it("refuses a redeemer or rent sponsor other than the stored ones", () => {
    const thief = Keypair.generate().publicKey;
    expectCustomError(h.send([withAccount(redeemIx(), 1, { pubkey: thief })]), 6001);
    expectCustomError(h.send([withAccount(redeemIx(), 2, { pubkey: thief })]), 6003);
    expect(h.balance(thief)).toBe(0n);
  });

  it("refuses read-only accounts", () => {
    expectCustomError(h.send([withAccount(redeemIx(), 0, { isWritable: false })]), 2000);
    expectCustomError(h.send([withAccount(redeemIx(), 1, { isWritable: false })]), 2000);
    expectCustomError(h.send([withAccount(redeemIx(), 2, { isWritable: false })]), 2000);
  });

  it("refuses a second redeem and a refund of a redeemed swap: the account is closed", () => {
    expect(h.send([redeemIx()]).ok).toBe(true);
    expectCustomError(h.send([redeemIx()]), 3012);
    h.warpTo(h.slot() + 1000n);
    expectCustomError(h.send([refundIx()]), 3012);
  });

  it("refuses missing accounts and a missing secret", () => {
    const ix = redeemIx();
    expectCustomError(h.send([{ ...ix, keys: ix.keys.slice(0, 2) } as TransactionInstruction]), 3005);
    expectCustomError(h.send([{ ...ix, data: ix.data.subarray(0, 39) } as TransactionInstruction]), 102);
  });
});

describe("native HTLC: forged swap accounts", () => {
  function plant(
    owner: PublicKey,
    data: Uint8Array,
    address: PublicKey = Keypair.generate().publicKey,
  ): PublicKey {
    h.svm.setAccount(address, { lamports: 10n * LAMPORTS_PER_SOL, data, owner, executable: false });
    return address;
  }

  function forgedData(): Uint8Array {
    expect(initiate().ok).toBe(true);
    return new Uint8Array(h.accountData(swap) ?? []);
  }

  it("refuses a copy of a swap account owned by another program", () => {
    const data = forgedData();
    const fake = plant(Keypair.generate().publicKey, data);
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: fake })]), 3007);
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: plant(h.splId, data) })]), 3007);
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: plant(PublicKey.default, data) })]), 3007);
  });

  it("refuses a program-owned account at an address that is not its terms' program address", () => {
    const fake = plant(h.nativeId, forgedData());
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: fake })]), 2006);
  });

  it("refuses program-owned data that is no SwapAccount or too short", () => {
    const data = forgedData();
    const wrongType = data.slice();
    wrongType[0] = (wrongType[0] ?? 0) ^ 0xff;
    expectCustomError(h.send([withAccount(redeemIx(), 0, { pubkey: plant(h.nativeId, wrongType) })]), 3002);
    expectCustomError(
      h.send([withAccount(redeemIx(), 0, { pubkey: plant(h.nativeId, data.slice(0, 5)) })]),
      3001,
    );
    expectCustomError(
      h.send([withAccount(redeemIx(), 0, { pubkey: plant(h.nativeId, data.slice(0, 100)) })]),
      3003,
    );
  });
});

describe("native HTLC: refund", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("refuses a refund until the slot is past the expiry slot, then pays the refundee", () => {
    const expiry = decodeNativeSwapAccount(h.accountData(swap) ?? new Uint8Array()).expirySlot;
    h.warpTo(expiry);
    expectCustomError(h.send([refundIx()]), 6004);
    h.warpTo(expiry + 1n);
    const before = { refundee: h.balance(refundee.publicKey), sponsor: h.balance(sponsor.publicKey) };
    const result = h.send([refundIx()]);
    units.record("refund", result);
    expect(h.balance(refundee.publicKey)).toBe(before.refundee + terms.swapAmount);
    expect(h.balance(sponsor.publicKey)).toBe(before.sponsor + RENT);
    expect(h.accountData(swap)).toBeUndefined();
    expect(decodeHtlcEvents("native", h.nativeId, result.logs)[0]?.name).toBe("Refunded");
    expectCustomError(h.send([redeemIx()]), 3012);
  });

  it("refuses a refundee or rent sponsor other than the stored ones", () => {
    h.warpTo(h.slot() + terms.timelock + 1n);
    const thief = Keypair.generate().publicKey;
    expectCustomError(h.send([withAccount(refundIx(), 1, { pubkey: thief })]), 6000);
    expectCustomError(h.send([withAccount(refundIx(), 2, { pubkey: thief })]), 6003);
  });
});

describe("native HTLC: instant refund", () => {
  beforeEach(() => {
    expect(initiate().ok).toBe(true);
  });

  it("pays the refundee before expiry when the redeemer signs", () => {
    const before = h.balance(refundee.publicKey);
    const result = h.send([instantRefundIx()], [redeemer]);
    units.record("instant_refund", result);
    expect(h.balance(refundee.publicKey)).toBe(before + terms.swapAmount);
    expect(h.accountData(swap)).toBeUndefined();
    expect(decodeHtlcEvents("native", h.nativeId, result.logs)[0]?.name).toBe("InstantRefunded");
  });

  it("refuses an unsigned redeemer and a signer who is not the redeemer", () => {
    expectCustomError(h.send([withAccount(instantRefundIx(), 2, { isSigner: false })]), 3010);
    const impostor = h.fund(LAMPORTS_PER_SOL);
    expectCustomError(h.send([instantRefundIx(impostor.publicKey)], [impostor]), 6001);
    expectCustomError(
      h.send([withAccount(instantRefundIx(), 1, { pubkey: impostor.publicKey })], [redeemer]),
      6000,
    );
    expectCustomError(
      h.send([withAccount(instantRefundIx(), 3, { pubkey: impostor.publicKey })], [redeemer]),
      6003,
    );
    expect(h.balance(swap)).toBe(RENT + terms.swapAmount);
  });
});

describe("native HTLC: instruction encoding", () => {
  it("uses the live discriminators", () => {
    expect(Buffer.from(instructionDiscriminator("initiate")).toString("hex")).toBe("053f7b71994b940e");
    expect(Buffer.from(redeemIx().data.subarray(0, 8)).toString("hex")).toBe("b80c569546c461e1");
    expect(Buffer.from(refundIx().data).toString("hex")).toBe("0260b7fb3fd02e2e");
    expect(Buffer.from(instantRefundIx().data).toString("hex")).toBe("d3ca6729b7933bfb");
  });
});
