/**
 * The solver's Bitcoin wallet: one key-path P2TR output script (BIP-86 tweak of the solver's x-only
 * key). Its spendable set is the node's confirmed outputs, minus what live journal attempts already
 * spend, plus the change those attempts pay back. So after a crash the wallet neither spends an output
 * twice (the journaled transaction is re-broadcast, not re-built) nor forgets change still unconfirmed.
 * Change of an attempt that can no longer land (its parent replaced) is neither spent nor counted.
 */
import { Transaction, type Network } from "bitcoinjs-lib";
import PQueue from "p-queue";
import type { Logger } from "pino";
import type { JournalView } from "../chain.js";
import type { BitcoinBackend } from "./backend.js";
import { txidToHash } from "./bytes.js";
import { selectCoins, type SpendableUtxo } from "./coin-selection.js";
import type { PrevOut } from "./htlc-witness.js";
import { journalOutputs, outpointOf, type ChangeOutput } from "./journal-outputs.js";
import type { BitcoinKey } from "./keys.js";
import {
  outputWeight,
  P2TR_DUST_LIMIT,
  P2TR_KEYPATH_INPUT_WEIGHT,
  P2TR_OUTPUT_WEIGHT,
  txOverheadWeight,
} from "./tx-size.js";

/** Opts in to BIP-125 replacement; every transaction the solver signs can be fee-bumped. */
export const RBF_SEQUENCE = 0xfffffffd;

export interface PaymentOutput {
  script: Uint8Array;
  value: bigint;
}

export interface WalletTx {
  tx: Transaction;
  /** Wallet outpoints spent, `txid:vout`. */
  spends: string[];
  inputValues: bigint[];
  fee: bigint;
  feeRateSatVb: bigint;
  /** Index of the change output; null when change would have been dust. */
  changeVout: number | null;
}

export interface BitcoinWalletOptions {
  chain: string;
  key: BitcoinKey;
  network: Network;
  backend: Pick<BitcoinBackend, "confirmedUnspent">;
  journal: JournalView;
  /**
   * How long after it was journaled a live attempt's unconfirmed change may fund new payments
   * (`OutputsContext.chainWindowMs`); default: as long as it is live.
   */
  chainWindowMs?: number;
  /** How long outputs picked by a payment stay reserved before the journal must show them spent. */
  reservationTtlMs?: number;
  logger?: Logger;
  now?: () => number;
}

/**
 * Outputs a payment picked stay reserved this long. The runner journals a signed payment right after it
 * is built, and from then on the journal's live attempts keep them out of every selection; the hold only
 * bridges that instant, so a payment never journaled cannot lock coins for good.
 */
const DEFAULT_RESERVATION_TTL_MS = 60_000;

export class BitcoinWallet {
  readonly chain: string;
  readonly address: string;
  readonly outputScript: Uint8Array;
  readonly #key: BitcoinKey;
  readonly #backend: Pick<BitcoinBackend, "confirmedUnspent">;
  readonly #journal: JournalView;
  readonly #chainWindowMs: number;
  readonly #log: Logger | undefined;
  /** One coin selection at a time, so two payments built at once never pick the same output. */
  readonly #selection = new PQueue({ concurrency: 1 });
  /** Outpoints picked by payments not yet visible in the journal, with the time they were picked. */
  readonly #reserved = new Map<string, number>();
  readonly #reservationTtlMs: number;
  readonly #now: () => number;

  constructor(options: BitcoinWalletOptions) {
    this.chain = options.chain;
    this.#key = options.key;
    const payment = options.key.walletPayment(options.network);
    this.address = payment.address;
    this.outputScript = payment.output;
    this.#backend = options.backend;
    this.#journal = options.journal;
    this.#chainWindowMs = options.chainWindowMs ?? Number.POSITIVE_INFINITY;
    this.#log = options.logger;
    this.#reservationTtlMs = options.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Outputs a payment may pick now: confirmed ones not spent by a live attempt nor picked by a payment
   * still on its way to the journal, and live change that may be chained on.
   */
  async spendable(): Promise<SpendableUtxo[]> {
    const { confirmed, change } = await this.#outputs();
    const chainable = change.filter((c) => c.chainable).map(({ chainable: _, ...utxo }) => utxo);
    return [...confirmed, ...chainable];
  }

  /** What the wallet holds once every live attempt that can still land does: chained on or not. */
  async balance(): Promise<{ confirmed: bigint; unconfirmed: bigint }> {
    const { confirmed, change } = await this.#outputs();
    const sum = (list: SpendableUtxo[]) => list.reduce((s, u) => s + u.value, 0n);
    return { confirmed: sum(confirmed), unconfirmed: sum(change) };
  }

  async #outputs(): Promise<{ confirmed: SpendableUtxo[]; change: ChangeOutput[] }> {
    // The journal before the chain: an attempt mined in between shows as confirmed, never as nothing.
    const live = this.#journal.liveAttempts(this.chain);
    const unspent = await this.#backend.confirmedUnspent(this.address);
    const confirmedKeys = new Set(unspent.map((u) => outpointOf(u.txid, u.vout)));
    const { spent, change } = journalOutputs(live, {
      walletScript: this.outputScript,
      confirmed: confirmedKeys,
      journaledState: (txid) => this.#journal.journaledTx(this.chain, txid)?.state ?? null,
      nowMs: this.#now(),
      chainWindowMs: this.#chainWindowMs,
    });
    const reserved = this.#liveReservations();
    const free = (key: string) => !spent.has(key) && !reserved.has(key);
    const confirmed = unspent
      .filter((u) => free(outpointOf(u.txid, u.vout)))
      .map((u) => ({ txid: u.txid, vout: u.vout, value: u.value, confirmed: true }));
    // A live attempt that already confirmed shows up in both lists; the confirmed entry wins.
    const unconfirmed = change.filter((c) => {
      const key = outpointOf(c.txid, c.vout);
      return !confirmedKeys.has(key) && !reserved.has(key);
    });
    return { confirmed, change: unconfirmed };
  }

