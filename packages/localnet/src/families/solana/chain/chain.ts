/**
 * A local Solana cluster around litesvm: slots and blocks that advance on a timer (or on demand),
 * blockhashes that stay valid for 150 blocks and then expire, commitment levels derived from slot depth,
 * and a record of every landed transaction (status, fee, balances, logs) for the RPC to answer from.
 *
 * Model: every slot produces one block, so block height equals slot. A transaction executes when it is
 * sent, in the current slot; it is "confirmed" one slot later and "finalized" 32 slots later.
 */
import type { PublicKey } from "@solana/web3.js";
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { base58Encode } from "./base58.js";
import { TransactionRejectedError } from "./errors.js";
import { transactionFee } from "./fees.js";
import type { HtlcProgramName } from "./programs.js";
import { LocalSvm } from "./svm.js";
import { tokenBalances, type TokenBalance } from "./token-balances.js";
import { FailedTransactionMetadata } from "litesvm";
import { rpcTransactionError, type RpcTransactionError } from "./tx-error.js";

/** Blocks after its own during which a blockhash is accepted (the cluster's maximum processing age). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150n;
/** What the faucet behind requestAirdrop starts with: 500 million SOL. */
const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;
/** Slot times kept for getBlockTime: an hour of 400 ms slots; older ones answer from the slot clock. */
const KEPT_SLOT_TIMES = 9_000;
/** Slots until a block counts as finalized. */
export const FINALIZATION_DEPTH = 32n;

export type Commitment = "processed" | "confirmed" | "finalized";

export interface BlockhashInfo {
  blockhash: string;
  slot: bigint;
  lastValidBlockHeight: bigint;
}

export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  transaction: VersionedTransaction;
  wire: Uint8Array;
  err: RpcTransactionError | null;
  logs: string[];
  fee: bigint;
  computeUnits: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  innerInstructions: InnerInstructionRecord[];
}

/** The instructions a top-level instruction invoked (CPIs), as the RPC's meta.innerInstructions lists them. */
export interface InnerInstructionRecord {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[];
}

export interface ConfirmationInfo {
  slot: bigint;
  /** Blocks built on top of the transaction's; null once finalized (as the RPC reports it). */
  confirmations: bigint | null;
  status: Commitment;
}

export interface SimulationOutcome {
  err: RpcTransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
}

export interface LocalSolanaChainOptions {
  programs: Partial<Record<HtlcProgramName, PublicKey>>;
  /** Milliseconds per slot, used for block times (the timer that advances slots lives in the server). */
  slotMs: number;
}

/**
 * Transaction errors after which a transaction never lands (no fee, no status), as on a real cluster; any
 * other error lands it with its fee charged and `err` set.
 */
const NOT_LANDING = new Set<RpcTransactionError>([
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "SignatureFailure",
  "SanitizeFailure",
  "MissingSignatureForFee",
  "UnsupportedVersion",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
]);

export class LocalSolanaChain {
  readonly svm: LocalSvm;
  readonly genesisHash: string;
  readonly faucet = Keypair.generate();
  private slot = 0n;
  private readonly genesisTime = BigInt(Math.floor(Date.now() / 1000));
  private readonly blockhashes = new Map<string, BlockhashInfo>();
  private readonly blockhashOrder: BlockhashInfo[] = [];
  private readonly records = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<string, string[]>();
  /**
   * The slots the chain moved to and when, by the wall clock, oldest first: what getBlockTime reports. A
   * slot jumped over on the way to one was produced when that one was.
   */
  private readonly reachedSlots: bigint[] = [0n];
  private readonly reachedAtMs: number[] = [Date.now()];

  constructor(private readonly options: LocalSolanaChainOptions) {
    this.svm = new LocalSvm({ programs: options.programs, blockhashCheck: false });
    this.svm.setUnixTimestamp(this.genesisTime);
    this.genesisHash = this.svm.latestBlockhash();
    this.registerBlockhash();
    // The faucet backs requestAirdrop with real transfers, so an airdrop has a signature and a status.
    this.svm.setAccount(this.faucet.publicKey, {
      lamports: FAUCET_LAMPORTS,
      data: new Uint8Array(0),
      owner: SystemProgram.programId,
      executable: false,
    });
  }

