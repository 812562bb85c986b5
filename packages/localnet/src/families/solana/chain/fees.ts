/** Transaction fees as the cluster charges them: per signature, plus the compute-unit price when set. */
import type { VersionedMessage } from "@solana/web3.js";

export const LAMPORTS_PER_SIGNATURE = 5000n;
const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_UNITS = 1_400_000n;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;

export interface ComputeBudget {
  unitLimit: bigint;
  /** Micro-lamports per compute unit (0 when no price instruction is present). */
  unitPriceMicroLamports: bigint;
}

export function computeBudget(message: VersionedMessage): ComputeBudget {
  const keys = message.staticAccountKeys;
  let limit: bigint | undefined;
  let price = 0n;
  let otherInstructions = 0n;
  for (const ix of message.compiledInstructions) {
    if (keys[ix.programIdIndex]?.toBase58() !== COMPUTE_BUDGET_PROGRAM) {
      otherInstructions++;
      continue;
    }
    const data = Buffer.from(ix.data);
    if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length >= 5) limit = BigInt(data.readUInt32LE(1));
    if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length >= 9) price = data.readBigUInt64LE(1);
  }
  const unitLimit = limit ?? otherInstructions * DEFAULT_UNITS_PER_INSTRUCTION;
  return { unitLimit: unitLimit < MAX_UNITS ? unitLimit : MAX_UNITS, unitPriceMicroLamports: price };
}

/** 5000 lamports per signature plus ceil(unit price × unit limit / 10^6). */
export function transactionFee(message: VersionedMessage): bigint {
  const { unitLimit, unitPriceMicroLamports } = computeBudget(message);
  const priority = (unitPriceMicroLamports * unitLimit + 999_999n) / 1_000_000n;
  return BigInt(message.header.numRequiredSignatures) * LAMPORTS_PER_SIGNATURE + priority;
}
