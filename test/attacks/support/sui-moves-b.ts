/**
 * What a user who wants the solver's inventory does on the local Sui chain: emit events shaped like the
 * AtomicSwap module's `Redeemed` from another package's module of the same name, in bulk; redeem a fill
 * inside a programmable transaction of its own with other commands around the call; and what the
 * solver's own account does outside the solver (its key driven by a wallet of its own).
 */
import { Transaction } from "@mysten/sui/transactions";
import { LocalSuiAccount } from "@htlc-solver/localnet/families/sui/chain/index.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import { SUI } from "../../e2e/swaps/sui-support.js";
import type { TestLocalnet } from "../../support/localnet.js";

/** A budget for the attacker's transactions, sent as they are (no dry run): ample, its own SUI. */
const ATTACKER_BUDGET = 2_000_000_000n;

function suiAsset(t: TestLocalnet) {
  const asset = t.net.descriptor.sui.assets.find((a) => a.id === SUI);
  if (asset === undefined) throw new Error(`${SUI} is not a Sui asset of the localnet`);
  return asset;
}

function orderIdOf(swap: SwapRecord): number[] {
  return Array.from(Buffer.from(swap.swap_id, "hex"));
}

/** A call of the look-alike package's `AtomicSwap::emit_redeemed`: a `Redeemed` of another package. */
function addLookAlike(t: TestLocalnet, tx: Transaction, swap: SwapRecord, wrongSecret: Uint8Array): void {
  tx.moveCall({
    target: `${t.net.sui.local.lookalikePackageId}::AtomicSwap::emit_redeemed`,
    arguments: [
      tx.pure.vector("u8", orderIdOf(swap)),
      tx.pure.vector("u8", Array.from(Buffer.from(swap.secret_hash, "hex"))),
      tx.pure.vector("u8", Array.from(wrongSecret)),
    ],
  });
}

async function executeOk(account: LocalSuiAccount, tx: Transaction): Promise<string> {
  const answer = await account.execute(tx, { gasBudget: ATTACKER_BUDGET });
  if (answer.effects?.status.status !== "success")
    throw new Error(`transaction ${answer.digest} failed: ${answer.effects?.status.error ?? "no effects"}`);
  return answer.digest;
}

/**
 * `count` look-alike `Redeemed` events under the swap's order id and secret hash, with a wrong secret,
 * sent by the user's account in transactions of `perTransaction` calls; returns their digests.
 */
export async function emitRedeemedLookAlikes(
  t: TestLocalnet,
  sender: LocalUser,
  swap: SwapRecord,
  wrongSecret: Uint8Array,
  count: number,
  perTransaction = 250,
): Promise<string[]> {
  const digests: string[] = [];
  for (let sent = 0; sent < count; sent += perTransaction) {
    const tx = new Transaction();
    for (let i = 0; i < Math.min(perTransaction, count - sent); i++) addLookAlike(t, tx, swap, wrongSecret);
    digests.push(await executeOk(sender.sui.local, tx));
  }
  return digests;
}

/**
 * Another account redeems the swap inside a programmable transaction of its own: a look-alike
 * `Redeemed` with a wrong secret, a coin split off its gas, the AtomicSwap `redeem`, another look-alike,
 * and the coin sent back to itself. The module pays the stored redeemer whoever sends it.
 */
export function redeemThroughAnotherAccountsPtb(
  t: TestLocalnet,
  sender: LocalUser,
  swap: SwapRecord,
  secret: string,
  wrongSecret: Uint8Array,
): Promise<string> {
  const asset = suiAsset(t);
  const tx = new Transaction();
  addLookAlike(t, tx, swap, wrongSecret);
  const [coin] = tx.splitCoins(tx.gas, [1n]);
  tx.moveCall({
    target: `${t.net.descriptor.sui.packageId}::AtomicSwap::redeem`,
    typeArguments: [asset.coinType],
    arguments: [
      tx.sharedObjectRef({
        objectId: asset.registryId,
        initialSharedVersion: asset.registryInitialSharedVersion,
        mutable: true,
      }),
      tx.pure.vector("u8", orderIdOf(swap)),
      tx.pure.vector("u8", Array.from(Buffer.from(secret.replace(/^0x/, ""), "hex"))),
    ],
  });
  addLookAlike(t, tx, swap, wrongSecret);
  tx.transferObjects([coin!], sender.sui.address);
  return executeOk(sender.sui.local, tx);
}

/** The solver's Sui account, driven by its key from outside the solver (as an operator's wallet would). */
export function solverSuiAccount(t: TestLocalnet): LocalSuiAccount {
  const key = t.net.solverConfig.solver.keys.sui;
  if (key === undefined) throw new Error("the localnet's solver has no Sui key");
  return new LocalSuiAccount(t.net.sui.rpcUrl, key, t.net.descriptor.sui.packageId);
}
