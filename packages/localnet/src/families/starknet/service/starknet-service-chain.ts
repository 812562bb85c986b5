/**
 * The service's view of a Starknet chain: account addresses as the API prints them (`0x` and 64 hex),
 * order ids as the HTLC computes them (hex, no `0x`, no leading zeros), the watcher, initiates relayed by
 * the user's SNIP-12 signature, and the service redeem of a destination with the held secret. The
 * chain's relayer account pays for both.
 */
import { bytesToWords } from "htlc-solver/chains/starknet/felt.js";
import { redeemCall } from "htlc-solver/chains/starknet/htlc-calls.js";
import { computeStarknetSwapId } from "htlc-solver/chains/starknet/order-id.js";
import { StarknetRpc } from "htlc-solver/chains/starknet/rpc.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ServiceChain, SwapTerms, TxOutcome } from "../../../service/chains/service-chain.js";
import { starknetAddress, starknetAddressProblem } from "./starknet-address.js";
import type { LocalServiceStarknetChainConfig } from "./starknet-config.js";
import { StarknetRelayer } from "./starknet-relayer.js";
import { StarknetSignedInitiate } from "./starknet-signed-initiate.js";
import { readStarknetOrder, StarknetWatcher } from "./starknet-watcher.js";

export class StarknetServiceChain implements ServiceChain {
  readonly watcher: StarknetWatcher;
  readonly signedInitiate: StarknetSignedInitiate;
  readonly userRefunds = null;
  readonly #rpc: StarknetRpc;
  readonly #relayer: StarknetRelayer;
  readonly #htlcs = new Map<string, string>();

  constructor(readonly config: LocalServiceStarknetChainConfig) {
    this.#rpc = new StarknetRpc({
      name: config.name,
      chainId: config.chainId,
      rpcUrls: [config.rpcUrl],
      rpcTimeoutMs: 10_000,
      maxHeadLagBlocks: 10,
      minBlockTimeMs: config.blockTimeMs,
      maxBlockTimeMs: config.blockTimeMs * 2,
      maxHeadAgeMs: undefined,
    });
    for (const asset of config.assets) {
      this.#htlcs.set(`${config.name}:${asset.symbol}`, starknetAddress(asset.htlcAddress));
    }
    const htlcOf = (assetId: string) => this.#htlcOf(assetId);
    this.#relayer = new StarknetRelayer(config);
    this.watcher = new StarknetWatcher(this.#rpc, htlcOf);
    this.signedInitiate = new StarknetSignedInitiate(config, this.#rpc, this.#relayer, htlcOf);
  }

  isValidAddress(address: string): boolean {
    return starknetAddressProblem(address) === null;
  }

  solverParty(value: string): string | null {
    return this.isValidAddress(value) ? starknetAddress(value) : null;
  }

  normalizeAddress(address: string): string {
    return starknetAddress(address);
  }

  /** A felt is one number however it is spelled: its padded form is its key. */
  addressKey(address: string): string {
    return starknetAddress(address);
  }

  swapId(terms: SwapTerms): string {
    return computeStarknetSwapId({
      layout: this.config.orderIdLayout,
      chainId: this.config.chainId,
      initiator: terms.initiator,
      redeemer: terms.redeemer,
      timelock: BigInt(terms.timelock),
      amount: terms.amount,
      secretHash: terms.secretHash,
      htlc: this.#htlcOf(terms.asset.id),
    });
  }

  /** The HTLC the user approves and calls (or signs `Initiate` for). */
  depositTarget(terms: SwapTerms): string {
    return this.#htlcOf(terms.asset.id);
  }

  async isInitiated(swap: SwapRecord): Promise<boolean> {
    return (
      (await readStarknetOrder(this.#rpc, this.#htlcOf(swap.asset), BigInt(`0x${swap.swap_id}`))) !== null
    );
  }

  /** Redeems to the stored redeemer with the held secret (eight u32 words); the relayer pays the fee. */
  redeem(swap: SwapRecord, secret: string): Promise<string> {
    const words = bytesToWords(Buffer.from(secret, "hex"));
    const call = redeemCall(this.#htlcOf(swap.asset), BigInt(`0x${swap.swap_id}`), words);
    return this.#relayer.send("redeem", [call]);
  }

  /** Included (either way) by its receipt; waiting while the node holds it; dropped once it knows it not. */
  async txOutcome(txHash: string): Promise<TxOutcome> {
    const status = await this.#rpc.txStatus(txHash);
    if (status === null) return "dropped";
    if (status.execution_status === undefined || status.finality_status === "RECEIVED") return "pending";
    return status.execution_status === "SUCCEEDED" ? "success" : "reverted";
  }

  close(): Promise<void> {
    return this.#relayer.close();
  }

  #htlcOf(assetId: string): string {
    const htlc = this.#htlcs.get(assetId);
    if (htlc === undefined)
      throw new Error(`asset ${assetId} is not configured on chain ${this.config.name}`);
    return htlc;
  }
}
