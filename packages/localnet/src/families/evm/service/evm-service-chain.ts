/** The service's view of one EVM chain: addresses, order ids, watcher, signed initiates and redeems. */
import {
  getAddress,
  isAddress,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
} from "viem";
import { evmOrderId } from "htlc-solver/chains/evm/order-id.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceEvmChainConfig } from "./evm-config.js";
import { isNativeToken } from "htlc-solver/chains/evm/assets.js";
import type {
  ServiceChain,
  SignedInitiate,
  SwapTerms,
  TxOutcome,
  UserRefunds,
} from "../../../service/chains/service-chain.js";
import { createEvmClients, type EvmClients } from "./evm-clients.js";
import { sendRelayed } from "./evm-send.js";
import { EvmSignedInitiate } from "./evm-signed-initiate.js";
import { Eip712Domains } from "./evm-typed-data.js";
import { EvmWatcher, readOrder } from "./evm-watcher.js";

export class EvmServiceChain implements ServiceChain {
  readonly watcher: EvmWatcher;
  readonly signedInitiate: SignedInitiate | null;
  readonly userRefunds: UserRefunds | null = null;
  private readonly clients: EvmClients;
  private readonly htlcs = new Map<string, Address>();

  constructor(
    readonly config: LocalServiceEvmChainConfig,
    relayerPrivateKey: Hex,
  ) {
    this.clients = createEvmClients(config, relayerPrivateKey);
    for (const asset of config.assets) {
      this.htlcs.set(`${config.name}:${asset.symbol}`, getAddress(asset.htlcAddress));
    }
    const htlcOf = (assetId: string): Address => this.htlcOf(assetId);
    this.watcher = new EvmWatcher(this.clients, htlcOf);
    const hasTokens = config.assets.some((asset) => !isNativeToken(asset.tokenAddress));
    this.signedInitiate = hasTokens
      ? new EvmSignedInitiate(this.clients, new Eip712Domains(this.clients), htlcOf)
      : null;
  }

  isValidAddress(address: string): boolean {
    return isAddress(address);
  }

  solverParty(value: string): string | null {
    return isAddress(value) ? getAddress(value) : null;
  }

  normalizeAddress(address: string): string {
    return getAddress(address);
  }

  addressKey(address: string): string {
    return address.toLowerCase();
  }

  swapId(terms: SwapTerms): string {
    return evmOrderId({
      chainId: BigInt(this.config.chainId),
      secretHash: `0x${terms.secretHash}`,
      initiator: getAddress(terms.initiator),
      redeemer: getAddress(terms.redeemer),
      timelock: BigInt(terms.timelock),
      amount: terms.amount,
      htlc: this.htlcOf(terms.asset.id),
    }).slice(2);
  }

  depositTarget(terms: SwapTerms): string {
    return this.htlcOf(terms.asset.id);
  }

  async isInitiated(swap: SwapRecord): Promise<boolean> {
    return (await readOrder(this.clients, this.htlcOf(swap.asset), `0x${swap.swap_id}`)) !== null;
  }

  redeem(swap: SwapRecord, secret: string): Promise<string> {
    return sendRelayed(this.clients, this.htlcOf(swap.asset), {
      functionName: "redeem",
      args: [`0x${swap.swap_id}`, `0x${secret}`],
    });
  }

  async txOutcome(txHash: string): Promise<TxOutcome> {
    const hash = txHash as Hex;
    try {
      const receipt = await this.clients.publicClient.getTransactionReceipt({ hash });
      return receipt.status === "success" ? "success" : "reverted";
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    try {
      await this.clients.publicClient.getTransaction({ hash });
      return "pending";
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return "dropped";
      throw error;
    }
  }

  async close(): Promise<void> {
    this.clients.sendQueue.clear();
    await this.clients.sendQueue.onIdle();
  }

  private htlcOf(assetId: string): Address {
    const htlc = this.htlcs.get(assetId);
    if (htlc === undefined)
      throw new Error(`asset ${assetId} is not configured on chain ${this.config.name}`);
    return htlc;
  }
}
