import { address } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { describeOutput } from "../../../../../src/families/bitcoin/chain/output-script.js";
import { REGTEST } from "../../../../../src/families/bitcoin/chain/params.js";

/** x of secp256k1's generator: a Taproot output key on the curve. */
const GENERATOR_X = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const bytes = (length: number, fill: number): number[] => Array.from({ length }, (_, i) => (fill + i) & 0xff);
const script = (...parts: number[][]): Uint8Array => Uint8Array.from(parts.flat());

describe("describeOutput", () => {
  it.each<[string, Uint8Array, string]>([
    ["pubkeyhash", script([0x76, 0xa9, 0x14], bytes(20, 1), [0x88, 0xac]), "m"],
    ["scripthash", script([0xa9, 0x14], bytes(20, 1), [0x87]), "2"],
    ["witness_v0_keyhash", script([0x00, 0x14], bytes(20, 1)), "bcrt1q"],
    ["witness_v0_scripthash", script([0x00, 0x20], bytes(32, 1)), "bcrt1q"],
    ["witness_v1_taproot", script([0x51, 0x20], [...Buffer.from(GENERATOR_X, "hex")]), "bcrt1p"],
    ["witness_unknown", script([0x52, 0x10], bytes(16, 7)), "bcrt1z"],
    ["witness_unknown", script([0x60, 0x02], bytes(2, 9)), "bcrt1s"],
  ])("encodes a %s output's address as bitcoinjs-lib's own decoder does", (type, output, prefix) => {
    const described = describeOutput(output);
    expect(described.type).toBe(type);
    expect(described.address).toBe(address.fromOutputScript(output, REGTEST.network));
    expect(described.address?.startsWith(prefix)).toBe(true);
    expect(Buffer.from(address.toOutputScript(described.address ?? "", REGTEST.network))).toEqual(
      Buffer.from(output),
    );
  });

  it("gives a Taproot output whose key is off the curve its address, as bitcoind does", () => {
    const output = script([0x51, 0x20], bytes(32, 1));
    expect(() => address.fromOutputScript(output, REGTEST.network)).toThrow(/has no matching Address/);
    const described = describeOutput(output);
    expect(described.type).toBe("witness_v1_taproot");
    const decoded = address.fromBech32(described.address ?? "");
    expect(decoded).toMatchObject({ version: 1, prefix: "bcrt" });
    expect(Buffer.from(decoded.data)).toEqual(Buffer.from(bytes(32, 1)));
  });

  it("gives no address to outputs that have none", () => {
    const pubkey = script([0x21], bytes(33, 2), [0xac]);
    const nulldata = script([0x6a, 0x04], bytes(4, 3));
    const nonstandard = script([0x00, 0x10], bytes(16, 4));
    expect(describeOutput(pubkey)).toEqual({ type: "pubkey", asm: expect.any(String) });
    expect(describeOutput(nulldata)).toEqual({ type: "nulldata", asm: expect.any(String) });
    expect(describeOutput(nonstandard)).toEqual({ type: "nonstandard", asm: expect.any(String) });
  });
});
