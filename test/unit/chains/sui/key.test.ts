import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { describe, expect, it } from "vitest";
import { newSuiKey, readSuiKey, suiAddressOfKey } from "../../../../src/chains/sui/key.js";
import { suiConfigSpec } from "../../../../src/chains/sui/config.js";

const HEX = "4c".repeat(32);

describe("the Sui key", () => {
  it("reads hex and suiprivkey to the same stored form and address", () => {
    const fromHex = readSuiKey(`0x${HEX}`);
    const pair = Ed25519Keypair.fromSecretKey(Uint8Array.from(Buffer.from(HEX, "hex")));
    expect(fromHex).toEqual({ key: pair.getSecretKey() });
    expect(readSuiKey(pair.getSecretKey())).toEqual(fromHex);
    expect(suiAddressOfKey(pair.getSecretKey())).toBe(pair.toSuiAddress());
  });

  it("makes new keys in stored form", () => {
    const key = newSuiKey();
    expect(readSuiKey(key)).toEqual({ key });
  });

  it.each([
    ["short hex", HEX.slice(2)],
    ["bad bech32", "suiprivkey1qqqq"],
    ["words", "not a key"],
  ])("refuses %s without quoting it", (_what, value) => {
    const checked = suiConfigSpec.key.normalize(value);
    expect("problem" in checked).toBe(true);
    if ("problem" in checked) expect(checked.problem).not.toContain(value);
  });
});
