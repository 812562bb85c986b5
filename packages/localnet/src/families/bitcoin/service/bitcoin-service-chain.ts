/**
 * The service's view of a Bitcoin chain over bitcoind JSON-RPC: addresses, HTLC addresses as swap ids,
 * the watcher, the service redeem of a destination (with the per-order key and the held secret), and
 * the user refunds of a source.
 */
import { address as btcAddress } from "bitcoinjs-lib";
import { BroadcastRejectedError } from "htlc-solver/chains/bitcoin/backend.js";
import { BitcoindBackend } from "htlc-solver/chains/bitcoin/bitcoind-backend.js";
import { fixedBytes } from "htlc-solver/chains/bitcoin/bytes.js";
import { ecc } from "htlc-solver/chains/bitcoin/ecc.js";
import { clampFeeRate } from "htlc-solver/chains/bitcoin/fee.js";
import type { BitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import { buildRedeemTx } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { BitcoinIndexer } from "htlc-solver/chains/bitcoin/indexer.js";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import { bitcoinNetwork } from "htlc-solver/chains/bitcoin/network.js";
import { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceBitcoinChainConfig } from "./bitcoin-config.js";
import type { KeyStore } from "../../../service/store/key-store.js";
import { RelayRejectedError } from "../../../service/chains/relay-error.js";
import type { ServiceChain, SwapTerms, TxOutcome } from "../../../service/chains/service-chain.js";
import { htlcOfSwap, htlcOfTerms } from "./bitcoin-htlc-of.js";
import { BitcoinUserRefunds, type BitcoinSpendContext } from "./bitcoin-user-refunds.js";
import { BitcoinWatcher } from "./bitcoin-watcher.js";

const DEFAULT_MAX_FEE_RATE_SAT_VB = 100;
/** Confirmation target asked of estimatesmartfee for the service's own spends. */
const FEE_TARGET_BLOCKS = 2;

export class BitcoinServiceChain implements ServiceChain, BitcoinSpendContext {
  readonly watcher: BitcoinWatcher;
  readonly signedInitiate = null;
  readonly userRefunds: BitcoinUserRefunds;
  readonly maxFeeRateSatVb: bigint;
  private readonly backend: BitcoindBackend;
  /** Raw transactions the service sent, so their status is found without -txindex. */
  private readonly sent = new Map<string, string>();

  constructor(
    readonly config: LocalServiceBitcoinChainConfig,
    private readonly keys: KeyStore,
  ) {
    const network = bitcoinNetwork(config.network);
    const rpc = new BitcoinRpcClient({
      url: config.rpcUrl,
      user: config.rpcUser,
      password: config.rpcPassword,
    });
    const indexer = new BitcoinIndexer({ rpc, network, lookbackBlocks: config.lookbackBlocks ?? 1008 });
    this.backend = new BitcoindBackend({ rpc, network, indexer });
    this.watcher = new BitcoinWatcher(rpc, indexer, config.network);
    this.maxFeeRateSatVb = BigInt(config.maxFeeRateSatVb ?? DEFAULT_MAX_FEE_RATE_SAT_VB);
    this.userRefunds = new BitcoinUserRefunds(this);
  }

  get name(): string {
    return this.config.name;
  }

  isValidAddress(address: string): boolean {
    try {
      btcAddress.toOutputScript(address, bitcoinNetwork(this.config.network));
      return true;
    } catch {
      return false;
    }
  }

  solverParty(value: string): string | null {
    try {
      const key = fixedBytes(value, 32, "x-only key");
      return ecc.isXOnlyPoint(key) ? value.toLowerCase().replace(/^0x/, "") : null;
    } catch {
      return null;
    }
  }

  /** Bech32 addresses are case-insensitive and shown lowercase; base58 ones keep their case. */
  normalizeAddress(address: string): string {
    const prefix = `${bitcoinNetwork(this.config.network).bech32}1`;
    return address.toLowerCase().startsWith(prefix) ? address.toLowerCase() : address;
  }

  addressKey(address: string): string {
    return address.toLowerCase();
  }

  swapId(terms: SwapTerms): string {
    return htlcOfTerms(terms, this.config.network).address;
  }

  depositTarget(terms: SwapTerms): string {
    return this.swapId(terms);
  }

  htlcOf(swap: SwapRecord): BitcoinHtlc {
    return htlcOfSwap(swap, this.config.network);
  }

  async isInitiated(swap: SwapRecord): Promise<boolean> {
    return (await this.fundingOutputs(swap.swap_id)).length > 0;
  }

  fundingOutputs(swapId: string) {
    return this.watcher.fundingOutputs(swapId);
  }

  async syncedTip(): Promise<number> {
    return Number(await this.watcher.tipHeight());
  }

  privateKeyOf(swapId: string): string | undefined {
    return this.keys.privateKeyOf(swapId);
  }

  /** Redeems every unspent funding output with the service's redeemer key, paying the destination owner. */
  async redeem(swap: SwapRecord, secret: string): Promise<string> {
    const privateKey = this.keys.privateKeyOf(swap.swap_id);
    if (privateKey === undefined) {
      throw new RelayRejectedError(`the service holds no redeemer key for Bitcoin swap ${swap.swap_id}`);
    }
    const htlc = this.htlcOf(swap);
    const unspent = (await this.fundingOutputs(swap.swap_id)).filter((o) => o.spentBy === null);
    if (unspent.length === 0)
      throw new RelayRejectedError(`Bitcoin swap ${swap.swap_id} has nothing left to redeem`);
    const secretBytes = fixedBytes(secret, 32, "secret");
    const inputs = unspent.map((o) => ({
      htlc,
      txid: o.txid,
      vout: o.vout,
      value: o.value,
      secret: secretBytes,
    }));
    const payTo = btcAddress.toOutputScript(swap.redeemer, htlc.network);
    const { tx } = buildRedeemTx(inputs, BitcoinKey.fromHex(privateKey), payTo, await this.feeRateSatVb());
    try {
      return await this.broadcast(tx.toHex());
    } catch (error) {
      if (error instanceof BroadcastRejectedError) throw new RelayRejectedError(error.message);
      throw error;
    }
  }

  /** The node's estimate, clamped to 1..maxFeeRateSatVb (regtest bitcoind has none: 1 sat/vB). */
  async feeRateSatVb(): Promise<bigint> {
    const estimate = await this.backend.feeRateSatVb(FEE_TARGET_BLOCKS);
    return clampFeeRate(estimate, {
      feeRateFloorSatVb: 1,
      feeRateCeilingSatVb: Number(this.maxFeeRateSatVb),
    });
  }

  async broadcast(rawHex: string): Promise<string> {
    const txid = await this.backend.broadcast(rawHex);
    this.sent.set(txid, rawHex);
    return txid;
  }

  async txOutcome(txHash: string): Promise<TxOutcome> {
    const seen = await this.backend.transactionStatus(txHash, this.sent.get(txHash));
    if (seen.state === "mempool") return "pending";
    return seen.state === "confirmed" ? "success" : "dropped";
  }

  async close(): Promise<void> {
    // Nothing is held open: the RPC client opens a request per call.
  }
}
