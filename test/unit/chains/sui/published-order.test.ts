/**
 * The service's published example order from Sui (gardenfi/docs a84b835, api-reference/quickstart.mdx,
 * tab "From Sui"): its swap id and its `ptb_bytes`, reproduced from the order's parameters.
 */
import { describe, expect, it } from "vitest";
import { SUI_COIN_TYPE } from "../../../../src/chains/sui/address.js";
import { KNOWN_SUI_NETWORKS } from "../../../../src/chains/sui/known-networks.js";
import { computeSuiSwapId, readStatedSuiSwapId } from "../../../../src/chains/sui/order-id.js";
import { initiateKindBytes } from "../../../../src/chains/sui/ptb.js";

const testnet = KNOWN_SUI_NETWORKS.sui_testnet!;
const ORDER = {
  initiator: "0x79a1582388c16d0ab85904f320eb0527481391a9b9ab4b2ab46adc4c2564f9d0",
  redeemer: "0x3f6d9e07fd4cdabbaa7097c19ecf655809c893a9cfe3f418c3ffbc04250d3b4c",
  secretHash: "39512ab1a6917b3d4b4edb64d0a77c204c9fd7349290a73fce554ab70f95d3db",
  timelock: 86_400_000n,
  amount: 3_000_000_000n,
};
const REGISTRY = testnet.assets.sui!.registry;
const SWAP_ID = "1220ade677e925f325fbcef8ded85efd4d416852015678634dd471bfd77e8f2f";

// The create-order answer's `ptb_bytes`, as published.
const PTB_BYTES = [
  0, 8, 0, 8, 0, 94, 208, 178, 0, 0, 0, 0, 1, 1, 92, 67, 135, 21, 183, 220, 192, 45, 18, 171, 146, 68, 145,
  83, 161, 229, 173, 226, 48, 22, 32, 213, 191, 96, 170, 116, 143, 0, 103, 38, 211, 105, 76, 48, 204, 31, 0,
  0, 0, 0, 1, 0, 32, 121, 161, 88, 35, 136, 193, 109, 10, 184, 89, 4, 243, 32, 235, 5, 39, 72, 19, 145, 169,
  185, 171, 75, 42, 180, 106, 220, 76, 37, 100, 249, 208, 0, 32, 63, 109, 158, 7, 253, 76, 218, 187, 170, 112,
  151, 193, 158, 207, 101, 88, 9, 200, 147, 169, 207, 227, 244, 24, 195, 255, 188, 4, 37, 13, 59, 76, 0, 33,
  32, 57, 81, 42, 177, 166, 145, 123, 61, 75, 78, 219, 100, 208, 167, 124, 32, 76, 159, 215, 52, 146, 144,
  167, 63, 206, 85, 74, 183, 15, 149, 211, 219, 0, 32, 0, 92, 38, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 1, 1, 0, 0, 0, 153, 134,
  91, 3, 221, 27, 192, 61, 10, 106, 128, 92, 69, 78, 162, 87, 196, 100, 247, 171, 204, 202, 233, 205, 75, 98,
  27, 145, 231, 202, 4, 222, 10, 65, 116, 111, 109, 105, 99, 83, 119, 97, 112, 8, 105, 110, 105, 116, 105, 97,
  116, 101, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  2, 3, 115, 117, 105, 3, 83, 85, 73, 0, 9, 1, 1, 0, 1, 2, 0, 1, 3, 0, 1, 4, 0, 1, 0, 0, 1, 5, 0, 1, 6, 0, 2,
  0, 0, 1, 7, 0,
];

describe("the published Sui order", () => {
  it("has the swap id the module computes", () => {
    expect(computeSuiSwapId({ ...ORDER, registry: REGISTRY })).toBe(SWAP_ID);
  });

  it("changes id with any term, the registry included", () => {
    const other = "0x" + "11".repeat(32);
    expect(computeSuiSwapId({ ...ORDER, registry: other })).not.toBe(SWAP_ID);
    expect(computeSuiSwapId({ ...ORDER, registry: REGISTRY, timelock: 86_400_001n })).not.toBe(SWAP_ID);
  });

  it("has the ptb_bytes of the family's initiate, byte for byte", async () => {
    const bytes = await initiateKindBytes(
      {
        packageId: testnet.packageId,
        coinType: SUI_COIN_TYPE,
        registry: { objectId: REGISTRY, initialSharedVersion: 533_475_404n },
      },
      ORDER,
      { kind: "gas" },
    );
    expect(Array.from(bytes)).toEqual(PTB_BYTES);
  });
});

describe("a stated Sui swap id", () => {
  it("is read in the service's form only", () => {
    const read = readStatedSuiSwapId(SWAP_ID);
    expect("orderId" in read && Buffer.from(read.orderId).toString("hex")).toBe(SWAP_ID);
  });

  it.each([
    ["upper case", SWAP_ID.toUpperCase()],
    ["0x", `0x${SWAP_ID}`],
    ["shorter", SWAP_ID.slice(1)],
    ["longer", `${SWAP_ID}00`],
    ["not hex", `${SWAP_ID.slice(0, 63)}g`],
    ["empty", ""],
  ])("is refused when %s", (_what, stated) => {
    expect(readStatedSuiSwapId(stated)).toEqual({ problem: expect.stringContaining("64 lower-case hex") });
  });
});
