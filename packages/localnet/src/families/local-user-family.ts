/**
 * What the local test user needs from one chain family: its wallet there (which assets it holds, the
 * user's address on an order side, balances) and the family's own operations that tests call on the user
 * (`fundBitcoinSource`, `initiateSolana`, ...), plus the family's swaps of the demo. The generic user
 * (user.ts) and demo (demo.ts) ask for these through registry.ts and never ask which family an asset is.
 */
import type { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { Order, OrderSide } from "htlc-solver/orderbook/types.js";
import type { LocalnetDescriptor } from "../descriptor.js";

export interface CreateOrderOptions {
  /** The client keeps the secret (and redeems a destination that needs its key with its own). */
  secretHash?: string;
  /** Send the source without an owner (the service takes an empty one as none): a deposit address pays in. */
  withoutSourceOwner?: boolean;
  /** Basis points less than the quote the user accepts if the solver's quote moved meanwhile. */
  slippageBps?: number;
}

/** What a family's part of a user is built from. */
export interface LocalUserContext {
  descriptor: LocalnetDescriptor;
  /** The user's keys in the descriptor, every family's. */
  keys: LocalnetDescriptor["users"][number];
  orderbook: OrderbookClient;
}

/** What the generic user asks a family's wallet. */
export interface LocalUserWallet {
  /** Whether the asset is on one of this family's chains. */
  holds(assetId: string): boolean;
  /** The user's owner (and, where the family needs one, delegate key) of an order side on this family. */
  orderParty(
    side: "source" | "destination",
    options: CreateOrderOptions,
  ): Pick<OrderSide, "owner" | "delegate">;
  balance(assetId: string): Promise<bigint>;
  /** `0.01 btc on bitcoin_regtest`: an amount as the demo prints it. */
  describeAmount(assetId: string, amount: bigint): string;
}

/** A family's part of one user: the wallet the generic user asks, and the members tests call on the user. */
export interface LocalUserPart<Members> {
  wallet: LocalUserWallet;
  members: Members;
}

/** A demo swap whose source is on this family: how the user locks it. */
export interface LocalDemoSwap<Members> {
  /** Where it comes in the demo (1 first), across every family's swaps. */
  position: number;
  from: string;
  to: string;
  /** Source amount, smallest units. */
  amount: bigint;
  /** Index of the localnet user who swaps. */
  user: number;
  /** How the user locks the source, as the demo prints it. */
  method(user: Members): string;
  initiate(user: Members, order: Order): Promise<unknown>;
}

export interface LocalUserFamily<Members> {
  user(context: LocalUserContext): LocalUserPart<Members>;
  demoSwaps: readonly LocalDemoSwap<Members>[];
}
