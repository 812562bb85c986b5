import { afterEach, describe, expect, it } from "vitest";
import { Account, RpcProvider } from "starknet";
import { startLocalStarknet, type LocalStarknet } from "../../../../src/families/starknet/chain/index.js";

let sn: LocalStarknet | undefined;
afterEach(async () => {
  await sn?.stop();
  sn = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the local chain with an independent client and interval blocks", () => {
  it("accepts starknet.js's own Account (its estimate, hash, signature and calldata) and includes it on the interval", async () => {
    const chain = (sn = await startLocalStarknet({ blockMs: 100 }));
    const keys = chain.createAccount();
    chain.mint(chain.feeToken, keys.address, 10n ** 20n);
    const token = chain.deployErc20({ symbol: "WBTC", decimals: 8 });
    const provider = new RpcProvider({ nodeUrl: chain.url, specVersion: "0.9.0" });
    const account = new Account({
      provider,
      address: keys.address,
      signer: keys.privateKey,
      cairoVersion: "1",
    });
    const { transaction_hash } = await account.execute(
      [{ contractAddress: token, entrypoint: "approve", calldata: ["0x5", "7", "0"] }],
      { tip: 0 },
    );
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    expect(receipt.isSuccess()).toBe(true);
    const allowance = await provider.callContract({
      contractAddress: token,
      entrypoint: "allowance",
      calldata: [keys.address, "0x5"],
    });
    expect(allowance).toEqual(["0x7", "0x0"]);
  });

  it("stops making blocks while paused and makes them again on resume or on demand", async () => {
    const chain = (sn = await startLocalStarknet({ blockMs: 50 }));
    await sleep(200);
    chain.pause();
    const held = chain.chain.latest().number;
    expect(held).toBeGreaterThan(0n);
    await sleep(200);
    expect(chain.chain.latest().number).toBe(held);
    chain.mineBlock(2);
    expect(chain.chain.latest().number).toBe(held + 2n);
    chain.resume();
    await sleep(200);
    expect(chain.chain.latest().number).toBeGreaterThan(held + 2n);
  });
});
