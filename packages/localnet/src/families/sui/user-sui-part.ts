/** The Sui part of a localnet user: its wallet (the descriptor's Sui account of the user) and registry calls. */
import { formatUnits } from "viem";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalUserContext, LocalUserFamily, LocalUserPart } from "../local-user-family.js";
import { SUI_DEMO_SWAPS } from "./sui-demo-swaps.js";
import { SuiUserWallet } from "./user-sui.js";

export interface SuiUserMembers {
  readonly sui: SuiUserWallet;
  isSuiAsset(assetId: string): boolean;
  /**
   * Locks a Sui source: the initiate's programmable transaction kind (the create-order answer's
   * `ptb_bytes`, built again from the order's terms) with this user's sender and gas; returns the digest.
   */
  initiateSui(order: Order): Promise<string>;
  /** Redeems a Sui destination with the user's own secret (an order made with `secretHash`). */
  redeemSuiDestination(order: Order, secret: string): Promise<string>;
  /** Refunds the user's expired Sui source. */
  refundSuiSource(order: Order): Promise<string>;
}

export function suiUserPart(context: LocalUserContext): LocalUserPart<SuiUserMembers> {
  const chain = context.descriptor.sui;
  const sui = new SuiUserWallet(context.keys.sui, chain);
  const isSuiAsset = (assetId: string) => chain.assets.some((asset) => asset.id === assetId);

  return {
    members: {
      sui,
      isSuiAsset,
      initiateSui: (order) => sui.initiate(order.source_swap),
      redeemSuiDestination: (order, secret) => sui.redeem(order.destination_swap, secret),
      refundSuiSource: (order) => sui.refund(order.source_swap),
    },
    wallet: {
      holds: isSuiAsset,
      orderParty: () => ({ owner: sui.address }),
      balance: (assetId) => sui.balance(assetId),
      describeAmount(assetId, amount) {
        const asset = sui.asset(assetId);
        return `${formatUnits(amount, asset.decimals)} ${asset.symbol} on ${chain.name}`;
      },
    },
  };
}

export const suiUserFamily: LocalUserFamily<SuiUserMembers> = {
  user: suiUserPart,
  demoSwaps: SUI_DEMO_SWAPS,
};
