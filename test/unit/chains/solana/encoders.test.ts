/** Pure Solana HTLC encoders: discriminators, instruction layouts, PDAs, swap id, account and event decoding. */
import { Keypair, PublicKey } from "@solana/web3.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_NATIVE_HTLC_PROGRAM_ID,
  DEFAULT_SPL_HTLC_PROGRAM_ID,
  SolanaDecodeError,
  accountDiscriminator,
  decodeHtlcEvent,
  decodeHtlcEvents,
  decodeNativeSwapAccount,
  decodeSplSwapAccount,
  eventDiscriminator,
  htlcErrorName,
  instructionDiscriminator,
  nativeInitiateInstruction,
  nativeInstantRefundInstruction,
  nativeSwapAddress,
  solanaSwapId,
  splIdentityAddress,
  splInitiateInstruction,
  splInstantRefundInstruction,
  splSwapAddress,
  splVaultAddress,
} from "../../../../src/chains/solana/index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const key = (n: number) => new PublicKey(new Uint8Array(32).fill(n));
const terms = {
  redeemer: key(1),
  refundee: key(2),
  secretHash: new Uint8Array(32).fill(3),
  swapAmount: 0x0102030405060708n,
  timelock: 216_000n,
};

describe("discriminators", () => {
  it("match the live programs' instruction discriminators", () => {
    expect(hex(instructionDiscriminator("initiate"))).toBe("053f7b71994b940e");
    expect(hex(instructionDiscriminator("redeem"))).toBe("b80c569546c461e1");
    expect(hex(instructionDiscriminator("refund"))).toBe("0260b7fb3fd02e2e");
    expect(hex(instructionDiscriminator("instant_refund"))).toBe("d3ca6729b7933bfb");
  });

  it("are sha256 prefixes of account and event names", () => {
    const sha = (s: string) => createHash("sha256").update(s).digest().subarray(0, 8).toString("hex");
    expect(hex(accountDiscriminator("SwapAccount"))).toBe(sha("account:SwapAccount"));
    expect(hex(eventDiscriminator("InstantRefunded"))).toBe(sha("event:InstantRefunded"));
  });
});

describe("instruction layouts", () => {
  it("encodes initiate as discriminator ‖ Borsh args and the live account order", () => {
    const ix = nativeInitiateInstruction({
      programId: DEFAULT_NATIVE_HTLC_PROGRAM_ID,
      terms,
      funder: key(4),
      rentSponsor: key(5),
      destinationData: Uint8Array.of(0xaa, 0xbb),
    });
    const d = ix.data;
    expect(d.length).toBe(8 + 32 + 32 + 32 + 8 + 8 + 1 + 4 + 2);
    expect(hex(d.subarray(8, 40))).toBe(hex(key(1).toBytes()));
    expect(d.readBigUInt64LE(104)).toBe(terms.swapAmount);
    expect(d.readBigUInt64LE(112)).toBe(216_000n);
    expect([...d.subarray(120)]).toEqual([1, 2, 0, 0, 0, 0xaa, 0xbb]);
    expect(ix.keys.map((k) => [k.isSigner, k.isWritable])).toEqual([
      [false, true],
      [true, true],
      [true, true],
      [false, false],
    ]);
    const none = nativeInitiateInstruction({
      programId: DEFAULT_NATIVE_HTLC_PROGRAM_ID,
      terms,
      funder: key(4),
      rentSponsor: key(5),
    });
    expect(none.data.length).toBe(121);
    expect(none.data[120]).toBe(0);
  });

  it("puts the redeemer as signer in both instant refunds", () => {
    const native = nativeInstantRefundInstruction({
      programId: DEFAULT_NATIVE_HTLC_PROGRAM_ID,
      swapAccount: key(9),
      refundee: key(2),
      redeemer: key(1),
      rentSponsor: key(5),
    });
    expect(native.keys[2]).toMatchObject({ isSigner: true, isWritable: false });
    const spl = splInstantRefundInstruction({
      programId: DEFAULT_SPL_HTLC_PROGRAM_ID,
      mint: key(7),
      swapData: key(9),
      payeeTokenAccount: key(8),
      rentSponsor: key(5),
      redeemer: key(1),
    });
    expect(spl.keys.length).toBe(7);
    expect(spl.keys[4]).toMatchObject({ isSigner: true, isWritable: true });
  });

  it("rejects a secret hash that is not 32 bytes and amounts beyond u64", () => {
    const base = { programId: DEFAULT_NATIVE_HTLC_PROGRAM_ID, funder: key(4), rentSponsor: key(5) };
    expect(() =>
      nativeInitiateInstruction({ ...base, terms: { ...terms, secretHash: new Uint8Array(31) } }),
    ).toThrow(/32 bytes/);
    expect(() => nativeInitiateInstruction({ ...base, terms: { ...terms, swapAmount: 1n << 64n } })).toThrow(
      /u64/,
    );
  });
});

