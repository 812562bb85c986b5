import type { Transaction } from "bitcoinjs-lib";
import type { Coin } from "./coins.js";
import { REGTEST } from "./params.js";

const SEQUENCE_FINAL = 0xffffffff;
const SEQUENCE_DISABLE_FLAG = 0x80000000;
const SEQUENCE_TYPE_FLAG = 0x00400000;
const SEQUENCE_MASK = 0x0000ffff;
/** Time-based relative locks count in units of 512 seconds. */
const SEQUENCE_GRANULARITY = 9;

/** nLockTime finality for a block at `height` whose median-time-past is `time` (BIP-113). */
export function isFinalTx(tx: Transaction, height: number, time: number): boolean {
  if (tx.locktime === 0) return true;
  const limit = tx.locktime < REGTEST.locktimeThreshold ? height : time;
  if (tx.locktime < limit) return true;
  return tx.ins.every((input) => input.sequence === SEQUENCE_FINAL);
}

/**
 * BIP-68 relative lock check: can `tx`, spending `coins`, go in a block at `height` whose parent
 * has median-time-past `prevMedianTime`? `medianTimeAt(h)` gives the MTP of the block at height h.
 */
export function sequenceLocksSatisfied(
  tx: Transaction,
  coins: Coin[],
  height: number,
  prevMedianTime: number,
  medianTimeAt: (height: number) => number,
): boolean {
  if (tx.version >>> 0 < 2) return true;
  let minHeight = -1;
  let minTime = -1;
  tx.ins.forEach((input, i) => {
    const coin = coins[i];
    if (coin === undefined || (input.sequence & SEQUENCE_DISABLE_FLAG) !== 0) return;
    const value = input.sequence & SEQUENCE_MASK;
    if ((input.sequence & SEQUENCE_TYPE_FLAG) !== 0) {
      const coinTime = medianTimeAt(Math.max(coin.height - 1, 0));
      minTime = Math.max(minTime, coinTime + (value << SEQUENCE_GRANULARITY) - 1);
    } else {
      minHeight = Math.max(minHeight, coin.height + value - 1);
    }
  });
  return minHeight < height && minTime < prevMedianTime;
}
