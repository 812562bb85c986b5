/**
 * The legacy programs' encoders and decoders (pure), byte for byte against the older IDLs: initiate's
 * 88-byte layout and accounts, the PDA seeds, account layouts, events and error names; and an initiate
 * decoded from its bytes re-encodes to the same bytes.
 */
import type { TransactionInstruction } from "@solana/web3.js";
import { PublicKey } from "@solana/web3.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  LEGACY_NATIVE_HTLC_PROGRAM_ID,
  LEGACY_SPL_HTLC_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
  accountDiscriminator,
  decodeLegacyHtlcEvent,
  decodeLegacyNativeSwapAccount,
  decodeLegacySplSwapAccount,
  eventDiscriminator,
  htlcErrorName,
  legacyNativeInitiateInstruction,
  legacyNativeRedeemInstruction,
  legacyNativeSwapAddress,
  legacySplInitiateInstruction,
  legacySplSwapAddress,
  solanaSwapId,
  splIdentityAddress,
  splVaultAddress,
} from "../../../../src/chains/solana/index.js";
import { BorshReader, BorshWriter } from "../../../../src/chains/solana/borsh.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const key = (n: number) => new PublicKey(new Uint8Array(32).fill(n));
const terms = {
  redeemer: key(1),
  refundee: key(2),
  secretHash: new Uint8Array(32).fill(3),
  swapAmount: 0x0102030405060708n,
  timelock: 216_000n,
};
const u64 = (v: bigint) => hex(new BorshWriter().u64(v, "v").toBytes());

describe("legacy native initiate", () => {
  const ix = legacyNativeInitiateInstruction(LEGACY_NATIVE_HTLC_PROGRAM_ID, terms);

  it("is the discriminator, amount_lamports, expires_in_slots, redeemer, secret_hash: 88 bytes", () => {
    expect(ix.data.length).toBe(88);
    expect(hex(ix.data)).toBe(
      "053f7b71994b940e" + u64(terms.swapAmount) + u64(terms.timelock) + "01".repeat(32) + "03".repeat(32),
    );
  });

  it("names the swap account at [swap_account, initiator, secret_hash], the initiator signing and paying", () => {
    const [address] = PublicKey.findProgramAddressSync(
      [Buffer.from("swap_account"), terms.refundee.toBytes(), terms.secretHash],
      LEGACY_NATIVE_HTLC_PROGRAM_ID,
    );
    expect(ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [address.toBase58(), false, true],
      [terms.refundee.toBase58(), true, true],
      [SYSTEM_PROGRAM_ID.toBase58(), false, false],
    ]);
  });

  it("decodes from its bytes and re-encodes to the same bytes", () => {
    const r = new BorshReader(ix.data, 8, "initiate");
    const decoded = {
      swapAmount: r.u64(),
      timelock: r.u64(),
      redeemer: r.pubkey(),
      secretHash: r.bytes(32),
      refundee: ix.keys[1]!.pubkey,
    };
    const again = legacyNativeInitiateInstruction(ix.programId, decoded);
    expect(hex(again.data)).toBe(hex(ix.data));
    expect(again.keys).toEqual(ix.keys);
  });

  it("settles with the initiator receiving the rent: swap_account, initiator, redeemer", () => {
    const redeem = legacyNativeRedeemInstruction({
      programId: LEGACY_NATIVE_HTLC_PROGRAM_ID,
      swapAccount: key(9),
      initiator: key(2),
      redeemer: key(1),
      secret: new Uint8Array(32).fill(4),
    });
    expect(hex(redeem.data)).toBe("b80c569546c461e1" + "04".repeat(32));
    expect(redeem.keys.map((k) => [k.pubkey.toBase58(), k.isWritable])).toEqual([
      [key(9).toBase58(), true],
      [key(2).toBase58(), true],
      [key(1).toBase58(), true],
    ]);
  });
});

describe("legacy SPL initiate", () => {
  const mint = key(7);
  const ix: TransactionInstruction = legacySplInitiateInstruction({
    programId: LEGACY_SPL_HTLC_PROGRAM_ID,
    mint,
    terms,
    initiatorTokenAccount: key(6),
    sponsor: key(5),
    destinationData: Uint8Array.of(0xaa, 0xbb),
  });

  it("is the discriminator, expires_in_slots, redeemer, secret_hash, swap_amount, destination_data", () => {
    expect(hex(ix.data)).toBe(
      "053f7b71994b940e" +
        u64(terms.timelock) +
        "01".repeat(32) +
        "03".repeat(32) +
        u64(terms.swapAmount) +
        "01" +
        "02000000" +
        "aabb",
    );
  });

  it("names identity, swap data at [initiator, secret_hash], the mint's vault, and the signers", () => {
    const swapData = legacySplSwapAddress(LEGACY_SPL_HTLC_PROGRAM_ID, terms.refundee, terms.secretHash);
    const [expected] = PublicKey.findProgramAddressSync(
      [terms.refundee.toBytes(), terms.secretHash],
      LEGACY_SPL_HTLC_PROGRAM_ID,
    );
    expect(swapData.address.equals(expected)).toBe(true);
    expect(ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [splIdentityAddress(LEGACY_SPL_HTLC_PROGRAM_ID).address.toBase58(), false, true],
      [expected.toBase58(), false, true],
      [splVaultAddress(LEGACY_SPL_HTLC_PROGRAM_ID, mint).address.toBase58(), false, true],
      [terms.refundee.toBase58(), true, false],
      [key(6).toBase58(), false, true],
      [mint.toBase58(), false, false],
      [key(5).toBase58(), true, true],
      ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", false, false],
      [SYSTEM_PROGRAM_ID.toBase58(), false, false],
    ]);
  });
});

