/**
 * The local Sui chain: the object store, admission and execution of signed transactions, the executed
 * transactions and their events, checkpoints, the clock (wall clock plus a test offset) and the test
 * controls (pause with locked inputs, resume, checkpoints on demand, reference gas price). Setup helpers
 * place objects without transactions.
 */
import { normalizeSuiAddress, toBase58 } from "@mysten/sui/utils";
import { admit, decodeTransaction, verifySender, type DecodedTransaction } from "./admission.js";
import type { AdmittedTransaction, OwnedRef } from "./admitted.js";
import { AtomicSwapModel } from "./atomic-swap.js";
import { littleEndian, sha256 } from "./bytes.js";
import { rejected } from "./errors.js";
import type { EmittedEvent } from "./execution.js";
import { executeTransaction, type ExecutedTransaction } from "./executor.js";
import { LookalikeModel } from "./lookalike-module.js";
import type { MoveModuleModel } from "./move-call.js";
import { ObjectStore } from "./object-store.js";
import {
  CLOCK_ID,
  objectDigest,
  storageBytes,
  SUI_COIN_TYPE,
  type Contents,
  type Owner,
  type SuiObject,
} from "./objects.js";
import { STORAGE_PRICE } from "./gas.js";

export interface TransactionRecord extends ExecutedTransaction {
  bytes: Uint8Array;
  signatures: string[];
  decoded: DecodedTransaction;
  /** The checkpoint it went into; undefined until the next checkpoint is made. */
  checkpoint?: bigint;
}

export interface StoredEvent {
  txDigest: string;
  eventSeq: number;
  sender: string;
  timestampMs: bigint;
  event: EmittedEvent;
}

interface Checkpoint {
  sequence: bigint;
  timestampMs: bigint;
  transactions: string[];
}

interface Waiting {
  tx: AdmittedTransaction;
  decoded: DecodedTransaction;
  done: Promise<TransactionRecord>;
  resolve(record: TransactionRecord): void;
  reject(error: Error): void;
}

export interface LocalSuiChainOptions {
  packageId: string;
  lookalikePackageId: string;
  referenceGasPrice?: bigint;
}

/** The dry run's stand-in gas coin when none is given (a full node's: the largest id, a large balance). */
const MOCK_GAS_COIN_ID = `0x${"f".repeat(64)}`;
const MOCK_GAS_COIN_BALANCE = 10n ** 18n;

const lockKey = (ref: OwnedRef) => `${ref.id}@${ref.version}`;

export class LocalSuiChain {
  readonly store = new ObjectStore();
  readonly packageId: string;
  readonly lookalikePackageId: string;
  referenceGasPrice: bigint;
  private clockOffsetMs = 0n;
  private readonly modules: Map<string, MoveModuleModel>;
  private readonly records = new Map<string, TransactionRecord>();
  readonly events: StoredEvent[] = [];
  private readonly checkpoints: Checkpoint[] = [];
  private uncheckpointed: string[] = [];
  private paused = false;
  private readonly waiting = new Map<string, Waiting>();
  private readonly locks = new Map<string, string>();
  private setupCount = 0;

  constructor(options: LocalSuiChainOptions) {
    this.packageId = options.packageId;
    this.lookalikePackageId = options.lookalikePackageId;
    this.referenceGasPrice = options.referenceGasPrice ?? 1000n;
    this.modules = new Map<string, MoveModuleModel>([
      [`${this.packageId}::AtomicSwap`, new AtomicSwapModel(this.packageId)],
      [`${this.lookalikePackageId}::AtomicSwap`, new LookalikeModel(this.lookalikePackageId)],
    ]);
    this.placeObject(CLOCK_ID, { kind: "shared", initialSharedVersion: 1n }, { kind: "clock" });
    this.makeCheckpoint();
  }

  /** The consensus clock: wall clock plus the test offset, in ms. */
  clockMs(): bigint {
    return BigInt(Date.now()) + this.clockOffsetMs;
  }

  advanceClock(ms: bigint): void {
    if (ms < 0n) throw new RangeError(`advanceClock takes a duration >= 0 ms, got ${ms}`);
    this.clockOffsetMs += ms;
  }

  setReferenceGasPrice(price: bigint): void {
    if (price <= 0n) throw new RangeError(`the reference gas price must be > 0, got ${price}`);
    this.referenceGasPrice = price;
  }

  /** Places an object without a transaction (setup: minting, registries). */
  placeObject(id: string, owner: Owner, contents: Contents): SuiObject {
    return this.placeObjectIn(this.store, id, owner, contents);
  }

  private placeObjectIn(store: ObjectStore, id: string, owner: Owner, contents: Contents): SuiObject {
    this.setupCount += 1;
    const writtenBy = toBase58(
      sha256(new TextEncoder().encode("local setup"), littleEndian(BigInt(this.setupCount), 8)),
    );
    const object: SuiObject = {
      id,
      version: 1n,
      digest: objectDigest(id, 1n, writtenBy),
      owner,
      contents,
      storageRebate: 0n,
      previousTransaction: writtenBy,
    };
    object.storageRebate = storageBytes(object, this.packageId) * STORAGE_PRICE;
    store.set(object);
    return object;
  }

