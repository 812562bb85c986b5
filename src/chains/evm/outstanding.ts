/**
 * What the solver's journaled EVM transactions will still take from an account: for each nonce not yet
 * mined, the dearest of its attempts (replacements share a nonce; only one can be mined). A balance read
 * at a block, less this, is what the account holds once everything journaled lands, so two fills can
 * never both be promised the same coins between signing and mining.
 *
 * A batch of fills is a transaction the account sends to itself (its EIP-7702 delegation to the
 * BatchExecutor makes every call as the account): its calls' values come from the account's balance, and
 * each initiate among them locks its amount, so both count as if each call were a transaction of its own.
 */
import { decodeFunctionData, isAddressEqual, parseTransaction, type Address, type Hex } from "viem";
import type { TxAttemptRef } from "../chain.js";
import { batchExecutorAbi } from "./batch/batch-executor-abi.js";
import { with0x } from "./client.js";
import { erc20Abi, htlcAbi } from "./htlc-abi.js";

interface InnerCall {
  target: Address;
  value: bigint;
  data: Hex;
}

/** The calls of a batch the account `self` sent to itself; empty for any other transaction. */
function selfBatchCalls(tx: { to?: Address | null; data?: Hex }, self: Address | undefined): InnerCall[] {
  if (self === undefined || tx.to == null || tx.data === undefined || !isAddressEqual(tx.to, self)) return [];
  try {
    const call = decodeFunctionData({ abi: batchExecutorAbi, data: tx.data });
    return call.args[0].map((c) => ({ target: c.target, value: c.value, data: c.data }));
  } catch {
    return [];
  }
}

/** Native coin an attempt can spend at most: its value, its whole gas allowance, and its batched calls' values. */
export function nativeCost(attempt: Pick<TxAttemptRef, "raw">, self?: Address): bigint {
  const tx = parseTransaction(with0x(attempt.raw));
  let cost = (tx.value ?? 0n) + (tx.gas ?? 0n) * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n);
  for (const call of selfBatchCalls(tx, self)) cost += call.value;
  return cost;
}

/**
 * Tokens an attempt takes from the account: what it locks into the asset's `htlc` (initiates the HTLC
 * pulls by transferFrom, alone or batched) and what it pays out by the token's own `transfer` (the
 * operator's withdrawals); 0 otherwise.
 */
export function tokenCost(
  attempt: Pick<TxAttemptRef, "raw">,
  contracts: { htlc: Address; token: Address },
  self?: Address,
): bigint {
  const tx = parseTransaction(with0x(attempt.raw));
  const calls: { target: Address | null | undefined; data: Hex | undefined }[] = [
    { target: tx.to, data: tx.data },
    ...selfBatchCalls(tx, self),
  ];
  let total = 0n;
  for (const { target, data } of calls) {
    if (target == null || data === undefined) continue;
    if (isAddressEqual(target, contracts.htlc)) total += initiatedAmount(data);
    else if (isAddressEqual(target, contracts.token)) total += transferredAmount(data);
  }
  return total;
}

/** The amount an ERC20 `transfer` pays out; 0 for any other call (an approve moves nothing). */
function transferredAmount(data: Hex): bigint {
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data });
    return call.functionName === "transfer" ? call.args[1] : 0n;
  } catch {
    return 0n;
  }
}

/** The amount an HTLC call locks: an initiate's amount; 0 for redeems, refunds and anything else. */
function initiatedAmount(data: Hex): bigint {
  let call;
  try {
    call = decodeFunctionData({ abi: htlcAbi, data });
  } catch {
    return 0n;
  }
  switch (call.functionName) {
    case "initiate":
      return call.args[2];
    case "initiateOnBehalf":
    case "initiateWithSignature":
      return call.args[3];
    default:
      return 0n;
  }
}

/** Sum over unmined nonces (`nonce >= minedNonce`) of the dearest attempt's cost. */
export function outstandingCost(
  attempts: readonly Pick<TxAttemptRef, "nonce" | "raw">[],
  minedNonce: bigint,
  cost: (attempt: Pick<TxAttemptRef, "raw">) => bigint,
): bigint {
  const dearest = new Map<bigint, bigint>();
  for (const attempt of attempts) {
    if (attempt.nonce === null || attempt.nonce < minedNonce) continue;
    const value = cost(attempt);
    if (value > (dearest.get(attempt.nonce) ?? 0n)) dearest.set(attempt.nonce, value);
  }
  let total = 0n;
  for (const value of dearest.values()) total += value;
  return total;
}
