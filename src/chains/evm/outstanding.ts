/**
 * What the solver's journaled EVM transactions will still take from an account: for each nonce not yet
 * mined, the dearest of its attempts (replacements share a nonce; only one can be mined). A balance read
 * at a block, less this, is what the account holds once everything journaled lands, so two fills can
 * never both be promised the same coins between signing and mining.
 */
import { decodeFunctionData, parseTransaction, type Address } from "viem";
import type { TxAttemptRef } from "../chain.js";
import { with0x } from "./client.js";
import { htlcAbi } from "./htlc-abi.js";

/** Native coin an attempt can spend at most: its value plus its whole gas allowance. */
export function nativeCost(attempt: Pick<TxAttemptRef, "raw">): bigint {
  const tx = parseTransaction(with0x(attempt.raw));
  return (tx.value ?? 0n) + (tx.gas ?? 0n) * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n);
}

/** Tokens an attempt locks into `htlc` (an initiate the HTLC pulls by transferFrom); 0 for any other call. */
export function tokenCost(attempt: Pick<TxAttemptRef, "raw">, htlc: Address): bigint {
  const tx = parseTransaction(with0x(attempt.raw));
  if (tx.to?.toLowerCase() !== htlc.toLowerCase() || tx.data === undefined) return 0n;
  let call;
  try {
    call = decodeFunctionData({ abi: htlcAbi, data: tx.data });
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