describe("program addresses", () => {
  it("derive the swap, identity and vault addresses from the live seeds", () => {
    const le = (v: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(v);
      return b;
    };
    const seeds = [
      key(1).toBytes(),
      key(2).toBytes(),
      terms.secretHash,
      le(terms.swapAmount),
      le(terms.timelock),
    ];
    const [native] = PublicKey.findProgramAddressSync(seeds, DEFAULT_NATIVE_HTLC_PROGRAM_ID);
    expect(nativeSwapAddress(DEFAULT_NATIVE_HTLC_PROGRAM_ID, terms).address.equals(native)).toBe(true);
    const [spl] = PublicKey.findProgramAddressSync([key(7).toBytes(), ...seeds], DEFAULT_SPL_HTLC_PROGRAM_ID);
    expect(splSwapAddress(DEFAULT_SPL_HTLC_PROGRAM_ID, key(7), terms).address.equals(spl)).toBe(true);
    const [identity] = PublicKey.findProgramAddressSync([], DEFAULT_SPL_HTLC_PROGRAM_ID);
    expect(splIdentityAddress(DEFAULT_SPL_HTLC_PROGRAM_ID).address.equals(identity)).toBe(true);
    const [vault] = PublicKey.findProgramAddressSync([key(7).toBytes()], DEFAULT_SPL_HTLC_PROGRAM_ID);
    expect(splVaultAddress(DEFAULT_SPL_HTLC_PROGRAM_ID, key(7)).address.equals(vault)).toBe(true);
    const ix = splInitiateInstruction({
      programId: DEFAULT_SPL_HTLC_PROGRAM_ID,
      mint: key(7),
      terms,
      funder: key(4),
      funderTokenAccount: key(6),
      rentSponsor: key(5),
    });
    expect(ix.keys.slice(0, 3).map((k) => k.pubkey.toBase58())).toEqual(
      [identity, spl, vault].map((k) => k.toBase58()),
    );
  });
});

describe("swap id", () => {
  it("hashes the chain id as 32 big-endian bytes, the secret hash and the initiator", () => {
    const initiator = Keypair.generate().publicKey;
    const chain = Buffer.alloc(32);
    chain[31] = 103;
    const expected = createHash("sha256")
      .update(chain)
      .update(terms.secretHash)
      .update(initiator.toBytes())
      .digest("hex");
    expect(solanaSwapId(103n, terms.secretHash, initiator)).toBe(expected);
    expect(solanaSwapId(104n, terms.secretHash, initiator)).not.toBe(expected);
    expect(() => solanaSwapId(103n, new Uint8Array(20), initiator)).toThrow(/32 bytes/);
  });
});