describe("the API's swap id and the legacy address", () => {
  it("commit to the same things: the initiator and the secret hash", () => {
    const other = { ...terms, redeemer: key(8), swapAmount: 1n, timelock: 1n };
    expect(solanaSwapId(103n, terms.secretHash, terms.refundee)).toBe(
      solanaSwapId(103n, other.secretHash, other.refundee),
    );
    expect(
      legacyNativeSwapAddress(LEGACY_NATIVE_HTLC_PROGRAM_ID, other.refundee, other.secretHash).address.equals(
        legacyNativeSwapAddress(LEGACY_NATIVE_HTLC_PROGRAM_ID, terms.refundee, terms.secretHash).address,
      ),
    ).toBe(true);
    expect(() => legacyNativeSwapAddress(LEGACY_NATIVE_HTLC_PROGRAM_ID, key(1), new Uint8Array(31))).toThrow(
      /32 bytes/,
    );
  });
});

describe("legacy account, event and error decoding", () => {
  it("reads the 120-byte native and the 153-byte SPL SwapAccount", () => {
    const native = Buffer.concat([
      Buffer.from(accountDiscriminator("SwapAccount")),
      Buffer.from(new BorshWriter().u64(5n, "a").u64(900n, "e").toBytes()),
      key(2).toBuffer(),
      key(1).toBuffer(),
      Buffer.alloc(32, 3),
    ]);
    expect(native.length).toBe(120);
    const n = decodeLegacyNativeSwapAccount(native);
    expect([n.swapAmount, n.expirySlot, n.initiator.equals(key(2)), n.redeemer.equals(key(1))]).toEqual([
      5n,
      900n,
      true,
      true,
    ]);
    const spl = Buffer.concat([
      Buffer.from(accountDiscriminator("SwapAccount")),
      Buffer.from(new BorshWriter().u64(900n, "e").toBytes()),
      key(2).toBuffer(),
      key(1).toBuffer(),
      Buffer.alloc(32, 3),
      Buffer.from(new BorshWriter().u64(5n, "a").toBytes()),
      Buffer.of(254),
      key(5).toBuffer(),
    ]);
    expect(spl.length).toBe(153);
    const s = decodeLegacySplSwapAccount(spl);
    expect([s.expirySlot, s.swapAmount, s.identityPdaBump, s.sponsor.equals(key(5))]).toEqual([
      900n,
      5n,
      254,
      true,
    ]);
    expect(() => decodeLegacyNativeSwapAccount(Buffer.alloc(120))).toThrow(/not a SwapAccount/);
  });

  it("reads Initiated with the initiator before the redeemer, and the settling events", () => {
    const initiated = Buffer.concat([
      Buffer.from(eventDiscriminator("Initiated")),
      Buffer.from(new BorshWriter().u64(5n, "a").u64(60n, "e").toBytes()),
      key(2).toBuffer(),
      key(1).toBuffer(),
      Buffer.alloc(32, 3),
    ]);
    const event = decodeLegacyHtlcEvent("native", initiated);
    expect(event).toMatchObject({ name: "Initiated", swapAmount: 5n, expiresInSlots: 60n });
    expect(
      event?.name === "Initiated" && event.initiator.equals(key(2)) && event.redeemer.equals(key(1)),
    ).toBe(true);
    const secret = Buffer.alloc(32, 4);
    const redeemed = Buffer.concat([Buffer.from(eventDiscriminator("Redeemed")), key(2).toBuffer(), secret]);
    const decoded = decodeLegacyHtlcEvent("spl", redeemed);
    expect(decoded?.name === "Redeemed" && hex(decoded.secret)).toBe(hex(secret));
    expect(createHash("sha256").update("event:Redeemed").digest().subarray(0, 8)).toEqual(
      Buffer.from(eventDiscriminator("Redeemed")),
    );
  });

  it("names the legacy programs' errors by version", () => {
    expect(htlcErrorName("native", 6000, "legacy")).toBe("InvalidInitiator");
    expect(htlcErrorName("native", 6000)).toBe("InvalidRefundee");
    expect(htlcErrorName("spl", 6002, "legacy")).toBe("InvalidSponsor");
    expect(htlcErrorName("spl", 6003, "legacy")).toBe("RefundBeforeExpiry");
    expect(htlcErrorName("spl", 3012, "legacy")).toBe("AccountNotInitialized");
  });
});
