/**
 * The Bitcoin part of a localnet user: its wallet (the descriptor's Bitcoin key of the user), deposits to
 * a source's HTLC, redeems of a destination with its own key, and the refunds of a source.
 */
import { formatUnits } from "viem";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalUserContext, LocalUserFamily, LocalUserPart } from "../local-user-family.js";
import { BITCOIN_DEMO_SWAPS } from "./bitcoin-demo-swaps.js";
import { BitcoinUserWallet, sourceHtlc } from "./user-bitcoin.js";

export interface BitcoinUserMembers {
  /** The user's Bitcoin wallet. One per user: it remembers its own unconfirmed payments. */
  readonly bitcoin: BitcoinUserWallet;
  isBitcoinAsset(assetId: string): boolean;
  /**
   * Pays a Bitcoin source's deposit address after checking that it is the HTLC of the order's terms;
   * each part in its own transaction (default: the whole amount at once). Returns the txids.
   */
  fundBitcoinSource(order: Order, parts?: bigint[]): Promise<string[]>;
  /** Pays the deposit addresses of many Bitcoin sources in one transaction, one output each. */
  fundBitcoinSources(orders: Order[]): Promise<string>;
  /** Redeems a Bitcoin destination with the user's own key and secret (an order made with `secretHash`). */
  redeemBitcoinDestination(order: Order, secret: string): Promise<string>;
  /** Broadcasts the instant refund the service completed for a declined Bitcoin source. */
  broadcastInstantRefund(order: Order): Promise<string>;
  /** Asks the service to refund an expired Bitcoin source (default: to the user's own address). */
  requestBitcoinRefund(order: Order, refundAddress?: string): Promise<string>;
}

export function bitcoinUserPart(context: LocalUserContext): LocalUserPart<BitcoinUserMembers> {
  const chain = context.descriptor.bitcoin;
  const bitcoin = new BitcoinUserWallet({
    privateKey: context.keys.bitcoin.privateKey,
    chain: chain.name,
    network: chain.network,
    rpcUrl: chain.rpcUrl,
    rpcUser: chain.rpcUser,
    rpcPassword: chain.rpcPassword,
  });
  const isBitcoinAsset = (assetId: string) => chain.assets.some((asset) => asset.id === assetId);
  const depositAddress = (order: Order) => sourceHtlc(order.source_swap, chain.network).address;

  const members: BitcoinUserMembers = {
    bitcoin,
    isBitcoinAsset,

    async fundBitcoinSource(order, parts = [BigInt(order.source_swap.amount)]) {
      const address = depositAddress(order);
      const txids: string[] = [];
      for (const value of parts) txids.push(await bitcoin.pay([{ address, value }]));
      return txids;
    },

    fundBitcoinSources(orders) {
      return bitcoin.pay(
        orders.map((order) => ({ address: depositAddress(order), value: BigInt(order.source_swap.amount) })),
      );
    },

    redeemBitcoinDestination: (order, secret) => bitcoin.redeemDestination(order.destination_swap, secret),

    async broadcastInstantRefund(order) {
      const tx = order.source_swap.instant_refund_tx;
      if (tx === undefined || tx === "")
        throw new Error(`order ${order.order_id} has no instant_refund_tx yet`);
      return bitcoin.broadcast(tx);
    },

    requestBitcoinRefund: (order, refundAddress = bitcoin.address) =>
      context.orderbook.refund(order.order_id, refundAddress),
  };

  return {
    members,
    wallet: {
      holds: isBitcoinAsset,
      // A client that keeps the secret redeems a destination with its own key.
      orderParty: (side, options) =>
        side === "destination" && options.secretHash
          ? { owner: bitcoin.address, delegate: bitcoin.xOnlyKey }
          : { owner: bitcoin.address },
      balance: () => bitcoin.balance(),
      describeAmount: (assetId, amount) => `${formatUnits(amount, 8)} btc on ${assetId.split(":")[0]}`,
    },
  };
}

export const bitcoinUserFamily: LocalUserFamily<BitcoinUserMembers> = {
  user: bitcoinUserPart,
  demoSwaps: BITCOIN_DEMO_SWAPS,
};
