/** The Solana part of a localnet user: its wallet (the descriptor's Solana key of the user) and HTLC calls. */
import { formatUnits } from "viem";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalUserContext, LocalUserFamily, LocalUserPart } from "../local-user-family.js";
import { SOLANA_DEMO_SWAPS } from "./solana-demo-swaps.js";
import { SolanaUserWallet } from "./user-solana.js";

export interface SolanaUserMembers {
  readonly solana: SolanaUserWallet;
  isSolanaAsset(assetId: string): boolean;
  /** Locks a Solana source (SOL or an SPL token) by calling the HTLC program; returns the signature. */
  initiateSolana(order: Order): Promise<string>;
  /** Redeems a Solana destination with the user's own secret (an order made with `secretHash`). */
  redeemSolanaDestination(order: Order, secret: string): Promise<string>;
}

export function solanaUserPart(context: LocalUserContext): LocalUserPart<SolanaUserMembers> {
  const chain = context.descriptor.solana;
  const solana = new SolanaUserWallet(context.keys.solana.secretKey, chain);
  const isSolanaAsset = (assetId: string) => chain.assets.some((asset) => asset.id === assetId);

  return {
    members: {
      solana,
      isSolanaAsset,
      initiateSolana: (order) => solana.initiate(order.source_swap),
      redeemSolanaDestination: (order, secret) => solana.redeem(order.destination_swap, secret),
    },
    wallet: {
      holds: isSolanaAsset,
      orderParty: () => ({ owner: solana.address }),
      balance: (assetId) => solana.balance(assetId),
      describeAmount(assetId, amount) {
        const asset = solana.asset(assetId).config;
        return `${formatUnits(amount, asset.decimals)} ${asset.symbol} on ${asset.chain}`;
      },
    },
  };
}

export const solanaUserFamily: LocalUserFamily<SolanaUserMembers> = {
  user: solanaUserPart,
  demoSwaps: SOLANA_DEMO_SWAPS,
};
