/** The Starknet part of a localnet user: its wallet (the descriptor's Starknet account of the user) and HTLC calls. */
import { formatUnits } from "viem";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalUserContext, LocalUserFamily, LocalUserPart } from "../local-user-family.js";
import { STARKNET_DEMO_SWAPS } from "./starknet-demo-swaps.js";
import { StarknetUserWallet } from "./user-starknet.js";

export interface StarknetUserMembers {
  readonly starknet: StarknetUserWallet;
  isStarknetAsset(assetId: string): boolean;
  /** Locks a Starknet source: approve and `initiate` with the order's terms in one transaction; returns its hash. */
  initiateStarknet(order: Order): Promise<string>;
  /**
   * Locks a Starknet source without calling the HTLC: approves it, signs the SNIP-12 `Initiate` and has
   * the service relay `initiate_with_signature`; returns the relayed transaction's hash.
   */
  initiateStarknetBySignature(order: Order): Promise<string>;
  /** Redeems a Starknet destination with the user's own secret (an order made with `secretHash`). */
  redeemStarknetDestination(order: Order, secret: string): Promise<string>;
  /** Refunds the user's expired Starknet source. */
  refundStarknetSource(order: Order): Promise<string>;
}

export function starknetUserPart(context: LocalUserContext): LocalUserPart<StarknetUserMembers> {
  const chain = context.descriptor.starknet;
  const starknet = new StarknetUserWallet(context.keys.starknet, chain);
  const isStarknetAsset = (assetId: string) => chain.assets.some((asset) => asset.id === assetId);

  return {
    members: {
      starknet,
      isStarknetAsset,
      initiateStarknet: (order) => starknet.initiate(order.source_swap),
      async initiateStarknetBySignature(order) {
        await starknet.approveSource(order.source_swap);
        return context.orderbook.initiate(order.order_id, starknet.signInitiate(order.source_swap));
      },
      redeemStarknetDestination: (order, secret) => starknet.redeem(order.destination_swap, secret),
      refundStarknetSource: (order) => starknet.refund(order.source_swap),
    },
    wallet: {
      holds: isStarknetAsset,
      orderParty: () => ({ owner: starknet.address }),
      balance: (assetId) => starknet.balance(assetId),
      describeAmount(assetId, amount) {
        const asset = starknet.asset(assetId);
        return `${formatUnits(amount, asset.decimals)} ${asset.symbol} on ${chain.name}`;
      },
    },
  };
}

export const starknetUserFamily: LocalUserFamily<StarknetUserMembers> = {
  user: starknetUserPart,
  demoSwaps: STARKNET_DEMO_SWAPS,
};
