import { describe, expect, it } from "vitest";
import { feeCoinsOf } from "../../../../src/chains/coins.js";
import { familyOf } from "../../../../src/chains/registry.js";
import { SUI_COIN_TYPE } from "../../../../src/chains/sui/address.js";
import { SOLVER, SOLVER_KEY, testConfig, USER } from "./fake-node.js";

const sui = familyOf("sui");

describe("the Sui family module", () => {
  it("knows its coin by the coin type 0x2::sui::SUI, not by a symbol or a `native` spelling", () => {
    const assets = [
      {
        id: "sui_test:native",
        chain: "sui_test",
        symbol: "native",
        decimals: 9,
        tokenAddress: `0x${"d5".repeat(32)}::native::NATIVE`,
        htlcAddress: USER,
      },
      {
        id: "sui_test:gas",
        chain: "sui_test",
        symbol: "gas",
        decimals: 9,
        tokenAddress: SUI_COIN_TYPE,
        htlcAddress: SOLVER,
      },
    ];
    expect(sui.coin(assets)?.id).toBe("sui_test:gas");
    expect(sui.coin(assets.slice(0, 1))).toBeUndefined();
    expect(sui.coinDecimals).toBe(9);
    expect(feeCoinsOf([testConfig({ assets })])).toEqual({ sui_test: "sui_test:gas" });
  });

  it("tells the solver's address from its key, never the key", () => {
    const key = sui.key.normalize(SOLVER_KEY);
    if (!("value" in key)) throw new Error(key.problem);
    const account = sui.publicAccount(key.value);
    expect(account).toEqual({ address: SOLVER });
    expect(JSON.stringify(account)).not.toContain(key.value);
  });

  it("refuses to start with a configured address another key's", () => {
    const key = sui.newKey();
    const journal = { liveAttempts: () => [], actionTxids: () => [], journaledTx: () => null };
    expect(() =>
      sui.create({
        config: testConfig({ solverAddress: USER }),
        key,
        journal: {
          ...journal,
          followPositions: () => {
            throw new Error("unused");
          },
        } as never,
        logger: undefined as never,
      }),
    ).toThrow(/solverAddress .* is not the Sui key's address/);
  });
});
