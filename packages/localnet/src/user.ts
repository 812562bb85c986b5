import { createHash, randomBytes } from "node:crypto";
import {
  createPublicClient,
  encodeFunctionData,
  createWalletClient,
  http,
  maxUint256,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import {
  erc20Abi,
  htlcAbi,
  htlcTypedDataTypes,
  HTLC_EIP712_NAME,
  HTLC_EIP712_VERSION,
} from "htlc-solver/chains/evm/htlc-abi.js";
import type { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { CreateOrderRequest, Order, OrderSide, QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalnetDescriptor } from "./descriptor.js";
import type { LocalnetAssetDescriptor, LocalnetEvmChainDescriptor } from "./families/evm/evm-descriptor.js";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import { gasWithMargin } from "./families/evm/gas-margin.js";
import { BitcoinUserWallet, sourceHtlc } from "./families/bitcoin/user-bitcoin.js";
import { SolanaUserWallet } from "./families/solana/user-solana.js";

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

export interface CreateOrderOptions {
  /** The client keeps the secret (and redeems a Bitcoin destination with its own key). */
  secretHash?: string;
  /** Leave out the owner of a Bitcoin source (a refund address is given later). */
  withoutBitcoinOwner?: boolean;
  /** Basis points less than the quote the user accepts if the solver's quote moved meanwhile. */
  slippageBps?: number;
}

/**
 * A localnet user: asks for quotes, creates orders and initiates them as a wallet would, through the
 * service's API, on the EVM chains, on Bitcoin and on Solana. The demo and the end-to-end tests drive swaps
 * through it. Keep one instance per user: its Bitcoin wallet remembers its own unconfirmed payments.
 */
export class LocalUser {
  readonly account: PrivateKeyAccount;
  #bitcoin: BitcoinUserWallet | null = null;
  #solana: SolanaUserWallet | null = null;

  constructor(
    private readonly descriptor: LocalnetDescriptor,
    private readonly privateKey: Hex,
    private readonly orderbook: OrderbookClient,
  ) {
    this.account = privateKeyToAccount(privateKey);
  }

  get address(): Address {
    return this.account.address;
  }

  /** The user's Bitcoin wallet (the descriptor's key of the user with this EVM key). */
  get bitcoin(): BitcoinUserWallet {
    if (this.#bitcoin !== null) return this.#bitcoin;
    const user = this.descriptor.users.find(
      (u) => u.privateKey.toLowerCase() === this.privateKey.toLowerCase(),
    );
    if (user === undefined)
      throw new Error(`user ${this.address} has no Bitcoin key in the localnet descriptor`);
    const chain = this.descriptor.bitcoin;
    this.#bitcoin = new BitcoinUserWallet({
      privateKey: user.bitcoin.privateKey,
      chain: chain.name,
      network: chain.network,
      rpcUrl: chain.rpcUrl,
      rpcUser: chain.rpcUser,
      rpcPassword: chain.rpcPassword,
    });
    return this.#bitcoin;
  }

  /** The user's Solana wallet (the descriptor's key of the user with this EVM key). */
  get solana(): SolanaUserWallet {
    if (this.#solana !== null) return this.#solana;
    const user = this.descriptor.users.find(
      (u) => u.privateKey.toLowerCase() === this.privateKey.toLowerCase(),
    );
    if (user === undefined)
      throw new Error(`user ${this.address} has no Solana key in the localnet descriptor`);
    this.#solana = new SolanaUserWallet(user.solana.secretKey, this.descriptor.solana);
    return this.#solana;
  }

  isSolanaAsset(assetId: string): boolean {
    return this.descriptor.solana.assets.some((asset) => asset.id === assetId);
  }

  isBitcoinAsset(assetId: string): boolean {
    return this.descriptor.bitcoin.assets.some((asset) => asset.id === assetId);
  }

  async bestQuote(from: string, to: string, amount: bigint): Promise<QuoteItem> {
    const quotes = await this.orderbook.quote(from, to, amount);
    const best = quotes[0];
    if (!best) throw new Error(`no quote for ${from} -> ${to}`);
    return best;
  }

  async createOrder(quote: QuoteItem, options: CreateOrderOptions = {}): Promise<Order> {
    const created = await this.orderbook.createOrder(this.orderRequest(quote, options));
    return this.orderbook.getOrder(created.order_id);
  }

  /** The body of `POST /v2/orders` for a quote, with this user's addresses on both sides. */
  orderRequest(quote: QuoteItem, options: CreateOrderOptions = {}): CreateOrderRequest {
    const source: OrderSide = { asset: quote.source.asset, owner: this.address, amount: quote.source.amount };
    if (this.isBitcoinAsset(source.asset)) {
      // The service takes an empty owner as none.
      if (options.withoutBitcoinOwner) source.owner = "";
      else source.owner = this.bitcoin.address;
    }
    if (this.isSolanaAsset(source.asset)) source.owner = this.solana.address;
    const destination: OrderSide = {
      asset: quote.destination.asset,
      owner: this.address,
      amount: quote.destination.amount,
    };
    if (this.isBitcoinAsset(destination.asset)) {
      destination.owner = this.bitcoin.address;
      // A client that keeps the secret redeems with its own key.
      if (options.secretHash) destination.delegate = this.bitcoin.xOnlyKey;
    }
    if (this.isSolanaAsset(destination.asset)) destination.owner = this.solana.address;
    return {
      source,
      destination,
      solver_id: quote.solver_id,
      ...(options.secretHash ? { secret_hash: options.secretHash } : {}),
      ...(options.slippageBps === undefined ? {} : { slippage: options.slippageBps }),
    };
  }

  /**
   * Pays a Bitcoin source's deposit address after checking that it is the HTLC of the order's terms;
   * each part in its own transaction (default: the whole amount at once). Returns the txids.
   */
  async fundBitcoinSource(
    order: Order,
    parts: bigint[] = [BigInt(order.source_swap.amount)],
  ): Promise<string[]> {
    const htlc = sourceHtlc(order.source_swap, this.descriptor.bitcoin.network);
    const txids: string[] = [];
    for (const value of parts) txids.push(await this.bitcoin.pay([{ address: htlc.address, value }]));
    return txids;
  }

  /** Pays the deposit addresses of many Bitcoin sources in one transaction, one output each. */
  async fundBitcoinSources(orders: Order[]): Promise<string> {
    const outputs = orders.map((order) => ({
      address: sourceHtlc(order.source_swap, this.descriptor.bitcoin.network).address,
      value: BigInt(order.source_swap.amount),
    }));
    return this.bitcoin.pay(outputs);
  }

  /** Redeems a Bitcoin destination with the user's own key and secret (an order made with `secretHash`). */
  async redeemBitcoinDestination(order: Order, secret: string): Promise<string> {
    return this.bitcoin.redeemDestination(order.destination_swap, secret);
  }

  /** Broadcasts the instant refund the service completed for a declined Bitcoin source. */
  async broadcastInstantRefund(order: Order): Promise<string> {
    const tx = order.source_swap.instant_refund_tx;
    if (tx === undefined || tx === "")
      throw new Error(`order ${order.order_id} has no instant_refund_tx yet`);
    return this.bitcoin.broadcast(tx);
  }

  /** Asks the service to refund an expired Bitcoin source (default: to the user's own address). */
  async requestBitcoinRefund(order: Order, refundAddress = this.bitcoin.address): Promise<string> {
    return this.orderbook.refund(order.order_id, refundAddress);
  }

  /** Locks a Solana source (SOL or an SPL token) by calling the HTLC program; returns the signature. */
  initiateSolana(order: Order): Promise<string> {
    return this.solana.initiate(order.source_swap);
  }

  /** Redeems a Solana destination with the user's own secret (an order made with `secretHash`). */
  redeemSolanaDestination(order: Order, secret: string): Promise<string> {
    return this.solana.redeem(order.destination_swap, secret);
  }

  /** ERC20 source without paying gas for the lock: approve, sign EIP-712 `Initiate`, let the service relay it. */
  async initiateWithSignature(order: Order): Promise<string> {
    const { chain, asset } = this.assetOf(order.source_swap.asset);
    await this.approve(chain, asset);
    return this.orderbook.initiate(order.order_id, await this.signInitiate(order));
  }

  /** The user's EIP-712 `Initiate` signature of the order's source terms, for its HTLC to take the tokens. */
  signInitiate(order: Order): Promise<Hex> {
    const { chain, asset } = this.assetOf(order.source_swap.asset);
    const swap = order.source_swap;
    return this.account.signTypedData({
      domain: {
        name: HTLC_EIP712_NAME,
        version: HTLC_EIP712_VERSION,
        chainId: chain.chainId,
        verifyingContract: asset.htlcAddress,
      },
      types: htlcTypedDataTypes,
      primaryType: "Initiate",
      message: {
        redeemer: swap.redeemer as Address,
        timelock: BigInt(swap.timelock),
        amount: BigInt(swap.amount),
        secretHash: `0x${swap.secret_hash}`,
      },
    });
  }

  /** Locks the source by calling the HTLC directly (the only way for the native coin). */
  async initiateOnChain(order: Order): Promise<Hex> {
    const { chain, asset } = this.assetOf(order.source_swap.asset);
    const swap = order.source_swap;
    const native = asset.tokenAddress === "native";
    if (!native) await this.approve(chain, asset);
    const { wallet, pub } = this.clients(chain);
    const data = encodeFunctionData({
      abi: htlcAbi,
      functionName: "initiate",
      args: [swap.redeemer as Address, BigInt(swap.timelock), BigInt(swap.amount), `0x${swap.secret_hash}`],
    });
    const value = native ? BigInt(swap.amount) : 0n;
    const to = asset.htlcAddress;
    const gas = await gasWithMargin(pub, { account: this.address, to, data, value });
    const hash = await wallet.sendTransaction({ to, data, value, gas });
    await this.expectSuccess(pub, hash, "initiate");
    return hash;
  }

  /** Redeems the destination with the user's own secret. */
  async redeemDestination(order: Order, secret: Hex): Promise<Hex> {
    const { chain, asset } = this.assetOf(order.destination_swap.asset);
    const { wallet, pub } = this.clients(chain);
    const hash = await wallet.writeContract({
      address: asset.htlcAddress,
      abi: htlcAbi,
      functionName: "redeem",
      args: [`0x${order.destination_swap.swap_id}`, secret],
    });
    await this.expectSuccess(pub, hash, "redeem");
    return hash;
  }

  async balance(assetId: string): Promise<bigint> {
    if (this.isBitcoinAsset(assetId)) return this.bitcoin.balance();
    if (this.isSolanaAsset(assetId)) return this.solana.balance(assetId);
    const { chain, asset } = this.assetOf(assetId);
    const { pub } = this.clients(chain);
    if (asset.tokenAddress === "native") return pub.getBalance({ address: this.address });
    return pub.readContract({
      address: asset.tokenAddress as Address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [this.address],
    });
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
      const order = await this.orderbook.getOrder(orderId);
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

  assetOf(assetId: string): { chain: LocalnetEvmChainDescriptor; asset: LocalnetAssetDescriptor } {
    for (const chain of this.descriptor.chains) {
      const asset = chain.assets.find((a) => a.id === assetId);
      if (asset) return { chain, asset };
    }
    throw new Error(`asset ${assetId} is not on this localnet`);
  }

  private async approve(chain: LocalnetEvmChainDescriptor, asset: LocalnetAssetDescriptor): Promise<void> {
    const { wallet, pub } = this.clients(chain);
    const token = asset.tokenAddress as Address;
    const allowance = await pub.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [this.address, asset.htlcAddress],
    });
    if (allowance > maxUint256 / 2n) return;
    const hash = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [asset.htlcAddress, maxUint256],
    });
    await this.expectSuccess(pub, hash, "approve");
  }

  private clients(chain: LocalnetEvmChainDescriptor) {
    const viemChain = evmChain(chain.chainId, chain.name, [chain.rpcUrl]);
    const pub = createPublicClient({
      chain: viemChain,
      transport: http(chain.rpcUrl),
      pollingInterval: 250,
    }) as PublicClient;
    const wallet = createWalletClient({
      chain: viemChain,
      transport: http(chain.rpcUrl),
      account: this.account,
    });
    return { pub, wallet };
  }

  private async expectSuccess(pub: PublicClient, hash: Hex, what: string): Promise<void> {
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what} transaction ${hash} reverted`);
  }
}
