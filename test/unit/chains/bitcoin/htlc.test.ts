import { address as btcAddress, crypto as btcCrypto, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { bytesToHex, concatBytes, hexToBytes } from "../../../../src/chains/bitcoin/bytes.js";
import { ecc } from "../../../../src/chains/bitcoin/ecc.js";
import {
  bitcoinHtlc,
  computeNumsInternalKey,
  HtlcParamsError,
  NUMS_INTERNAL_KEY,
  tapLeafHash,
} from "../../../../src/chains/bitcoin/htlc.js";

const initiatorKey = "4f355bdcb7cc0af728ef3cceb9615d90684bb5b2ca5f859ab0f0b704075871aa";
const redeemerKey = "466d7fcae563e5cb09a0d1870bb580344804617879a14949cf22285f1bae3f27";
const secretHash = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

function htlcWith(timelock: number) {
  return bitcoinHtlc({ initiatorKey, redeemerKey, secretHash, timelock, network: "regtest" });
}

describe("NUMS internal key", () => {
  it("is H + sha256('GardenHTLC')·G with the documented x-only value", () => {
    const expected = "2160e11a135f94e536a5b222e5d09fd9db1be5f5f5e753920290c0410cf388f0";
    expect(bytesToHex(computeNumsInternalKey())).toBe(expected);
    expect(bytesToHex(NUMS_INTERNAL_KEY)).toBe(expected);
  });
});

describe("leaf scripts", () => {
  it("redeem is OP_SHA256 <hash> OP_EQUALVERIFY <redeemer> OP_CHECKSIG", () => {
    expect(bytesToHex(htlcWith(144).leaves.redeem.script)).toBe(`a820${secretHash}8820${redeemerKey}ac`);
  });

  it("refund pushes the timelock as a minimal script number", () => {
    const tail = `b27520${initiatorKey}ac`;
    expect(bytesToHex(htlcWith(12).leaves.refund.script)).toBe(`5c${tail}`); // OP_12
    expect(bytesToHex(htlcWith(1).leaves.refund.script)).toBe(`51${tail}`); // OP_1
    expect(bytesToHex(htlcWith(16).leaves.refund.script)).toBe(`60${tail}`); // OP_16
    expect(bytesToHex(htlcWith(17).leaves.refund.script)).toBe(`0111${tail}`);
    expect(bytesToHex(htlcWith(127).leaves.refund.script)).toBe(`017f${tail}`);
    expect(bytesToHex(htlcWith(128).leaves.refund.script)).toBe(`028000${tail}`); // sign bit needs a byte
    expect(bytesToHex(htlcWith(144).leaves.refund.script)).toBe(`029000${tail}`);
    expect(bytesToHex(htlcWith(65535).leaves.refund.script)).toBe(`03ffff00${tail}`);
  });

  it("instant refund is <initiator> OP_CHECKSIG <redeemer> OP_CHECKSIGADD OP_2 OP_NUMEQUAL", () => {
    expect(bytesToHex(htlcWith(144).leaves.instantRefund.script)).toBe(
      `20${initiatorKey}ac20${redeemerKey}ba529c`,
    );
  });
});

describe("HTLC output", () => {
  it("is built once per parameters: the same terms give the same HTLC, other terms another", () => {
    const first = htlcWith(144);
    expect(
      bitcoinHtlc({
        initiatorKey: initiatorKey.toUpperCase(),
        redeemerKey,
        secretHash,
        timelock: 144n,
        network: "regtest",
      }),
    ).toBe(first);
    expect(htlcWith(145)).not.toBe(first);
    expect(htlcWith(145).address).not.toBe(first.address);
    expect(
      bitcoinHtlc({ initiatorKey, redeemerKey, secretHash, timelock: 144, network: "testnet" }).address,
    ).not.toBe(first.address);
  });

  it("has a stable address for fixed inputs, per network", () => {
    const params = { initiatorKey, redeemerKey, secretHash, timelock: 144 };
    const regtest = bitcoinHtlc({ ...params, network: "regtest" });
    const testnet = bitcoinHtlc({ ...params, network: "testnet" });
    const mainnet = bitcoinHtlc({ ...params, network: "mainnet" });
    expect(regtest.address).toBe("bcrt1ph79gqpnr4jlpndamvutmmqhqyue8a0ldg4m8adsem77s4lye745syda9he");
    expect(testnet.address.startsWith("tb1p")).toBe(true);
    expect(mainnet.address.startsWith("bc1p")).toBe(true);
    // One output script, three encodings of it.
    expect(bytesToHex(btcAddress.toOutputScript(testnet.address, networks.testnet))).toBe(
      bytesToHex(regtest.outputScript),
    );
    expect(bytesToHex(btcAddress.toOutputScript(mainnet.address, networks.bitcoin))).toBe(
      bytesToHex(regtest.outputScript),
    );
  });

  it("commits to the tree [redeem, [refund, instantRefund]] under the NUMS key", () => {
    const htlc = htlcWith(144);
    const branch = (a: Uint8Array, b: Uint8Array) =>
      btcCrypto.taggedHash(
        "TapBranch",
        Buffer.compare(a, b) <= 0 ? concatBytes([a, b]) : concatBytes([b, a]),
      );
    const root = branch(
      tapLeafHash(htlc.leaves.redeem.script),
      branch(tapLeafHash(htlc.leaves.refund.script), tapLeafHash(htlc.leaves.instantRefund.script)),
    );
    const tweak = btcCrypto.taggedHash("TapTweak", concatBytes([NUMS_INTERNAL_KEY, root]));
    const outputKey = ecc.xOnlyPointAddTweak(NUMS_INTERNAL_KEY, tweak);
    expect(outputKey).not.toBeNull();
    expect(bytesToHex(htlc.outputScript)).toBe(`5120${bytesToHex(outputKey!.xOnlyPubkey)}`);

    // Control blocks: version|parity, internal key, then the sibling path of each leaf.
    const parity = outputKey!.parity;
    const redeemCb = htlc.controlBlock("redeem");
    expect(redeemCb[0]).toBe(0xc0 | parity);
    expect(bytesToHex(redeemCb.subarray(1, 33))).toBe(bytesToHex(NUMS_INTERNAL_KEY));
    expect(bytesToHex(redeemCb.subarray(33))).toBe(
      bytesToHex(
        branch(tapLeafHash(htlc.leaves.refund.script), tapLeafHash(htlc.leaves.instantRefund.script)),
      ),
    );
    const refundCb = htlc.controlBlock("refund");
    expect(refundCb.length).toBe(33 + 64);
    expect(bytesToHex(refundCb.subarray(33, 65))).toBe(bytesToHex(htlc.leaves.instantRefund.hash));
    expect(bytesToHex(refundCb.subarray(65))).toBe(bytesToHex(htlc.leaves.redeem.hash));
    const instantCb = htlc.controlBlock("instantRefund");
    expect(bytesToHex(instantCb.subarray(33, 65))).toBe(bytesToHex(htlc.leaves.refund.hash));
  });

  it("rejects parameters the scripts cannot hold", () => {
    const base = { initiatorKey, redeemerKey, secretHash, timelock: 144, network: "regtest" as const };
    expect(() => bitcoinHtlc({ ...base, timelock: 0 })).toThrow(HtlcParamsError);
    expect(() => bitcoinHtlc({ ...base, timelock: 65536 })).toThrow(/1\.\.65535/);
    expect(() => bitcoinHtlc({ ...base, secretHash: "ab".repeat(31) })).toThrow(
      /secret hash must be 32 bytes/,
    );
    expect(() => bitcoinHtlc({ ...base, initiatorKey: "00".repeat(32) })).toThrow(/not a valid x-only/);
    expect(() => bitcoinHtlc({ ...base, redeemerKey: "zz" })).toThrow(/redeemer key/);
  });

  it("accepts bigint timelocks and 0x-prefixed hex alike", () => {
    const a = bitcoinHtlc({ initiatorKey, redeemerKey, secretHash, timelock: 144n, network: "regtest" });
    const b = bitcoinHtlc({
      initiatorKey: `0x${initiatorKey}`,
      redeemerKey,
      secretHash: `0x${secretHash}`,
      timelock: 144,
      network: "regtest",
    });
    expect(a.address).toBe(b.address);
    expect(hexToBytes(secretHash)).toEqual(a.secretHash);
  });
});