  /** A fresh object id for setup objects. */
  setupObjectId(): string {
    return `0x${Buffer.from(sha256(new TextEncoder().encode("local setup object"), littleEndian(BigInt(this.setupCount + 1), 8))).toString("hex")}`;
  }

  private admissionState(checkLocks: boolean, store = this.store) {
    return {
      store,
      referenceGasPrice: this.referenceGasPrice,
      packages: new Set([this.packageId, this.lookalikePackageId]),
      lockHolder: (ref: OwnedRef) => (checkLocks ? this.locks.get(lockKey(ref)) : undefined),
    };
  }

  /**
   * Admits a signed transaction and executes it, or (paused) holds it with its owned inputs locked until
   * `resume`. The same signed bytes again answer with the same transaction and execute nothing.
   */
  async submit(bytesBase64: string, signatures: string[]): Promise<TransactionRecord> {
    const decoded = decodeTransaction(bytesBase64);
    await verifySender(decoded, signatures);
    const done = this.records.get(decoded.digest);
    if (done !== undefined) return done;
    const held = this.waiting.get(decoded.digest);
    if (held !== undefined) return held.done;
    const tx = admit(this.admissionState(true), decoded, signatures);
    if (!this.paused) return this.execute(tx, decoded);
    for (const ref of tx.ownedRefs) this.locks.set(lockKey(ref), tx.digest);
    let resolve!: (record: TransactionRecord) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<TransactionRecord>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.waiting.set(tx.digest, { tx, decoded, done: promise, resolve, reject });
    return promise;
  }

  /**
   * Runs a transaction on a copy of the state: no signature, no locks, nothing changes. Without gas
   * payment it is paid by a mock SUI coin of the sender's, as a full node's dry run does (clients size
   * budgets that way before choosing coins).
   */
  dryRun(bytesBase64: string): ExecutedTransaction {
    const decoded = decodeTransaction(bytesBase64);
    const store = this.store.clone();
    const { gasData } = decoded.data;
    if (gasData.payment.length === 0) {
      const mock = this.placeObjectIn(
        store,
        MOCK_GAS_COIN_ID,
        { kind: "address", address: normalizeSuiAddress(decoded.data.sender) },
        { kind: "coin", coinType: SUI_COIN_TYPE, balance: MOCK_GAS_COIN_BALANCE },
      );
      gasData.payment = [{ objectId: mock.id, version: mock.version.toString(), digest: mock.digest }];
    }
    const tx = admit(this.admissionState(false, store), decoded, []);
    return executeTransaction(tx, {
      store,
      packageId: this.packageId,
      modules: this.modules,
      timestampMs: this.clockMs(),
    });
  }

  private execute(tx: AdmittedTransaction, decoded: DecodedTransaction): TransactionRecord {
    const executed = executeTransaction(tx, {
      store: this.store,
      packageId: this.packageId,
      modules: this.modules,
      timestampMs: this.clockMs(),
    });
    const record: TransactionRecord = { ...executed, bytes: tx.bytes, signatures: tx.signatures, decoded };
    this.records.set(tx.digest, record);
    executed.events.forEach((event, eventSeq) =>
      this.events.push({
        txDigest: tx.digest,
        eventSeq,
        sender: tx.sender,
        timestampMs: executed.timestampMs,
        event,
      }),
    );
    for (const ref of tx.ownedRefs) this.locks.delete(lockKey(ref));
    this.uncheckpointed.push(tx.digest);
    return record;
  }

  /** Holds submitted transactions unexecuted (inputs locked), as a congested validator set. */
  pause(): void {
    this.paused = true;
  }

  /** Executes the held transactions in the order they came, then executes new ones at once again. */
  resume(): void {
    this.paused = false;
    for (const [digest, held] of [...this.waiting]) {
      this.waiting.delete(digest);
      try {
        held.resolve(this.execute(held.tx, held.decoded));
      } catch (error) {
        held.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** Fails the held transactions (the chain stops); their locks go with them. */
  dropWaiting(): void {
    for (const held of this.waiting.values())
      held.reject(rejected("The local chain stopped before executing the transaction"));
    this.waiting.clear();
    this.locks.clear();
  }

  /** Puts every executed transaction not yet in a checkpoint into a new one; returns its sequence number. */
  makeCheckpoint(): bigint {
    const sequence = BigInt(this.checkpoints.length);
    for (const digest of this.uncheckpointed) this.records.get(digest)!.checkpoint = sequence;
    this.checkpoints.push({ sequence, timestampMs: this.clockMs(), transactions: this.uncheckpointed });
    this.uncheckpointed = [];
    return sequence;
  }

  latestCheckpoint(): bigint {
    return BigInt(this.checkpoints.length - 1);
  }

  /** A modelled Move function's signature; undefined when the package, module or function is unknown. */
  moveFunction(packageId: string, module: string, fn: string) {
    return this.modules.get(`${packageId}::${module}`)?.signature(fn);
  }

  transaction(digest: string): TransactionRecord | undefined {
    return this.records.get(digest);
  }

  isWaiting(digest: string): boolean {
    return this.waiting.has(digest);
  }
}
