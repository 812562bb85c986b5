import { hash, shortString } from "starknet";
import { describe, expect, it } from "vitest";
import { FELT_PRIME } from "../../../../src/chains/starknet/felt.js";
import {
  chainIdFelt,
  computeStarknetSwapId,
  orderIdFelt,
  readStatedSwapId,
  swapIdText,
} from "../../../../src/chains/starknet/order-id.js";
import { PUBLISHED } from "./published-order.js";

const HTLC = "0x06579d255314109429a4477d89629bc2b94f529ae01979c2f8014f9246482603";
const fields = { ...PUBLISHED, htlc: HTLC };
const words = [
  "e7b213af",
  "79add7fb",
  "7457238f",
  "c65df61c",
  "b4dea13b",
  "3ae374f1",
  "b5c69538",
  "e5fcb98a",
].map((w) => BigInt(`0x${w}`));

describe("Starknet order ids", () => {
  it("hash the chain id's short string felt", () => {
    expect(chainIdFelt("SN_SEPOLIA")).toBe(0x534e5f5345504f4c4941n);
    expect(chainIdFelt("SN_MAIN")).toBe(BigInt(shortString.encodeShortString("SN_MAIN")));
  });

  it("in the audited layout put the secret hash first and the HTLC last", () => {
    const expected = hash.computePoseidonHashOnElements([
      chainIdFelt("SN_SEPOLIA"),
      ...words,
      BigInt(PUBLISHED.initiator),
      BigInt(PUBLISHED.redeemer),
      2880n,
      50000n,
      0n,
      BigInt(HTLC),
    ]);
    expect(orderIdFelt({ layout: "audited", ...fields })).toBe(BigInt(expected));
    expect(computeStarknetSwapId({ layout: "audited", ...fields })).not.toBe(PUBLISHED.swapId);
  });

  it("commit to the HTLC only in the audited layout", () => {
    const other = { ...fields, htlc: "0x1" };
    expect(computeStarknetSwapId({ layout: "deployed", ...other })).toBe(PUBLISHED.swapId);
    expect(computeStarknetSwapId({ layout: "audited", ...other })).not.toBe(
      computeStarknetSwapId({ layout: "audited", ...fields }),
    );
  });

  it("commit to every party and term", () => {
    for (const change of [
      { initiator: PUBLISHED.redeemer, redeemer: PUBLISHED.initiator },
      { timelock: 2881n },
      { amount: 50001n },
      { amount: 50000n + 2n ** 128n },
      { chainId: "SN_MAIN" },
      { secretHash: `${PUBLISHED.secretHash.slice(0, 63)}b` },
    ]) {
      expect(computeStarknetSwapId({ layout: "deployed", ...fields, ...change })).not.toBe(PUBLISHED.swapId);
    }
  });

  it("are printed as hex without 0x and without leading zeros", () => {
    expect(swapIdText(0x0abcn)).toBe("abc");
    expect(PUBLISHED.swapId).toHaveLength(63);
    expect(readStatedSwapId(PUBLISHED.swapId)).toEqual({ orderId: BigInt(`0x${PUBLISHED.swapId}`) });
  });

  it.each([
    ["a 0x prefix", `0x${PUBLISHED.swapId}`],
    ["upper case", PUBLISHED.swapId.toUpperCase()],
    ["a leading zero", `0${PUBLISHED.swapId}`],
    ["64 digits of zero padding", PUBLISHED.swapId.padStart(64, "0")],
    [
      "a value past the prime that a node reduces to another id",
      (BigInt(`0x${PUBLISHED.swapId}`) + FELT_PRIME).toString(16),
    ],
    ["an empty id", ""],
    ["zero", "0"],
    ["a non-hex id", "61ea20c8abf2a327035c2bc1170b3d32a13b271f14ad5a3739f995ce9a54ebg"],
  ])("refuse a stated id with %s", (_name, stated) => {
    expect(readStatedSwapId(stated)).toEqual({ problem: expect.any(String) });
  });
});