  /**
   * Selects inputs, adds change back to the wallet unless it is dust, and signs. Selections run one at a
   * time and reserve what they pick, so concurrent payments (two batches of fills) spend different coins.
   */
  pay(outputs: PaymentOutput[], feeRateSatVb: bigint): Promise<WalletTx> {
    return this.#selection.add(async () => {
      const paid = await this.#pay(outputs, feeRateSatVb);
      for (const outpoint of paid.spends) this.#reserved.set(outpoint, this.#now());
      return paid;
    });
  }

  /** Gives back the outputs of a payment that will never be journaled (its build failed after paying). */
  release(spends: readonly string[]): void {
    for (const outpoint of spends) this.#reserved.delete(outpoint);
  }

  #liveReservations(): Set<string> {
    const cutoff = this.#now() - this.#reservationTtlMs;
    for (const [outpoint, at] of this.#reserved) if (at < cutoff) this.#reserved.delete(outpoint);
    return new Set(this.#reserved.keys());
  }

  async #pay(outputs: PaymentOutput[], feeRateSatVb: bigint): Promise<WalletTx> {
    if (outputs.length === 0) throw new Error("a wallet payment needs at least one output");
    const target = outputs.reduce((s, o) => s + o.value, 0n);
    const paymentsWeight = outputs.reduce((w, o) => w + outputWeight(o.script.length), 0);
    const selection = selectCoins({
      utxos: await this.spendable(),
      target,
      feeRateSatVb,
      baseWeight: txOverheadWeight(1, outputs.length + 1) + paymentsWeight,
      inputWeight: P2TR_KEYPATH_INPUT_WEIGHT,
      changeWeight: P2TR_OUTPUT_WEIGHT,
      dustLimit: P2TR_DUST_LIMIT,
    });
    const all =
      selection.change > 0n ? [...outputs, { script: this.outputScript, value: selection.change }] : outputs;
    const tx = this.signPayment(selection.inputs, all);
    this.#log?.debug(
      { chain: this.chain, txid: tx.getId(), inputs: selection.inputs.length, fee: String(selection.fee) },
      "bitcoin wallet: payment signed",
    );
    return {
      tx,
      spends: selection.inputs.map((u) => outpointOf(u.txid, u.vout)),
      inputValues: selection.inputs.map((u) => u.value),
      fee: selection.fee,
      feeRateSatVb,
      changeVout: selection.change > 0n ? outputs.length : null,
    };
  }

  /** A version-2, RBF-signalling transaction spending wallet outputs, every input signed by key path. */
  signPayment(
    inputs: Pick<SpendableUtxo, "txid" | "vout" | "value">[],
    outputs: PaymentOutput[],
  ): Transaction {
    const tx = new Transaction();
    tx.version = 2;
    for (const input of inputs) tx.addInput(txidToHash(input.txid), input.vout, RBF_SEQUENCE);
    for (const output of outputs) tx.addOutput(output.script, output.value);
    this.signKeyPathInputs(
      tx,
      inputs.map((i) => ({ script: this.outputScript, value: i.value })),
      inputs.map((_, index) => index),
    );
    return tx;
  }

  /** Signs the given inputs (wallet outputs) with SIGHASH_DEFAULT over all prevouts. */
  signKeyPathInputs(tx: Transaction, prevouts: PrevOut[], indices: number[]): void {
    const scripts = prevouts.map((p) => p.script);
    const values = prevouts.map((p) => p.value);
    for (const index of indices) {
      const hash = tx.hashForWitnessV1(index, scripts, values, Transaction.SIGHASH_DEFAULT);
      tx.setWitness(index, [this.#key.signKeyPath(hash)]);
    }
  }
}
