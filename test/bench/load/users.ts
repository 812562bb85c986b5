/**
 * The benchmark's users, as wallets would act: each approves the HTLCs of the tokens it locks once, then
 * initiates its sources by EIP-712 signature (relayed by the service), by its own call on chain, or by
 * paying Bitcoin deposit addresses. A user's transactions on one chain are sent one after another (each
 * takes the next nonce once the node holds the previous one) and mined side by side, so a user with many
 * orders does not wait a block per order.
 */
import PQueue from "p-queue";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  maxUint256,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { evmChain } from "../../../src/chains/evm/client.js";
import { erc20Abi, htlcAbi } from "../../../src/chains/evm/htlc-abi.js";
import type { LocalnetDescriptor } from "@htlc-solver/localnet/descriptor.js";
import type { LocalnetEvmChainDescriptor } from "@htlc-solver/localnet/families/evm/evm-descriptor.js";
import { gasWithMargin } from "@htlc-solver/localnet/families/evm/gas-margin.js";
import { createLocalUser, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { OrderbookClient } from "../../../src/orderbook/client.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { PlannedSwap } from "./swap-mix.js";

export class UserActionError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "UserActionError";
  }
}

interface ChainWallet {
  pub: PublicClient;
  send(request: { to: Address; data: Hex; value: bigint }): Promise<Hex>;
}

/** One localnet user with a send queue per EVM chain. */
export class BenchUser {
  readonly local: LocalUser;
  private readonly wallets = new Map<string, ChainWallet>();

  constructor(
    private readonly descriptor: LocalnetDescriptor,
    privateKey: Hex,
    orderbook: OrderbookClient,
  ) {
    this.local = createLocalUser(descriptor, privateKey, orderbook);
    const account = privateKeyToAccount(privateKey);
    for (const chain of descriptor.chains) {
      const viemChain = evmChain(chain.chainId, chain.name, [chain.rpcUrl]);
      const pub = createPublicClient({
        chain: viemChain,
        transport: http(chain.rpcUrl),
        pollingInterval: 250,
      });
      const wallet = createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl), account });
      const queue = new PQueue({ concurrency: 1 });
      this.wallets.set(chain.name, {
        pub: pub as PublicClient,
        send: (request) =>
          queue.add(async () => {
            const gas = await gasWithMargin(pub, { ...request, account: account.address });
            return wallet.sendTransaction({ ...request, gas, chain: viemChain });
          }),
      });
    }
  }

  get address(): Address {
    return this.local.address;
  }

  /** Unlimited allowances for every token HTLC this user's swaps lock, mined before it returns. */
  async approve(assetIds: Iterable<string>): Promise<void> {
    const sent: Promise<void>[] = [];
    for (const assetId of new Set(assetIds)) {
      const { chain, asset } = this.local.assetOf(assetId);
      if (asset.tokenAddress === "native") continue;
      const wallet = this.walletOf(chain);
      const allowance = await wallet.pub.readContract({
        address: asset.tokenAddress as Address,
        abi: erc20Abi,
        functionName: "allowance",
        args: [this.address, asset.htlcAddress],
      });
      if (allowance > maxUint256 / 2n) continue;
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [asset.htlcAddress, maxUint256],
      });
      const hash = await wallet.send({ to: asset.tokenAddress as Address, data, value: 0n });
      sent.push(this.mined(wallet, hash, `approve ${assetId}`));
    }
    await Promise.all(sent);
  }

  /** Locks an EVM source by calling the HTLC; resolves with its hash once mined. */
  async initiateOnChain(order: Order): Promise<Hex> {
    const { chain, asset } = this.local.assetOf(order.source_swap.asset);
    const swap = order.source_swap;
    const data = encodeFunctionData({
      abi: htlcAbi,
      functionName: "initiate",
      args: [swap.redeemer as Address, BigInt(swap.timelock), BigInt(swap.amount), `0x${swap.secret_hash}`],
    });
    const native = asset.tokenAddress === "native";
    const wallet = this.walletOf(chain);
    const hash = await wallet.send({ to: asset.htlcAddress, data, value: native ? BigInt(swap.amount) : 0n });
    await this.mined(wallet, hash, `initiate of order ${order.order_id}`);
    return hash;
  }

  /** Signs the EIP-712 initiate and hands it to the service; returns the hash of the service's relay. */
  initiateWithSignature(order: Order): Promise<string> {
    return this.local.initiateWithSignature(order);
  }

  /** Where an EVM transaction stands: its receipt's status, or that the node does not have it mined. */
  async transactionState(assetId: string, hash: string): Promise<string> {
    const wallet = this.walletOf(this.local.assetOf(assetId).chain);
    try {
      const receipt = await wallet.pub.getTransactionReceipt({ hash: hash as Hex });
      const state = `${receipt.status} in block ${receipt.blockNumber}`;
      return receipt.status === "success"
        ? state
        : `${state} (${await this.revertOf(wallet.pub, hash as Hex)})`;
    } catch {
      try {
        const tx = await wallet.pub.getTransaction({ hash: hash as Hex });
        return `pending with nonce ${tx.nonce}`;
      } catch {
        return "unknown to the node";
      }
    }
  }

  /** Why a mined transaction reverted: the failing calls of its trace, innermost last. */
  private async revertOf(pub: PublicClient, hash: Hex): Promise<string> {
    interface Frame {
      to?: string;
      error?: string;
      output?: string;
      calls?: Frame[];
    }
    try {
      const trace = (await pub.request({
        method: "debug_traceTransaction" as never,
        params: [hash, { tracer: "callTracer" }] as never,
      })) as Frame;
      const failing: string[] = [];
      const walk = (frame: Frame): void => {
        if (frame.error !== undefined) failing.push(`${frame.to}: ${frame.error} ${frame.output ?? ""}`);
        for (const inner of frame.calls ?? []) walk(inner);
      };
      walk(trace);
      return failing.join(" <- ");
    } catch (error) {
      return error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    }
  }

  /** Pays every Bitcoin source of these orders in one transaction. */
  async fundBitcoinSources(orders: Order[]): Promise<void> {
    if (orders.length > 0) await this.local.fundBitcoinSources(orders);
  }

  private walletOf(chain: LocalnetEvmChainDescriptor): ChainWallet {
    const wallet = this.wallets.get(chain.name);
    if (wallet === undefined) throw new Error(`user ${this.address} has no wallet on ${chain.name}`);
    return wallet;
  }

  private async mined(wallet: ChainWallet, hash: Hex, what: string): Promise<void> {
    const receipt = await wallet.pub.waitForTransactionReceipt({ hash, timeout: 120_000 });
    if (receipt.status !== "success") throw new UserActionError(what, `transaction ${hash} reverted`);
  }
}

/** The users of a run, each with the tokens its swaps lock approved. */
export async function readyUsers(
  descriptor: LocalnetDescriptor,
  orderbook: OrderbookClient,
  swaps: readonly PlannedSwap[],
): Promise<BenchUser[]> {
  const users = descriptor.users.map((u) => new BenchUser(descriptor, u.privateKey, orderbook));
  const locks = new Map<number, string[]>();
  for (const swap of swaps) {
    if (swap.kind.initiate === "bitcoin-deposit") continue;
    locks.set(swap.user, [...(locks.get(swap.user) ?? []), swap.kind.from]);
  }
  await Promise.all([...locks].map(([index, assets]) => users[index]?.approve(assets)));
  return users;
}
