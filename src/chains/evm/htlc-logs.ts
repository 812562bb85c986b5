import {
  formatLog,
  getAbiItem,
  numberToHex,
  parseEventLogs,
  toEventSelector,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { htlcAbi } from "./htlc-abi.js";
import { strip0x, with0x } from "./client.js";

const initiatedEvent = getAbiItem({ abi: htlcAbi, name: "Initiated" });
const redeemedEvent = getAbiItem({ abi: htlcAbi, name: "Redeemed" });
const refundedEvent = getAbiItem({ abi: htlcAbi, name: "Refunded" });
const fulfilmentEvents = [redeemedEvent, refundedEvent];
const redeemedTopic = toEventSelector(redeemedEvent);
const refundedTopic = toEventSelector(refundedEvent);
const initiatedTopic = toEventSelector(initiatedEvent);

/** Many providers cap eth_getLogs ranges; scanning in slices keeps every request acceptable. */
const DEFAULT_LOG_RANGE = 5_000n;

export interface RedeemedSecret {
  /** Order id, hex without 0x. */
  orderId: string;
  /** The revealed secret, hex without 0x. */
  secret: string;
  txHash: Hex;
  blockNumber: bigint;
}

export interface FindRedeemedSecretQuery {
  htlc: Address;
  /** sha256 of the secret, hex with or without 0x. */
  secretHash: string;
  fromBlock: bigint;
  toBlock: bigint;
  /** Blocks per eth_getLogs request. */
  rangeSize?: bigint;
}

/** Finds the first `Redeemed` log of an HTLC for this secret hash in a block range; null when none. */
export async function findRedeemedSecret(
  client: PublicClient,
  query: FindRedeemedSecretQuery,
): Promise<RedeemedSecret | null> {
  const step = query.rangeSize ?? DEFAULT_LOG_RANGE;
  if (step <= 0n) throw new Error(`findRedeemedSecret: rangeSize must be positive, got ${step}`);
  for (let from = query.fromBlock; from <= query.toBlock; from += step) {
    const to = from + step - 1n < query.toBlock ? from + step - 1n : query.toBlock;
    const logs = await client.getLogs({
      address: query.htlc,
      event: redeemedEvent,
      args: { secretHash: with0x(query.secretHash) },
      fromBlock: from,
      toBlock: to,
    });
    const first = logs[0];
    if (first?.args.orderID !== undefined && first.args.secret !== undefined) {
      return {
        orderId: strip0x(first.args.orderID),
        secret: strip0x(first.args.secret),
        txHash: first.transactionHash,
        blockNumber: first.blockNumber,
      };
    }
  }
  return null;
}

export type Fulfilment =
  { kind: "redeemed"; secret: string; txHash: Hex } | { kind: "refunded"; txHash: Hex };

/**
 * How an order was fulfilled, from its logs in the block the contract recorded as `fulfilledAt`: one
 * eth_getLogs asking for either event (both index the order id first).
 */
export async function readFulfilment(
  client: PublicClient,
  htlc: Address,
  orderId: string,
  block: bigint,
): Promise<Fulfilment> {
  const id = with0x(orderId);
  const raw = await client.request({
    method: "eth_getLogs",
    params: [
      {
        address: htlc,
        topics: [[redeemedTopic, refundedTopic], id],
        fromBlock: numberToHex(block),
        toBlock: numberToHex(block),
      },
    ],
  });
  const logs = parseEventLogs({ abi: fulfilmentEvents, logs: raw.map((log) => formatLog(log)) });
  const ours = logs.filter((log) => log.args.orderID.toLowerCase() === id.toLowerCase());
  const redeem = ours.find((log) => log.eventName === "Redeemed");
  if (redeem?.eventName === "Redeemed") {
    return { kind: "redeemed", secret: strip0x(redeem.args.secret), txHash: redeem.transactionHash };
  }
  const refund = ours.find((log) => log.eventName === "Refunded");
  if (refund !== undefined) return { kind: "refunded", txHash: refund.transactionHash };
  throw new Error(
    `order ${orderId} on ${htlc} is fulfilled at block ${block} but that block has no Redeemed or Refunded log for it`,
  );
}

/**
 * Order ids (hex without 0x, lower case) initiated, redeemed or refunded on these HTLCs in a block range,
 * in one eth_getLogs: every event of the contracts indexes the order id first.
 */
export async function changedOrderIds(
  client: PublicClient,
  htlcs: readonly Address[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<string[]> {
  if (htlcs.length === 0 || fromBlock > toBlock) return [];
  const raw = await client.request({
    method: "eth_getLogs",
    params: [
      {
        address: [...htlcs],
        topics: [[initiatedTopic, redeemedTopic, refundedTopic]],
        fromBlock: numberToHex(fromBlock),
        toBlock: numberToHex(toBlock),
      },
    ],
  });
  const ids = new Set<string>();
  for (const log of raw) {
    const id = log.topics[1];
    if (typeof id === "string") ids.add(strip0x(id).toLowerCase());
  }
  return [...ids];
}
