import { SuiClient } from "@mysten/sui/client";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { Transaction } from "@mysten/sui/transactions";
import { SUI_CLOCK_OBJECT_ID } from "@mysten/sui/utils";
import { afterEach, describe, expect, it } from "vitest";
import { startLocalSui, type LocalSui } from "../../../../src/families/sui/chain/index.js";
import { sha256 } from "../../../../src/families/sui/chain/bytes.js";
import { gasPaid, HOUR_MS, ONE_SUI, SUI } from "./helpers.js";

let sui: LocalSui | undefined;
afterEach(async () => {
  await sui?.stop();
  sui = undefined;
});

describe("the SDK's own client against the local chain", () => {
  it("resolves objects, sizes gas by a dry run, signs and executes an initiate, and reads it back", async () => {
    const chain = (sui = await startLocalSui({ checkpointMs: 0 }));
    const keys = chain.createAccount();
    chain.mintSui(keys.address, 5n * ONE_SUI);
    const registry = chain.createRegistry(SUI);
    const client = new SuiClient({ url: chain.url });
    const signer = Ed25519Keypair.fromSecretKey(keys.secretKey);
    const redeemer = chain.createAccount().address;

    const tx = new Transaction();
    const [coin] = tx.splitCoins(tx.gas, [ONE_SUI]);
    tx.moveCall({
      target: `${chain.packageId}::AtomicSwap::initiate`,
      typeArguments: [SUI],
      arguments: [
        tx.object(registry.registryId),
        tx.pure.address(keys.address),
        tx.pure.address(redeemer),
        tx.pure.vector("u8", Array.from(sha256(new Uint8Array(32)))),
        tx.pure.u64(ONE_SUI),
        tx.pure.u256(HOUR_MS),
        tx.pure.vector("u8", []),
        coin!,
        tx.object(SUI_CLOCK_OBJECT_ID),
      ],
    });
    const response = await client.signAndExecuteTransaction({
      transaction: tx,
      signer,
      options: { showEffects: true, showEvents: true, showBalanceChanges: true },
    });
    expect(response.effects?.status).toEqual({ status: "success" });
    expect(chain.balanceOf(SUI, keys.address)).toBe(5n * ONE_SUI - ONE_SUI - gasPaid(response));

    chain.makeCheckpoint();
    const read = await client.getTransactionBlock({ digest: response.digest, options: { showEvents: true } });
    expect(read.checkpoint).toBe("1");
    const events = await client.queryEvents({
      query: { MoveEventType: `${chain.packageId}::AtomicSwap::Initiated` },
    });
    expect(events.data.map((e) => e.id.txDigest)).toEqual([response.digest]);
    const balance = await client.getBalance({ owner: keys.address });
    expect(BigInt(balance.totalBalance)).toBe(chain.balanceOf(SUI, keys.address));
    expect(await client.getReferenceGasPrice()).toBe(1000n);
    // The SDK's getChainIdentifier reads checkpoint 0's digest (sui_getCheckpoint, not served): ask directly.
    expect(await client.call("sui_getChainIdentifier", [])).toBe(chain.chainIdentifier);
  });
});
