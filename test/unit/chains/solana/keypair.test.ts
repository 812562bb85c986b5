import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { base58Encode } from "../../../../src/chains/solana/base58.js";
import { readSolanaSecretKey, solanaSecretKeyText } from "../../../../src/chains/solana/keypair.js";
import { describeTxError } from "../../../../src/chains/solana/errors.js";

describe("the solver's Solana key", () => {
  const keypair = Keypair.generate();

  it("reads the 64-byte secret key as base58 or as solana-keygen's JSON array", () => {
    for (const text of [base58Encode(keypair.secretKey), JSON.stringify([...keypair.secretKey])]) {
      const reading = readSolanaSecretKey(text);
      expect("keypair" in reading && reading.keypair.publicKey.equals(keypair.publicKey)).toBe(true);
      if ("keypair" in reading)
        expect(solanaSecretKeyText(reading.keypair)).toBe(base58Encode(keypair.secretKey));
    }
  });

  it("names what is wrong without quoting the key", () => {
    const seedOnly = base58Encode(keypair.secretKey.slice(0, 32));
    const swapped = new Uint8Array([
      ...keypair.secretKey.slice(0, 32),
      ...Keypair.generate().publicKey.toBytes(),
    ]);
    expect(readSolanaSecretKey(seedOnly)).toEqual({
      problem: "holds 32 bytes, not the 64 of a Solana secret key",
    });
    expect(readSolanaSecretKey(base58Encode(swapped))).toEqual({
      problem: "is 64 bytes whose second half is not the public key of the first",
    });
    expect(readSolanaSecretKey("0OIl")).toEqual({
      problem: "is neither base58 nor a JSON array of 64 bytes",
    });
    expect(readSolanaSecretKey("[1, 2, 300]")).toEqual({ problem: "is a JSON array, but not of bytes" });
  });
});

describe("Solana transaction errors in words", () => {
  it("names the HTLC programs' custom errors per program", () => {
    expect(describeTxError({ InstructionError: [2, { Custom: 6004 }] }, "native")).toBe(
      "instruction 2: custom error 6004 (RefundBeforeExpiry)",
    );
    expect(describeTxError({ InstructionError: [2, { Custom: 6003 }] }, "spl")).toBe(
      "instruction 2: custom error 6003 (RefundBeforeExpiry)",
    );
    expect(describeTxError({ InstructionError: [0, "InvalidAccountData"] }, "native")).toBe(
      "instruction 0: InvalidAccountData",
    );
    expect(describeTxError("BlockhashNotFound", "native")).toBe("BlockhashNotFound");
  });
});
