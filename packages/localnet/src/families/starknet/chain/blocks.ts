/** Closed blocks: number, hash, parent, time, gas prices and the hashes of the transactions in them. */
import { hash } from "starknet";
import type { GasPrices } from "./fees.js";

export interface Block {
  number: bigint;
  hash: bigint;
  parentHash: bigint;
  timestamp: number;
  prices: GasPrices;
  transactionHashes: bigint[];
}

/** A local-only block hash: Poseidon of the number, the parent, the time and the transaction hashes. */
export function blockHash(number: bigint, parentHash: bigint, timestamp: number, txs: bigint[]): bigint {
  return BigInt(hash.computePoseidonHashOnElements([number, parentHash, BigInt(timestamp), ...txs]));
}

export type BlockStatus = "ACCEPTED_ON_L2" | "ACCEPTED_ON_L1";

/** A block counts as accepted on L1 once the chain has gone `depth` blocks past it. */
export function blockStatus(block: bigint, latest: bigint, depth: bigint): BlockStatus {
  return latest - block >= depth ? "ACCEPTED_ON_L1" : "ACCEPTED_ON_L2";
}
