/**
 * The service's view of a Sui chain: addresses as the API prints them (`0x` and 64 hex), swap ids as the
 * module computes order ids (64 hex, no `0x`; the solver family's function), the watcher, the
 * create-order answer's `ptb_bytes` for a SUI source (the user completes and signs it: no relayed
 * initiate on Sui), and the service redeem of a destination with the held secret, paid by the chain's
 * relayer account (anyone may redeem on Sui; the coins go to the stored redeemer).
 */
import { computeSuiSwapId } from "htlc-solver/chains/sui/order-id.js";
import { initiateKindBytes, type SuiSwapTarget } from "htlc-solver/chains/sui/ptb.js";
import { SUI_COIN_TYPE } from "htlc-solver/chains/sui/address.js";
import { SuiReader } from "htlc-solver/chains/sui/reader.js";
import { SuiRpc } from "htlc-solver/chains/sui/rpc.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ServiceChain, SwapTerms, TxOutcome } from "../../../service/chains/service-chain.js";
import { suiAddress, suiAddressProblem } from "./sui-address.js";
import type { LocalServiceSuiChainConfig } from "./sui-config.js";
import { SuiRelayer } from "./sui-relayer.js";
import { suiReadConfig } from "./sui-read-config.js";
import { SuiWatcher } from "./sui-watcher.js";

export class SuiServiceChain implements ServiceChain {
  readonly watcher: SuiWatcher;
  readonly signedInitiate = null;
  readonly userRefunds = null;
  readonly #rpc: SuiRpc;
  readonly #reader: SuiReader;
  readonly #relayer: SuiRelayer;
  /** Asset id → the module's target for it. */
  readonly #targets = new Map<string, SuiSwapTarget>();

  constructor(readonly config: LocalServiceSuiChainConfig) {
    const readConfig = suiReadConfig(config);
    this.#rpc = new SuiRpc(readConfig);
    this.#reader = new SuiReader(readConfig, this.#rpc);
    for (const asset of config.assets) {
      this.#targets.set(`${config.name}:${asset.symbol}`, {
        packageId: suiAddress(config.packageId),
        coinType: asset.coinType,
        registry: {
          objectId: suiAddress(asset.registryId),
          initialSharedVersion: BigInt(asset.registryInitialSharedVersion),
        },
      });
    }
    this.#relayer = new SuiRelayer(config);
    this.watcher = new SuiWatcher(this.#rpc, this.#reader, suiAddress(config.packageId));
  }

  isValidAddress(address: string): boolean {
    return suiAddressProblem(address) === null;
  }

  solverParty(value: string): string | null {
    return this.isValidAddress(value) ? suiAddress(value) : null;
  }

  normalizeAddress(address: string): string {
    return suiAddress(address);
  }

  addressKey(address: string): string {
    return suiAddress(address);
  }

  swapId(terms: SwapTerms): string {
    return computeSuiSwapId({
      initiator: terms.initiator,
      redeemer: terms.redeemer,
      secretHash: terms.secretHash,
      timelock: BigInt(terms.timelock),
      amount: terms.amount,
      registry: this.#registryOf(terms.asset.id),
    });
  }

  /** The registry the user's initiate locks the coins in. */
  depositTarget(terms: SwapTerms): string {
    return this.#registryOf(terms.asset.id);
  }

  /**
   * The initiate's programmable transaction kind (`ptb_bytes`, a JSON array of byte values) for a SUI
   * source; another coin's initiate needs the user's own coin objects, which the service does not pick.
   */
  async initiateTransaction(swap: SwapRecord): Promise<{ ptb_bytes: number[] } | undefined> {
    const target = this.#targetOf(swap.asset);
    if (target.coinType !== SUI_COIN_TYPE) return undefined;
    const bytes = await initiateKindBytes(
      target,
      {
        initiator: swap.initiator,
        redeemer: swap.redeemer,
        secretHash: swap.secret_hash,
        amount: BigInt(swap.amount),
        timelock: BigInt(swap.timelock),
      },
      { kind: "gas" },
    );
    return { ptb_bytes: Array.from(bytes) };
  }

  async isInitiated(swap: SwapRecord): Promise<boolean> {
    const order = await this.#reader.storedOrder(
      this.#targetOf(swap.asset),
      Buffer.from(swap.swap_id, "hex"),
    );
    return order !== null;
  }

  /** Redeems to the stored redeemer with the held secret; the relayer pays the gas. */
  redeem(swap: SwapRecord, secret: string): Promise<string> {
    return this.#relayer.redeem(this.#targetOf(swap.asset), swap.swap_id, secret);
  }

  /**
   * A Sui transaction is executed when the node takes it: its effects say success or failure (gas paid).
   * A digest the node does not know was never taken.
   */
  async txOutcome(txHash: string): Promise<TxOutcome> {
    const tx = await this.#rpc.getTransaction(txHash);
    if (tx === null) return "dropped";
    return tx.effects?.status.status === "success" ? "success" : "reverted";
  }

  close(): Promise<void> {
    return this.#relayer.close();
  }

  #targetOf(assetId: string): SuiSwapTarget {
    const target = this.#targets.get(assetId);
    if (target === undefined)
      throw new Error(`asset ${assetId} is not configured on chain ${this.config.name}`);
    return target;
  }

  #registryOf(assetId: string): string {
    return this.#targetOf(assetId).registry.objectId;
  }
}
