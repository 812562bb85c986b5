/**
 * Watches swaps on one EVM chain: `orders(swapId)` on the side's HTLC for the terms, and the
 * Initiated / Redeemed / Refunded logs of that order id (one topic-filtered query) for hashes, blocks
 * and the secret.
 */
import {
  decodeEventLog,
  encodeEventTopics,
  hexToBigInt,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type RpcLog,
} from "viem";
import { htlcAbi } from "htlc-solver/chains/evm/htlc-abi.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ChainWatcher, OnChainTerms, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";
import type { EvmClients } from "./evm-clients.js";

const EVENT_TOPICS: Hex[] = (["Initiated", "Redeemed", "Refunded"] as const).map(
  (eventName) => encodeEventTopics({ abi: htlcAbi, eventName })[0] as Hex,
);

type HtlcEvent =
  | { name: "Initiated"; txHash: Hex; blockNumber: bigint }
  | { name: "Redeemed"; txHash: Hex; blockNumber: bigint; secret: string }
  | { name: "Refunded"; txHash: Hex; blockNumber: bigint };

export class EvmWatcher implements ChainWatcher {
  constructor(
    private readonly clients: EvmClients,
    /** HTLC contract of an asset id `<chain>:<symbol>`. */
    private readonly htlcOf: (assetId: string) => Address,
  ) {}

  async tipHeight(): Promise<bigint> {
    return this.clients.publicClient.getBlockNumber();
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const htlc = this.htlcOf(swap.asset);
    const orderID = `0x${swap.swap_id}` as Hex;
    const order = await readOrder(this.clients, htlc, orderID, tip);
    if (order === null) return { onChain: null };

    const facts: SwapFacts = { onChain: order.terms };
    const needInitiate = swap.initiate_tx_hash === "";
    const needOutcome = order.fulfilledAt !== 0n && swap.redeem_tx_hash === "" && swap.refund_tx_hash === "";
    if (!needInitiate && !needOutcome) return facts;

    for (const event of await this.orderEvents(htlc, orderID, fromBlock, tip)) {
      if (event.name === "Initiated" && needInitiate && facts.initiate === undefined) {
        facts.initiate = { ...(await this.txFact(event)), filledAmount: order.terms.amount };
      } else if (event.name === "Redeemed" && needOutcome && facts.redeem === undefined) {
        facts.redeem = { ...(await this.txFact(event)), secret: event.secret };
      } else if (event.name === "Refunded" && needOutcome && facts.refund === undefined) {
        facts.refund = await this.txFact(event);
      }
    }
    return facts;
  }

  private async orderEvents(
    htlc: Address,
    orderID: Hex,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<HtlcEvent[]> {
    const logs = await this.clients.publicClient.request({
      method: "eth_getLogs",
      params: [
        {
          address: htlc,
          topics: [EVENT_TOPICS, orderID],
          fromBlock: toHex(fromBlock),
          toBlock: toHex(toBlock),
        },
      ],
    });
    return logs.flatMap((log) => {
      const event = decodeHtlcEvent(log);
      return event === null ? [] : [event];
    });
  }

  private async txFact(event: HtlcEvent): Promise<TxFact> {
    const block = await this.clients.publicClient.getBlock({ blockNumber: event.blockNumber });
    return {
      txHash: event.txHash,
      blockNumber: event.blockNumber,
      timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    };
  }
}

function decodeHtlcEvent(log: RpcLog): HtlcEvent | null {
  if (log.blockNumber === null || log.transactionHash === null || log.removed) return null;
  const place = { txHash: log.transactionHash, blockNumber: hexToBigInt(log.blockNumber) };
  try {
    const decoded = decodeEventLog({ abi: htlcAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    if (decoded.eventName === "Redeemed") {
      return { name: "Redeemed", ...place, secret: decoded.args.secret.slice(2).toLowerCase() };
    }
    return { name: decoded.eventName, ...place };
  } catch {
    // A log of another ABI under the same topic (e.g. an older HTLC version): not ours to read.
    return null;
  }
}

export interface EvmOrderState {
  terms: OnChainTerms;
  fulfilledAt: bigint;
}

/** `orders(orderID)` of an HTLC at `block` (latest when absent); null when no such order was ever initiated. */
export async function readOrder(
  clients: EvmClients,
  htlc: Address,
  orderID: Hex,
  block?: bigint,
): Promise<EvmOrderState | null> {
  const [initiator, redeemer, , timelock, amount, fulfilledAt] = await clients.publicClient.readContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "orders",
    args: [orderID],
    ...(block === undefined ? {} : { blockNumber: block }),
  });
  if (initiator === zeroAddress) return null;
  return { terms: { initiator, redeemer, timelock, amount }, fulfilledAt };
}
