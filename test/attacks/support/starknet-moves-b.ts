/**
 * What a user who wants the solver's inventory does on the local Starknet chain: fill the blocks after a
 * fill with real HTLC orders of their own and with events shaped like the HTLC's `Redeemed` from another
 * address, redeem the fill from another account's multicall, price the solver's fill out of the blocks;
 * and what the solver's own account does outside the solver (a transaction of its key taking a nonce).
 */
import { randomBytes } from "node:crypto";
import { bytesToWords, secretHashWords } from "../../../src/chains/starknet/felt.js";
import {
  approveCall,
  EVENT_KEYS,
  initiateCall,
  redeemCall,
  transferCall,
  type ContractCall,
} from "../../../src/chains/starknet/htlc-calls.js";
import { invokeOfRaw } from "../../../src/chains/starknet/invoke.js";
import type { TxAttemptRef } from "../../../src/chains/chain.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import {
  LocalStarknetAccount,
  type Receipt,
} from "@htlc-solver/localnet/families/starknet/chain/local-account.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { TestLocalnet } from "../../support/localnet.js";

/** A Starknet swap record's order id as the HTLC keys it. */
export function starknetOrderId(swap: SwapRecord): bigint {
  return BigInt(`0x${swap.swap_id}`);
}

/** Sends the calls from the user's account as one transaction; throws unless it succeeded. */
async function executeOk(account: LocalStarknetAccount, calls: ContractCall[]): Promise<Receipt> {
  const receipt = await account.execute(calls, {});
  if (receipt.execution_status !== "SUCCEEDED")
    throw new Error(`transaction ${receipt.transaction_hash} reverted: ${receipt.revert_reason ?? ""}`);
  return receipt;
}

/**
 * `count` real orders of one unit each on an asset's HTLC, initiated by the user for `redeemer` with
 * fresh secret hashes: real `Initiated` events of the configured HTLC under other order ids. Sent in
 * multicalls of `perTransaction` calls (at 250 the local chain resets the receipt poll's connection
 * while it executes the block); returns their receipts.
 */
export async function initiateUnrelatedOrders(
  user: LocalUser,
  assetId: string,
  redeemer: string,
  count: number,
  perTransaction = 150,
): Promise<Receipt[]> {
  const { tokenAddress, htlcAddress } = user.starknet.asset(assetId);
  const receipts: Receipt[] = [];
  for (let sent = 0; sent < count; sent += perTransaction) {
    const n = Math.min(perTransaction, count - sent);
    const initiates = Array.from({ length: n }, () =>
      initiateCall(htlcAddress, {
        redeemer,
        timelock: 100n,
        amount: 1n,
        secretHash: randomBytes(32).toString("hex"),
      }),
    );
    receipts.push(
      await executeOk(user.starknet.local, [approveCall(tokenAddress, htlcAddress, BigInt(n)), ...initiates]),
    );
  }
  return receipts;
}

/**
 * Makes a contract at `from` (not the HTLC) emit `repeat` events shaped exactly like the HTLC's
 * `Redeemed` of the swap: keys [selector, order id], data the swap's secret hash words and a secret of
 * eight random words. Waits for the block that holds them.
 */
export async function emitRedeemedLookAlikes(
  t: TestLocalnet,
  from: string,
  swap: SwapRecord,
  repeat: number,
): Promise<Receipt> {
  const decoySecret = bytesToWords(randomBytes(32));
  const hash = t.net.starknet.local.emitEvent(
    from,
    [EVENT_KEYS.redeemed, starknetOrderId(swap)],
    [...secretHashWords(swap.secret_hash), BigInt(decoySecret.length), ...decoySecret],
    repeat,
  );
  const receipt = await receiptOf(t, BigInt(hash));
  if (receipt.execution_status !== "SUCCEEDED") throw new Error(`the look-alike events reverted`);
  return receipt;
}

/**
 * Another account redeems the swap inside a multicall of its own: a zero STRK transfer to itself, the
 * HTLC's `redeem`, another zero transfer. The HTLC pays the stored redeemer whoever sends it.
 */
export function redeemInAnotherAccountsMulticall(
  t: TestLocalnet,
  sender: LocalUser,
  swap: SwapRecord,
  secret: string,
): Promise<Receipt> {
  const htlc = sender.starknet.asset(swap.asset).htlcAddress;
  const strk = t.net.starknet.strk;
  const nothing = transferCall(strk, sender.starknet.address, 0n);
  const words = bytesToWords(Buffer.from(secret.replace(/^0x/, ""), "hex"));
  return executeOk(sender.starknet.local, [nothing, redeemCall(htlc, starknetOrderId(swap), words), nothing]);
}

/** The solver's Starknet account, driven by its key from outside the solver (as an operator's wallet would). */
export function solverStarknetAccount(t: TestLocalnet): LocalStarknetAccount {
  const key = t.net.solverConfig.solver.keys.starknet;
  if (key === undefined) throw new Error("the localnet's solver has no Starknet key");
  return new LocalStarknetAccount(
    t.net.starknet.rpcUrl,
    BigInt(t.net.descriptor.solver.starknetAddress),
    key,
  );
}

/** Waits for a transaction's receipt on the local chain. */
export function receiptOf(t: TestLocalnet, hash: bigint): Promise<Receipt> {
  return new LocalStarknetAccount(t.net.starknet.rpcUrl, 0n, "0x1").waitFor(hash, 60_000);
}

/** The highest L2 gas price per unit and tip a journaled Starknet attempt was signed with. */
export function signedL2Price(attempt: Pick<TxAttemptRef, "raw">): { l2Price: bigint; tip: bigint } {
  const invoke = invokeOfRaw(attempt.raw);
  return {
    l2Price: BigInt(invoke.resource_bounds.l2_gas.max_price_per_unit),
    tip: BigInt(invoke.tip),
  };
}
