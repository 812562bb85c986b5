import { Transaction } from "@mysten/sui/transactions";
import { fromBase64, toBase64 } from "@mysten/sui/utils";
import { afterEach, describe, expect, it } from "vitest";
import { gasPaid, initiated, ONE_SUI, rpcError, startSetup, statusOf, SUI, type Setup } from "./helpers.js";
import { LocalSuiAccount } from "../../../../src/families/sui/chain/index.js";

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.sui.stop();
  setup = undefined;
});

const BUDGET = 10_000_000n;

/** A plain SUI transfer of `amount` to `to`, built (not sent) from `from`. */
async function transferBytes(
  from: LocalSuiAccount,
  to: string,
  amount: bigint,
  options: Parameters<LocalSuiAccount["build"]>[1] = { gasBudget: BUDGET },
): Promise<Uint8Array> {
  const tx = new Transaction();
  const [coin] = tx.splitCoins(tx.gas, [amount]);
  tx.transferObjects([coin!], to);
  return from.build(tx, options);
}

describe("refusals at submission: nothing executes, nothing is charged", () => {
  it("refuses a signature that does not verify", async () => {
    const s = (setup = await startSetup());
    const before = s.sui.balanceOf(SUI, s.alice.address);
    const bytes = await transferBytes(s.alice, s.bob.address, 1n);
    const signature = fromBase64(await s.alice.sign(bytes));
    signature[5]! ^= 0xff;
    const error = await rpcError(s.alice.executeSigned(bytes, toBase64(signature)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toMatch(/^Invalid user signature/);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(before);
  });

  it("refuses a valid signature by a key other than the sender's", async () => {
    const s = (setup = await startSetup());
    const before = s.sui.balanceOf(SUI, s.alice.address);
    const bytes = await transferBytes(s.alice, s.bob.address, 1n);
    const error = await rpcError(s.alice.executeSigned(bytes, await s.bob.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toMatch(/^Invalid user signature/);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(before);
  });

  it("refuses a gas coin at a version that is no longer current", async () => {
    const s = (setup = await startSetup());
    const stale = await transferBytes(s.alice, s.bob.address, 1n);
    const firstBytes = await transferBytes(s.alice, s.carol.address, 1n);
    const first = await s.alice.executeSigned(firstBytes, await s.alice.sign(firstBytes));
    expect(statusOf(first)).toBe("success");
    const after = s.sui.balanceOf(SUI, s.alice.address);
    const error = await rpcError(s.alice.executeSigned(stale, await s.alice.sign(stale)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toMatch(
      /^Object 0x[0-9a-f]{64} version \d+ is not available for consumption, current version \d+$/,
    );
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(after);
  });

  it("refuses a gas coin reference whose digest is not the current one", async () => {
    const s = (setup = await startSetup());
    const [coin] = await s.alice.coins();
    const otherDigest = (await s.bob.coins())[0]!.digest;
    const bytes = await transferBytes(s.alice, s.bob.address, 1n, {
      gasBudget: BUDGET,
      gasPayment: [{ objectId: coin!.coinObjectId, version: coin!.version, digest: otherDigest }],
    });
    const error = await rpcError(s.alice.executeSigned(bytes, await s.alice.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toContain(`Invalid object digest for object ${coin!.coinObjectId}`);
  });

  it("moves the gas coin's version even when execution fails: bytes built on the old version are refused", async () => {
    const s = (setup = await startSetup());
    const stale = await transferBytes(s.alice, s.bob.address, 1n);
    const tx = await s.alice.initiateTx({
      registry: s.registry,
      coinType: SUI,
      redeemer: s.bob.address,
      secretHash: new Uint8Array(32).fill(1),
      amount: ONE_SUI,
      timelockMs: 604_800_001n,
    });
    const failed = await s.alice.execute(tx, { gasBudget: BUDGET });
    expect(statusOf(failed)).toMatch(/^MoveAbort\(.*, 9\) in command 1$/);
    const registryChange = failed.objectChanges!.find(
      (c) => c.type === "mutated" && c.objectId === s.registry.registryId,
    );
    expect(registryChange).toBeDefined();
    const error = await rpcError(s.alice.executeSigned(stale, await s.alice.sign(stale)));
    expect(error.nodeMessage).toMatch(/is not available for consumption/);
  });

  it("refuses a second transaction on an owned object version locked by a waiting one (equivocation)", async () => {
    const s = (setup = await startSetup());
    const first = await transferBytes(s.alice, s.bob.address, 1n);
    const second = await transferBytes(s.alice, s.carol.address, 2n);
    const bobBefore = s.sui.balanceOf(SUI, s.bob.address);
    const carolBefore = s.sui.balanceOf(SUI, s.carol.address);
    s.sui.pause();
    const waiting = s.alice.executeSigned(first, await s.alice.sign(first));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const error = await rpcError(s.alice.executeSigned(second, await s.alice.sign(second)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toMatch(/^Object 0x[0-9a-f]{64} is locked by transaction \w+$/);
    s.sui.resume();
    const executed = await waiting;
    expect(error.nodeMessage.endsWith(executed.digest)).toBe(true);
    expect(statusOf(executed)).toBe("success");
    expect(s.sui.balanceOf(SUI, s.bob.address)).toBe(bobBefore + 1n);
    expect(s.sui.balanceOf(SUI, s.carol.address)).toBe(carolBefore);
  });

  it("refuses a gas coin the sender does not own", async () => {
    const s = (setup = await startSetup());
    const [bobCoin] = await s.bob.coins();
    const bobBefore = s.sui.balanceOf(SUI, s.bob.address);
    const bytes = await transferBytes(s.alice, s.alice.address, 1n, {
      gasBudget: BUDGET,
      gasPayment: [{ objectId: bobCoin!.coinObjectId, version: bobCoin!.version, digest: bobCoin!.digest }],
    });
    const error = await rpcError(s.alice.executeSigned(bytes, await s.alice.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toContain(`is owned by account address ${s.bob.address}`);
    expect(s.sui.balanceOf(SUI, s.bob.address)).toBe(bobBefore);
  });

  it("refuses a gas price below the reference price", async () => {
    const s = (setup = await startSetup());
    s.sui.setReferenceGasPrice(1500n);
    const bytes = await transferBytes(s.alice, s.bob.address, 1n, { gasBudget: BUDGET, gasPrice: 1499n });
    const error = await rpcError(s.alice.executeSigned(bytes, await s.alice.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toBe("Gas price 1499 under reference gas price (RGP) 1500");
  });

  it("refuses a budget below the minimum (1000 units at the gas price)", async () => {
    const s = (setup = await startSetup());
    const bytes = await transferBytes(s.alice, s.bob.address, 1n, { gasBudget: 999_999n });
    const error = await rpcError(s.alice.executeSigned(bytes, await s.alice.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toBe("Gas budget: 999999 is lower than min: 1000000.");
  });

  it("refuses a budget the gas coins' balance does not cover", async () => {
    const s = (setup = await startSetup());
    const poor = s.sui.createAccount();
    s.sui.mintSui(poor.address, 2_000_000n);
    const account = new LocalSuiAccount(s.sui.url, poor.secretKey, s.sui.packageId);
    const bytes = await transferBytes(account, s.bob.address, 1n, { gasBudget: 2_000_001n });
    const error = await rpcError(account.executeSigned(bytes, await account.sign(bytes)));
    expect(error.code).toBe(-32002);
    expect(error.nodeMessage).toBe("Balance of gas object 2000000 is lower than the needed amount: 2000001");
    expect(s.sui.balanceOf(SUI, poor.address)).toBe(2_000_000n);
  });
});

describe("out of gas during execution", () => {
  it("fails InsufficientGas, undoes the initiate and charges the whole budget", async () => {
    const s = (setup = await startSetup());
    const before = s.sui.balanceOf(SUI, s.alice.address);
    const tx = await s.alice.initiateTx({
      registry: s.registry,
      coinType: SUI,
      redeemer: s.bob.address,
      secretHash: new Uint8Array(32).fill(7),
      amount: ONE_SUI,
      timelockMs: 60_000n,
    });
    const response = await s.alice.execute(tx, { gasBudget: 1_000_000n });
    expect(statusOf(response)).toBe("InsufficientGas");
    expect(response.effects!.gasUsed.computationCost).toBe("1000000");
    expect(gasPaid(response)).toBe(1_000_000n);
    expect(s.sui.balanceOf(SUI, s.alice.address)).toBe(before - 1_000_000n);
    expect(response.events).toEqual([]);
    // The same order initiates afterwards: the failed one left nothing behind.
    await initiated(s);
  });
});