  currentSlot(commitment: Commitment = "processed"): bigint {
    const depth = commitment === "processed" ? 0n : commitment === "confirmed" ? 1n : FINALIZATION_DEPTH;
    return this.slot > depth ? this.slot - depth : 0n;
  }

  /** One block per slot: the height of a commitment level is its slot. */
  blockHeight(commitment: Commitment = "processed"): bigint {
    return this.currentSlot(commitment);
  }

  blockTime(slot: bigint): number {
    return Number(this.genesisTime + (slot * BigInt(this.options.slotMs)) / 1000n);
  }

  /**
   * When a slot's block was produced, unix seconds, as a validator reports it (its wall clock, which the
   * slot clock above drifts from under load); null for a slot not produced yet.
   */
  producedAt(slot: bigint): number | null {
    if (slot > this.slot) return null;
    // The first slot moved to at or after this one.
    let low = 0;
    let high = this.reachedSlots.length - 1;
    if ((this.reachedSlots[0] ?? 0n) > slot) return this.blockTime(slot);
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.reachedSlots[middle] ?? 0n) < slot) low = middle + 1;
      else high = middle;
    }
    return Math.floor((this.reachedAtMs[low] ?? Date.now()) / 1000);
  }

  /** Moves the chain `count` slots on: new clock, new blockhash; older blockhashes age towards expiry. */
  advanceSlots(count = 1n): void {
    if (count < 1n) throw new RangeError(`advance by at least one slot, got ${count}`);
    this.slot += count;
    this.reachedSlots.push(this.slot);
    this.reachedAtMs.push(Date.now());
    if (this.reachedSlots.length > KEPT_SLOT_TIMES) {
      this.reachedSlots.shift();
      this.reachedAtMs.shift();
    }
    this.svm.warpToSlot(this.slot);
    this.svm.setUnixTimestamp(BigInt(this.blockTime(this.slot)));
    this.svm.expireBlockhash();
    this.registerBlockhash();
  }

  latestBlockhash(commitment: Commitment = "processed"): BlockhashInfo {
    const slot = this.currentSlot(commitment);
    for (let i = this.blockhashOrder.length - 1; i >= 0; i--) {
      const entry = this.blockhashOrder[i];
      if (entry !== undefined && entry.slot <= slot) return entry;
    }
    const first = this.blockhashOrder[0];
    if (first === undefined) throw new Error("the chain has no blockhash");
    return first;
  }

  isBlockhashValid(blockhash: string): boolean {
    const entry = this.blockhashes.get(blockhash);
    return entry !== undefined && entry.lastValidBlockHeight >= this.blockHeight();
  }

  simulate(
    wire: Uint8Array,
    options: { replaceRecentBlockhash?: boolean; sigVerify?: boolean } = {},
  ): SimulationOutcome {
    const tx = VersionedTransaction.deserialize(wire);
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(tx.message.recentBlockhash)) {
      return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n };
    }
    if (options.replaceRecentBlockhash) tx.message.recentBlockhash = this.svm.latestBlockhash();
    const replaced = options.replaceRecentBlockhash ? tx.serialize() : wire;
    const { result } = this.svm.simulate(replaced, options.sigVerify ?? true);
    const meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
    const err = result instanceof FailedTransactionMetadata ? rpcTransactionError(result.err()) : null;
    return { err, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() };
  }

  /**
   * Sends a signed wire transaction. With preflight, a failing simulation rejects it (nothing lands). A
   * transaction that fails in execution lands with its fee charged; one that cannot be loaded (expired
   * blockhash, bad signature, fee payer without funds, already processed) never lands.
   */
  send(wire: Uint8Array, options: { skipPreflight?: boolean } = {}): string {
    const tx = VersionedTransaction.deserialize(wire);
    const signature = base58Encode(tx.signatures[0] ?? new Uint8Array(64));
    if (this.records.has(signature)) throw new TransactionRejectedError("AlreadyProcessed", [], 0n);
    if (!this.isBlockhashValid(tx.message.recentBlockhash)) {
      if (options.skipPreflight) return signature;
      throw new TransactionRejectedError("BlockhashNotFound", [], 0n);
    }
    if (!options.skipPreflight) {
      const simulation = this.simulate(wire, { sigVerify: true });
      if (simulation.err !== null) {
        throw new TransactionRejectedError(simulation.err, simulation.logs, simulation.unitsConsumed);
      }
    }
    const keys = tx.message.staticAccountKeys;
    const preBalances = keys.map((k) => this.svm.balance(k));
    const preTokenBalances = tokenBalances(this.svm, keys);
    const result = this.svm.send(wire);
    const failed = result instanceof FailedTransactionMetadata;
    const err = failed ? rpcTransactionError(result.err()) : null;
    if (err !== null && NOT_LANDING.has(err)) {
      if (options.skipPreflight && err !== "SignatureFailure") return signature;
      throw new TransactionRejectedError(err, [], 0n);
    }
    const meta = failed ? result.meta() : result;
    this.record({
      signature,
      slot: this.slot,
      blockTime: this.blockTime(this.slot),
      transaction: tx,
      wire,
      err,
      logs: meta.logs(),
      fee: transactionFee(tx.message),
      computeUnits: meta.computeUnitsConsumed(),
      preBalances,
      postBalances: keys.map((k) => this.svm.balance(k)),
      preTokenBalances,
      postTokenBalances: tokenBalances(this.svm, keys),
      innerInstructions: meta
        .innerInstructions()
        .map((list, index) => ({
          index,
          instructions: list.map((inner) => {
            const ix = inner.instruction();
            return {
              programIdIndex: ix.programIdIndex(),
              accounts: [...ix.accounts()],
              data: ix.data(),
              stackHeight: inner.stackHeight(),
            };
          }),
        }))
        .filter((entry) => entry.instructions.length > 0),
    });
    return signature;
  }

  /** A real transfer from the chain's faucet, so the airdrop has a signature and a status like any other. */
  airdrop(to: PublicKey, lamports: bigint): string {
    const message = new TransactionMessage({
      payerKey: this.faucet.publicKey,
      recentBlockhash: this.latestBlockhash().blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: this.faucet.publicKey, toPubkey: to, lamports })],
    }).compileToLegacyMessage();
    const tx = new VersionedTransaction(message);
    tx.sign([this.faucet]);
    return this.send(tx.serialize());
  }

  /** The transaction if it landed in a block the commitment level already includes. */
  transaction(signature: string, commitment: Commitment = "processed"): TransactionRecord | undefined {
    const record = this.records.get(signature);
    return record !== undefined && record.slot <= this.currentSlot(commitment) ? record : undefined;
  }

  confirmation(signature: string): ConfirmationInfo | undefined {
    const record = this.records.get(signature);
    if (record === undefined) return undefined;
    const depth = this.slot - record.slot;
    if (depth >= FINALIZATION_DEPTH) return { slot: record.slot, confirmations: null, status: "finalized" };
    return { slot: record.slot, confirmations: depth, status: depth >= 1n ? "confirmed" : "processed" };
  }

  /** Landed transactions from slot `fromSlot` on, oldest first. */
  recentTransactions(fromSlot: bigint): TransactionRecord[] {
    return [...this.records.values()].filter((r) => r.slot >= fromSlot);
  }

  transactionCount(): number {
    return this.records.size;
  }

  /** Signatures of landed transactions that touched `address`, newest first. */
  signaturesFor(address: PublicKey): TransactionRecord[] {
    const signatures = this.byAddress.get(address.toBase58()) ?? [];
    return signatures
      .map((s) => this.records.get(s))
      .filter((r): r is TransactionRecord => r !== undefined)
      .reverse();
  }

  private registerBlockhash(): void {
    const entry = {
      blockhash: this.svm.latestBlockhash(),
      slot: this.slot,
      lastValidBlockHeight: this.slot + BLOCKHASH_VALIDITY_BLOCKS,
    };
    this.blockhashes.set(entry.blockhash, entry);
    this.blockhashOrder.push(entry);
    // Expired blockhashes are kept only as long as a little history is useful to clients.
    while (
      (this.blockhashOrder[0]?.lastValidBlockHeight ?? this.slot) + BLOCKHASH_VALIDITY_BLOCKS <
      this.slot
    ) {
      const old = this.blockhashOrder.shift();
      if (old !== undefined) this.blockhashes.delete(old.blockhash);
    }
  }

  private record(record: TransactionRecord): void {
    this.records.set(record.signature, record);
    for (const key of record.transaction.message.staticAccountKeys) {
      const id = key.toBase58();
      const list = this.byAddress.get(id) ?? [];
      list.push(record.signature);
      this.byAddress.set(id, list);
    }
  }
}