describe("SwapAccount decoding", () => {
  it("reads both layouts and refuses other accounts", () => {
    const native = Buffer.alloc(161);
    Buffer.from(accountDiscriminator("SwapAccount")).copy(native);
    native.writeBigUInt64LE(777n, 8);
    native[16] = 254;
    native.writeBigUInt64LE(55n, 113);
    native.writeBigUInt64LE(9n, 153);
    const decoded = decodeNativeSwapAccount(native);
    expect([decoded.expirySlot, decoded.bump, decoded.swapAmount, decoded.timelock]).toEqual([
      777n,
      254,
      55n,
      9n,
    ]);

    const spl = Buffer.alloc(194);
    Buffer.from(accountDiscriminator("SwapAccount")).copy(spl);
    spl[8] = 253;
    spl.writeBigUInt64LE(888n, 9);
    spl[17] = 252;
    key(7).toBuffer().copy(spl, 50);
    spl.writeBigUInt64LE(66n, 178);
    const s = decodeSplSwapAccount(spl);
    expect([s.bump, s.expirySlot, s.identityPdaBump, s.swapAmount]).toEqual([253, 888n, 252, 66n]);
    expect(s.mint.equals(key(7))).toBe(true);

    expect(() => decodeNativeSwapAccount(Buffer.alloc(161))).toThrow(SolanaDecodeError);
    expect(() => decodeSplSwapAccount(spl.subarray(0, 100))).toThrow(SolanaDecodeError);
  });
});

describe("events from logs", () => {
  const redeemed = Buffer.concat([
    eventDiscriminator("Redeemed"),
    key(1).toBytes(),
    key(2).toBytes(),
    new Uint8Array(32).fill(0x5e),
    Buffer.from("0a00000000000000", "hex"),
    Buffer.from("0500000000000000", "hex"),
  ]);
  const id = DEFAULT_NATIVE_HTLC_PROGRAM_ID.toBase58();
  const line = `Program data: ${redeemed.toString("base64")}`;

  it("decodes an event the HTLC program itself logged", () => {
    const events = decodeHtlcEvents("native", DEFAULT_NATIVE_HTLC_PROGRAM_ID, [
      `Program ${id} invoke [1]`,
      "Program log: Instruction: Redeem",
      line,
      `Program ${id} consumed 4000 of 200000 compute units`,
      `Program ${id} success`,
    ]);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.name === "Redeemed" && hex(event.secret)).toBe("5e".repeat(32));
    expect(event?.swapAmount).toBe(10n);
  });

  it("ignores the same bytes logged by another program, also inside a CPI", () => {
    const other = Keypair.generate().publicKey.toBase58();
    const events = decodeHtlcEvents("native", DEFAULT_NATIVE_HTLC_PROGRAM_ID, [
      `Program ${other} invoke [1]`,
      line,
      `Program ${id} invoke [2]`,
      `Program ${id} success`,
      line,
      `Program ${other} success`,
    ]);
    expect(events).toEqual([]);
  });

  it("reads SPL events with the mint first and returns undefined for unknown payloads", () => {
    const splRefunded = Buffer.concat([
      eventDiscriminator("Refunded"),
      key(7).toBytes(),
      key(1).toBytes(),
      key(2).toBytes(),
      new Uint8Array(32),
      Buffer.alloc(16),
    ]);
    const event = decodeHtlcEvent("spl", splRefunded);
    expect(event?.name).toBe("Refunded");
    expect(event?.mint?.equals(key(7))).toBe(true);
    expect(decodeHtlcEvent("native", Buffer.alloc(40))).toBeUndefined();
    expect(() => decodeHtlcEvent("native", redeemed.subarray(0, 50))).toThrow(SolanaDecodeError);
  });
});

describe("error names", () => {
  it("names program and framework errors per program", () => {
    expect(htlcErrorName("native", 6002)).toBe("InvalidSecret");
    expect(htlcErrorName("spl", 6001)).toBe("InvalidSecret");
    expect(htlcErrorName("spl", 3012)).toBe("AccountNotInitialized");
    expect(htlcErrorName("native", 42)).toBeUndefined();
  });
});
