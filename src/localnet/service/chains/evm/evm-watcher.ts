/**
 * Watches swaps on one EVM chain: `orders(swapId)` on the side's HTLC for the terms, and the
 * Initiated / Redeemed / Refunded logs of that order id (topic filter) for hashes, blocks and the secret.
 */
import { zeroAddress, type Address, type Hex } from "viem";
import { htlcAbi } from "../../../../chains/evm/htlc-abi.js";
import type { SwapRecord } from "../../../../orderbook/types.js";
import type { ChainWatcher, OnChainTerms, SwapFacts, TxFact } from "../service-chain.js";
import type { EvmClients } from "./evm-clients.js";

export class EvmWatcher implements ChainWatcher {
  constructor(
    private readonly clients: EvmClients,
    /** HTLC contract of an asset id `<chain>:<symbol>`. */
    private readonly htlcOf: (assetId: string) => Address,
  ) {}

  async tipHeight(): Promise<bigint> {
    return this.clients.publicClient.getBlockNumber();
  }

  async observe(swap: SwapRecord, fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const htlc = this.htlcOf(swap.asset);
    const orderID = `0x${swap.swap_id}` as Hex;
    const order = await readOrder(this.clients, htlc, orderID, tip);
    if (order === null) return { onChain: null };

    const facts: SwapFacts = { onChain: order.terms };
    if (swap.initiate_tx_hash === "") {
      const fact = await this.initiateFact(htlc, orderID, fromBlock, tip);
      if (fact !== null) facts.initiate = { ...fact, filledAmount: order.terms.amount };
    }
    if (order.fulfilledAt !== 0n && swap.redeem_tx_hash === "" && swap.refund_tx_hash === "") {
      const since = swap.initiate_block_number !== "0" ? BigInt(swap.initiate_block_number) : fromBlock;
      const redeem = await this.redeemFact(htlc, orderID, since, tip);
      if (redeem !== null) facts.redeem = redeem;
      else {
        const refund = await this.refundFact(htlc, orderID, since, tip);
        if (refund !== null) facts.refund = refund;
      }
    }
    return facts;
  }

  private async initiateFact(
    htlc: Address,
    orderID: Hex,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<TxFact | null> {
    const logs = await this.clients.publicClient.getContractEvents({
      address: htlc,
      abi: htlcAbi,
      eventName: "Initiated",
      args: { orderID },
      fromBlock,
      toBlock,
    });
    const log = logs[0];
    if (log === undefined || log.blockNumber === null || log.transactionHash === null) return null;
    return this.txFact(log.transactionHash, log.blockNumber);
  }

  private async redeemFact(
    htlc: Address,
    orderID: Hex,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<(TxFact & { secret: string }) | null> {
    const logs = await this.clients.publicClient.getContractEvents({
      address: htlc,
      abi: htlcAbi,
      eventName: "Redeemed",
      args: { orderID },
      fromBlock,
      toBlock,
    });
    const log = logs[0];
    if (log === undefined || log.blockNumber === null || log.transactionHash === null) return null;
    const secret = (log.args.secret ?? "0x").slice(2).toLowerCase();
    return { ...(await this.txFact(log.transactionHash, log.blockNumber)), secret };
  }

  private async refundFact(
    htlc: Address,
    orderID: Hex,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<TxFact | null> {
    const logs = await this.clients.publicClient.getContractEvents({
      address: htlc,
      abi: htlcAbi,
      eventName: "Refunded",
      args: { orderID },
      fromBlock,
      toBlock,
    });
    const log = logs[0];
    if (log === undefined || log.blockNumber === null || log.transactionHash === null) return null;
    return this.txFact(log.transactionHash, log.blockNumber);
  }

  private async txFact(txHash: Hex, blockNumber: bigint): Promise<TxFact> {
    const block = await this.clients.publicClient.getBlock({ blockNumber });
    return { txHash, blockNumber, timestamp: new Date(Number(block.timestamp) * 1000).toISOString() };
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
