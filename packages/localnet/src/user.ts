import { createHash, randomBytes } from "node:crypto";
import type { Hex } from "viem";
import type { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { CreateOrderRequest, Order, OrderSide, QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalnetDescriptor } from "./descriptor.js";
import type { CreateOrderOptions, LocalUserContext, LocalUserWallet } from "./families/local-user-family.js";
import { localUserParts, type LocalUserMembers } from "./families/registry.js";

export type { CreateOrderOptions } from "./families/local-user-family.js";

export interface UserSecret {
  secret: Hex;
  secretHash: string;
}

/** A fresh 32-byte secret for a client that redeems by itself. */
export function newUserSecret(): UserSecret {
  const secret = randomBytes(32);
  return {
    secret: `0x${secret.toString("hex")}`,
    secretHash: createHash("sha256").update(secret).digest("hex"),
  };
}

/** What a user does whatever the families of an order's assets: quotes, orders, balances. */
export class LocalUserCore {
  constructor(
    private readonly context: LocalUserContext,
    private readonly wallets: readonly LocalUserWallet[],
  ) {}

  async bestQuote(from: string, to: string, amount: bigint): Promise<QuoteItem> {
    const quotes = await this.context.orderbook.quote(from, to, amount);
    const best = quotes[0];
    if (!best) throw new Error(`no quote for ${from} -> ${to}`);
    return best;
  }

  async createOrder(quote: QuoteItem, options: CreateOrderOptions = {}): Promise<Order> {
    const created = await this.context.orderbook.createOrder(this.orderRequest(quote, options));
    return this.context.orderbook.getOrder(created.order_id);
  }

  /** The body of `POST /v2/orders` for a quote, with this user's addresses on both sides. */
  orderRequest(quote: QuoteItem, options: CreateOrderOptions = {}): CreateOrderRequest {
    const source: OrderSide = {
      asset: quote.source.asset,
      amount: quote.source.amount,
      ...this.walletOf(quote.source.asset).orderParty("source", options),
    };
    // The service takes an empty owner as none.
    if (options.withoutSourceOwner) source.owner = "";
    const destination: OrderSide = {
      asset: quote.destination.asset,
      amount: quote.destination.amount,
      ...this.walletOf(quote.destination.asset).orderParty("destination", options),
    };
    return {
      source,
      destination,
      solver_id: quote.solver_id,
      ...(options.secretHash ? { secret_hash: options.secretHash } : {}),
      ...(options.slippageBps === undefined ? {} : { slippage: options.slippageBps }),
    };
  }

  balance(assetId: string): Promise<bigint> {
    return this.walletOf(assetId).balance(assetId);
  }

  /** `0.01 btc on bitcoin_regtest`. */
  describeAmount(assetId: string, amount: bigint): string {
    return this.walletOf(assetId).describeAmount(assetId, amount);
  }

  /** Polls the order until `done` holds, reporting each status change. */
  async waitForOrder(
    orderId: string,
    done: (order: Order) => boolean,
    options: { timeoutMs?: number; intervalMs?: number; onChange?: (order: Order) => void } = {},
  ): Promise<Order> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    let lastStatus = "";
    for (;;) {
      const order = await this.context.orderbook.getOrder(orderId);
      if (order.status !== lastStatus) {
        lastStatus = order.status;
        options.onChange?.(order);
      }
      if (done(order)) return order;
      if (Date.now() > deadline) {
        throw new Error(
          `order ${orderId} did not reach the expected state in time; last status ${order.status}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
    }
  }

  private walletOf(assetId: string): LocalUserWallet {
    const wallet = this.wallets.find((w) => w.holds(assetId));
    if (wallet === undefined) throw new Error(`asset ${assetId} is not on this localnet`);
    return wallet;
  }
}

/**
 * A localnet user: asks for quotes, creates orders and initiates them as a wallet would, through the
 * service's API and on each family's chains (the members each family adds: `user.bitcoin`,
 * `user.initiateOnChain`, ...). The demo and the end-to-end tests drive swaps through it. Keep one
 * instance per user: its Bitcoin wallet remembers its own unconfirmed payments.
 */
export type LocalUser = LocalUserCore & LocalUserMembers;

/** The user of the descriptor with this key (its key on the first family's chains). */
export function createLocalUser(
  descriptor: LocalnetDescriptor,
  privateKey: Hex,
  orderbook: OrderbookClient,
): LocalUser {
  const keys = descriptor.users.find((u) => u.privateKey.toLowerCase() === privateKey.toLowerCase());
  if (keys === undefined) throw new Error("no user of the localnet descriptor has this private key");
  const context = { descriptor, keys, orderbook };
  const parts = localUserParts(context);
  return Object.assign(new LocalUserCore(context, parts.wallets), parts.members);
}
