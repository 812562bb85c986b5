/**
 * A localnet user's Bitcoin wallet: one key-path P2TR address (the solver's wallet code, with its own
 * in-memory list of payments so that payments made back to back never spend an output twice), plus what
 * a user does with HTLCs: fund a deposit address, redeem a destination with its own key and secret, and
 * broadcast a completed instant refund.
 */
import { randomBytes } from "node:crypto";
import { address as btcAddress, Transaction } from "bitcoinjs-lib";
import type { JournaledTx, JournalView, TxAttemptRef } from "htlc-solver/chains/chain.js";
import type { FundingOutput } from "htlc-solver/chains/bitcoin/backend.js";
import { BitcoindBackend } from "htlc-solver/chains/bitcoin/bitcoind-backend.js";
import { fixedBytes, hashToTxid } from "htlc-solver/chains/bitcoin/bytes.js";
import { clampFeeRate, feeForWeight } from "htlc-solver/chains/bitcoin/fee.js";
import { bitcoinHtlc, type BitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import { buildRedeemTx } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import { bitcoinNetwork, type BitcoinNetworkName } from "htlc-solver/chains/bitcoin/network.js";
import { BitcoinRpcClient } from "htlc-solver/chains/bitcoin/rpc.js";
import {
  P2TR_KEYPATH_INPUT_WEIGHT,
  P2TR_OUTPUT_WEIGHT,
  txOverheadWeight,
} from "htlc-solver/chains/bitcoin/tx-size.js";
import { BitcoinWallet } from "htlc-solver/chains/bitcoin/wallet.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";

export interface BitcoinUserWalletOptions {
  /** 32-byte private key, hex. */
  privateKey: string;
  chain: string;
  network: BitcoinNetworkName;
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
}

/** Payments this wallet broadcast, as a JournalView: their inputs are spent, their change is spendable. */
class SentPayments implements JournalView {
  private readonly attempts: TxAttemptRef[] = [];

  add(chain: string, txHash: string, raw: string): void {
    const id = this.attempts.length + 1;
    const terms = { family: "bitcoin" as const, feeRateSatVb: 0n, feeSats: 0n, inputValues: [] };
    this.attempts.push({ id, chain, txHash, raw, nonce: null, terms, createdAtMs: Date.now() });
  }

  liveAttempts(chain: string): TxAttemptRef[] {
    return this.attempts.filter((attempt) => attempt.chain === chain);
  }

  /** A user's payments fund no fills of its own. */
  actionTxids(): string[] {
    return [];
  }

  /** Every payment stays live: a replaced one is told apart by its replacement spending the same inputs. */
  journaledTx(chain: string, txHash: string): JournaledTx | null {
    const sent = this.attempts.find((a) => a.chain === chain && a.txHash === txHash);
    return sent === undefined ? null : { raw: sent.raw, state: "broadcast", actions: [] };
  }
}

const FEE_BOUNDS = { feeRateFloorSatVb: 1, feeRateCeilingSatVb: 100 };

export class BitcoinUserWallet {
  readonly key: BitcoinKey;
  readonly address: string;
  readonly rpc: BitcoinRpcClient;
  readonly backend: BitcoindBackend;
  private readonly wallet: BitcoinWallet;
  private readonly sent = new SentPayments();
  /** Input values of each payment, so it can be replaced. */
  readonly #inputValues = new Map<string, bigint[]>();
  private readonly network: BitcoinNetworkName;

  constructor(private readonly options: BitcoinUserWalletOptions) {
    this.key = BitcoinKey.fromHex(options.privateKey);
    this.network = options.network;
    const network = bitcoinNetwork(options.network);
    this.rpc = new BitcoinRpcClient({
      url: options.rpcUrl,
      user: options.rpcUser,
      password: options.rpcPassword,
    });
    this.backend = new BitcoindBackend({ rpc: this.rpc, network });
    this.wallet = new BitcoinWallet({
      chain: options.chain,
      key: this.key,
      network,
      backend: this.backend,
      journal: this.sent,
    });
    this.address = this.wallet.address;
  }

  /** A wallet with a fresh random key (tests). */
  static random(options: Omit<BitcoinUserWalletOptions, "privateKey">): BitcoinUserWallet {
    for (;;) {
      try {
        return new BitcoinUserWallet({ ...options, privateKey: randomBytes(32).toString("hex") });
      } catch {
        continue; // 32 random bytes outside the curve order: astronomically rare, draw again.
      }
    }
  }

  get xOnlyKey(): string {
    return this.key.xOnlyHex;
  }

  /** Confirmed (mature) satoshis at the wallet's address, plus change of its own unconfirmed payments. */
  async balance(): Promise<bigint> {
    const { confirmed, unconfirmed } = await this.wallet.balance();
    return confirmed + unconfirmed;
  }

  /**
   * Pays these outputs in one transaction, broadcasts it and returns its txid. The fee rate is the node's
   * estimate unless given (a user may pay the bare minimum, and such a payment can sit unmined).
   */
  async pay(outputs: { address: string; value: bigint }[], feeRateSatVb?: bigint): Promise<string> {
    const network = bitcoinNetwork(this.network);
    const paid = await this.wallet.pay(
      outputs.map((o) => ({ script: btcAddress.toOutputScript(o.address, network), value: o.value })),
      feeRateSatVb ?? (await this.feeRateSatVb()),
    );
    const raw = paid.tx.toHex();
    const txid = await this.backend.broadcast(raw);
    this.sent.add(this.options.chain, txid, raw);
    this.#inputValues.set(txid, paid.inputValues);
    return txid;
  }

  /**
   * Replaces one of this wallet's unmined payments (BIP-125: its inputs signal replacement) with one that
   * pays every input back to the wallet at `feeRateSatVb`: the payment, and anything spending it, leaves
   * the mempool as if it had never been sent. Returns the replacement's txid.
   */
  async cancel(txid: string, feeRateSatVb: bigint): Promise<string> {
    const original = this.sent.liveAttempts(this.options.chain).find((a) => a.txHash === txid);
    const values = this.#inputValues.get(txid);
    if (original === undefined || values === undefined)
      throw new Error(`${txid} is not a payment of this wallet`);
    const inputs = Transaction.fromHex(original.raw).ins.map((input, index) => ({
      txid: hashToTxid(input.hash),
      vout: input.index,
      value: values[index] ?? 0n,
    }));
    const weight =
      txOverheadWeight(inputs.length, 1) + inputs.length * P2TR_KEYPATH_INPUT_WEIGHT + P2TR_OUTPUT_WEIGHT;
    const total = inputs.reduce((sum, i) => sum + i.value, 0n);
    const back = this.wallet.signPayment(inputs, [
      { script: this.wallet.outputScript, value: total - feeForWeight(weight, feeRateSatVb) },
    ]);
    const raw = back.toHex();
    const replacement = await this.backend.broadcast(raw);
    this.sent.add(this.options.chain, replacement, raw);
    return replacement;
  }

  async broadcast(rawHex: string): Promise<string> {
    return this.backend.broadcast(rawHex);
  }

  /** Every output paying an address (HTLC deposits), with its spend. */
  async outputsOf(address: string): Promise<FundingOutput[]> {
    return (await this.backend.addressActivity(address)).outputs;
  }

  /**
   * Redeems a Bitcoin destination whose redeem key (`delegate`) is this wallet's, with the user's own
   * secret, to this wallet's address. Returns the txid.
   */
  async redeemDestination(swap: SwapRecord, secretHex: string): Promise<string> {
    const htlc = destinationHtlc(swap, this.network);
    if (swap.delegate?.toLowerCase() !== this.xOnlyKey) {
      throw new Error(
        `destination ${swap.swap_id} is redeemed by key ${swap.delegate ?? "(none)"}, not this wallet's`,
      );
    }
    const unspent = (await this.outputsOf(htlc.address)).filter((o) => o.spentBy === null);
    if (unspent.length === 0)
      throw new Error(`destination ${swap.swap_id} has no unspent funding output to redeem`);
    const secret = fixedBytes(secretHex.replace(/^0x/, ""), 32, "secret");
    const inputs = unspent.map((o) => ({ htlc, txid: o.txid, vout: o.vout, value: o.value, secret }));
    const { tx } = buildRedeemTx(inputs, this.key, this.wallet.outputScript, await this.feeRateSatVb());
    return this.broadcast(tx.toHex());
  }

  private async feeRateSatVb(): Promise<bigint> {
    return clampFeeRate(await this.backend.feeRateSatVb(2), FEE_BOUNDS);
  }
}

/** The HTLC of a Bitcoin source: `delegate` initiates, the solver's key (`redeemer`) redeems. */
export function sourceHtlc(swap: SwapRecord, network: BitcoinNetworkName): BitcoinHtlc {
  if (swap.delegate === undefined) throw new Error(`source ${swap.swap_id} has no delegate key`);
  return checkedHtlc(swap, swap.delegate, swap.redeemer, network);
}

/** The HTLC of a Bitcoin destination: the solver's key (`initiator`) initiates, `delegate` redeems. */
export function destinationHtlc(swap: SwapRecord, network: BitcoinNetworkName): BitcoinHtlc {
  if (swap.delegate === undefined) throw new Error(`destination ${swap.swap_id} has no delegate key`);
  return checkedHtlc(swap, swap.initiator, swap.delegate, network);
}

/** A user checks that the address the service names is the script of the order's terms. */
function checkedHtlc(
  swap: SwapRecord,
  initiatorKey: string,
  redeemerKey: string,
  network: BitcoinNetworkName,
): BitcoinHtlc {
  const htlc = bitcoinHtlc({
    initiatorKey,
    redeemerKey,
    secretHash: swap.secret_hash,
    timelock: swap.timelock,
    network,
  });
  if (htlc.address !== swap.swap_id) {
    throw new Error(`swap_id ${swap.swap_id} does not rebuild from the order's keys (got ${htlc.address})`);
  }
  return htlc;
}
