/**
 * The service's published example order from Starknet (gardenfi/docs api-reference/quickstart.mdx, tab
 * "From Starknet"), reproduced by the family: its swap id, its `transaction` and its `typed_data`.
 */
import { hash, typedData as snip12, type TypedData } from "starknet";
import { describe, expect, it } from "vitest";
import { feltHex } from "../../../../src/chains/starknet/felt.js";
import { initiateCall } from "../../../../src/chains/starknet/htlc-calls.js";
import { KNOWN_STARKNET_NETWORKS } from "../../../../src/chains/starknet/known-networks.js";
import { computeStarknetSwapId } from "../../../../src/chains/starknet/order-id.js";
import { initiateTypedData, messageHash } from "../../../../src/chains/starknet/snip12.js";
import { PUBLISHED } from "./published-order.js";

const TRANSACTION = {
  calldata: [
    "0x78f8ae98fe78b5df9d3755b5910864c028d5249b4af685eb45687b1b76a4205",
    "0xb40",
    "0xc350",
    "0x0",
    "0xe7b213af",
    "0x79add7fb",
    "0x7457238f",
    "0xc65df61c",
    "0xb4dea13b",
    "0x3ae374f1",
    "0xb5c69538",
    "0xe5fcb98a",
  ],
  selector: "0x2aed25fcd0101fcece997d93f9d0643dfa3fbd4118cae16bf7d6cd533577c28",
  to: "0x6579d255314109429a4477d89629bc2b94f529ae01979c2f8014f9246482603",
};

const TYPED_DATA: TypedData = {
  domain: { chainId: "SN_SEPOLIA", name: "HTLC", revision: "1", version: "1" },
  message: {
    amount: { high: "0x0", low: "0xc350" },
    redeemer: "3419807808164513772718725483164424774502669183354591566218616648407888577029",
    secretHash: [
      3887207343, 2041436155, 1951867791, 3328046620, 3034489147, 987985137, 3049690424, 3858545034,
    ],
    timelock: "2880",
  },
  primaryType: "Initiate",
  types: {
    Initiate: [
      { name: "redeemer", type: "ContractAddress" },
      { name: "amount", type: "u256" },
      { name: "timelock", type: "u128" },
      { name: "secretHash", type: "u128*" },
    ],
    StarknetDomain: [
      { name: "name", type: "shortstring" },
      { name: "version", type: "shortstring" },
      { name: "chainId", type: "shortstring" },
      { name: "revision", type: "shortstring" },
    ],
  },
};

const HTLC = KNOWN_STARKNET_NETWORKS.starknet_sepolia!.assets.wbtc!.htlc;

describe("the service's published Starknet order", () => {
  it("has the swap id the deployed layout computes, in the API's form", () => {
    expect(computeStarknetSwapId({ layout: "deployed", htlc: HTLC, ...PUBLISHED })).toBe(PUBLISHED.swapId);
  });

  it("is initiated on the SDK's published HTLC", () => {
    expect(BigInt(TRANSACTION.to)).toBe(BigInt(HTLC));
  });

  it("has the initiate call the family builds: selector and calldata", () => {
    const call = initiateCall(HTLC, PUBLISHED);
    expect(hash.getSelectorFromName(call.entrypoint)).toBe(TRANSACTION.selector);
    expect(call.calldata.map(feltHex)).toEqual(TRANSACTION.calldata);
  });

  it("has the typed data the family builds, with the same message hash as starknet.js's over the published object", () => {
    const ours = initiateTypedData({ layout: "deployed", htlc: HTLC, ...PUBLISHED });
    const published = BigInt(snip12.getMessageHash(TYPED_DATA, PUBLISHED.initiator));
    expect(messageHash(ours, PUBLISHED.initiator)).toBe(published);
    // The audited contract's message adds the HTLC: a signature over one never passes for the other.
    const audited = initiateTypedData({ layout: "audited", htlc: HTLC, ...PUBLISHED });
    expect(messageHash(audited, PUBLISHED.initiator)).not.toBe(published);
  });
});
