/**
 * The Sui executor: fills (split the amount from the gas coin for SUI, or merge and split the wallet's
 * coins of the type, then `initiate`), redeems sources, refunds expired fills, and sends instant refunds
 * of declined sources itself (the solver is the redeemer of a Sui source; `instant_refund` needs only
 * the redeemer as sender). Each action is checked against the chain, dry-run (a call that would abort is
 * refused, naming the abort, with nothing sent), and signed with gas coins no other live transaction
 * holds (object-locks.ts). The runner journals the signed bytes, then calls `broadcast`; after a restart
 * the same bytes are sent again, which Sui executes at most once. A Sui transaction cannot be replaced:
 * once its objects are locked it runs or never does, so nothing is bumped or cancelled. Failed effects
 * are final for the attempt: gas was paid and the inputs' versions moved.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import PQueue from "p-queue";
import { Transaction } from "@mysten/sui/transactions";
import { TransactionDataBuilder } from "@mysten/sui/transactions";
import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import type {
  ActionRequest,
  ChainExecutor,
  FeeAllowance,
  JournalView,
  NetworkFeeEstimate,
  SignedTx,
  TxAttemptRef,
  TxStatus,
} from "../chain.js";
import { sameMoveType, SUI_COIN_TYPE } from "./address.js";
import { resolveSuiAsset } from "./assets.js";
import {
  describeSuiFailure,
  refusedForGood,
  SuiActionError,
  SuiFillOnChainError,
  SuiRefusedError,
  SuiRpcError,
} from "./errors.js";
import { budgetCap, budgetOf, checkedGasPrice, gasPaid, MIN_BUDGET_UNITS } from "./gas-policy.js";
import { objectIdOf, SuiObjectLocks } from "./object-locks.js";
import { suiNetworkFees } from "./network-fees.js";
import {
  addInitiate,
  addInstantRefund,
  addRedeem,
  addRefund,
  type SuiObjectRef,
  type SuiSwapTarget,
} from "./ptb.js";
import type { StoredSuiOrder, SuiReader } from "./reader.js";
import type { SuiRpc } from "./rpc.js";
import { rawOfSigned, signedOfRaw } from "./signed.js";
import { suiCoin, type SuiChainConfig } from "./config.js";
import type { SuiTxTerms } from "./tx-terms.js";

/** Coin pages one selection reads at most (50 coins each). */
const MAX_COIN_PAGES = 10;
/** Gas payment objects one transaction takes at most (the protocol's limit is 256). */
const MAX_GAS_COINS = 200;

interface OwnedCoin extends SuiObjectRef {
  balance: bigint;
}

export interface SuiExecutorOptions {
  config: SuiChainConfig;
  keypair: Ed25519Keypair;
  rpc: SuiRpc;
  reader: SuiReader;
  journal: JournalView;
  logger?: Logger;
  now?: () => number;
}

export class SuiExecutor implements ChainExecutor {
  readonly chain: string;
  readonly feeAsset: string | null;
  readonly maxBatch = 1;
  readonly offersInstantRefund = true;
  readonly instantRefundDelivery = "broadcast" as const;
  /** The solver's address: its party on this chain. */
  readonly address: string;
  readonly #config: SuiChainConfig;
  readonly #keypair: Ed25519Keypair;
  readonly #rpc: SuiRpc;
  readonly #reader: SuiReader;
  readonly #journal: JournalView;
  readonly #locks: SuiObjectLocks;
  readonly #queue = new PQueue({ concurrency: 1 });
  readonly #log: Logger | undefined;

  constructor(options: SuiExecutorOptions) {
    this.#config = options.config;
    this.chain = options.config.name;
    this.#keypair = options.keypair;
    this.address = options.keypair.toSuiAddress();
    this.feeAsset = suiCoin(options.config.assets)?.id ?? null;
    this.#rpc = options.rpc;
    this.#reader = options.reader;
    this.#journal = options.journal;
    this.#locks = new SuiObjectLocks(this.chain, options.journal, options.now);
    this.#log = options.logger?.child({ chain: this.chain, family: "sui" });
  }

  async build(actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx> {
    const action = actions[0];
    if (action === undefined || actions.length !== 1)
      throw new SuiActionError(`the Sui executor builds one action per transaction, got ${actions.length}`);
    if (action.params.chain !== this.chain)
      throw new SuiActionError(`action for chain ${action.params.chain} sent to the ${this.chain} executor`);
    const target = await this.#reader.targets.of(action.params.asset);
    const orderId = this.#reader.orderIdOf(action.params);
    const what = `${action.kind} of order ${action.orderId}`;
    const add = await this.#checkedCall(action, target, orderId, what);
    // One build at a time, so two never pick the same coin before either is reserved.
    const signed = await this.#queue.add(() => this.#signDryRun(what, add, action, target, allowance));
    this.#log?.info({ kind: action.kind, orderId: action.orderId, digest: signed.txHash }, "signed");
    return signed;
  }

  /**
   * Submits to every endpoint. A refusal of a transaction the chain already executed counts as sent; a
   * refusal no resend can change is `SuiRefusedError`.
   */
  async broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    const { txBytes, signature, digest } = signedOfRaw(tx.raw);
    if (digest !== tx.txHash)
      throw new SuiActionError(`${this.chain}: journaled bytes have digest ${digest}, not ${tx.txHash}`);
    let answer;
    try {
      answer = await this.#rpc.execute(txBytes, signature, (error) => error instanceof SuiRpcError);
    } catch (error) {
      if (!(error instanceof SuiRpcError)) throw error;
      if ((await this.#rpc.getTransaction(digest).catch(() => null)) !== null) return;
      if (refusedForGood(error)) throw new SuiRefusedError(this.chain, digest, error);
      throw error;
    }
    if (answer.digest !== digest)
      throw new SuiActionError(`${this.chain}: the node reports digest ${answer.digest} for ${digest}`);
    this.#log?.info({ digest }, "broadcast");
  }

  /**
   * Executed and checkpointed: confirmed (its checkpoint's depth) or failed (its gas paid). Executed, not
   * yet checkpointed: pending. Unknown to the node: dead once an owned input moved past the version the
   * attempt took (another transaction used it), otherwise unknown (sent again).
   */
  async txStatus(attempt: TxAttemptRef): Promise<TxStatus> {
    const terms = suiTerms(attempt);
    const tx = await this.#rpc.getTransaction(attempt.txHash);
    if (tx === null) {
      const moved = await this.#movedInput(terms, attempt.txHash);
      if (moved === "by this transaction") return { state: "pending" };
      return moved === null ? { state: "unknown" } : { state: "dead", reason: moved };
    }
    if (tx.effects === undefined)
      throw new SuiActionError(
        `${this.chain}: sui_getTransactionBlock answered no effects for ${attempt.txHash}`,
      );
    if (
      tx.checkpoint === undefined ||
      tx.checkpoint === null ||
      tx.timestampMs === undefined ||
      tx.timestampMs === null
    )
      return { state: "pending" };
    const feePaid = gasPaid(tx.effects.gasUsed, terms.gasBudget);
    const blockHeight = tx.timestampMs;
    if (tx.effects.status.status === "failure")
      return {
        state: "failed",
        blockHeight,
        reason: describeSuiFailure(tx.effects.status.error ?? "failure"),
        feePaid,
      };
    const latest = await this.#rpc.latestCheckpoint();
    const confirmations = Number(latest >= tx.checkpoint ? latest - tx.checkpoint + 1n : 1n);
    return { state: "confirmed", blockHeight, confirmations, feePaid };
  }

  /** A Sui transaction cannot be replaced: its owned objects are locked to it until it runs. */
  bump(): Promise<SignedTx | null> {
    return Promise.resolve(null);
  }

  /** Nothing can take a signed Sui transaction's place (see `bump`). */
  cancel(): Promise<SignedTx | null> {
    return Promise.resolve(null);
  }

  async networkFees(): Promise<NetworkFeeEstimate> {
    return suiNetworkFees(await this.#rpc.referenceGasPrice());
  }

  /**
   * The address's balance of a coin type, less what each live journaled attempt the chain has not
   * executed takes: the coin its calls send out, and its whole gas budget where the coin is SUI.
   */
  async balance(assetId: string): Promise<bigint> {
    const asset = resolveSuiAsset(this.#config, assetId);
    const live = this.#journal.liveAttempts(this.chain);
    const held = await this.#rpc.balance(this.address, asset.coinType);
    let outstanding = 0n;
    for (const attempt of live) {
      if ((await this.#rpc.getTransaction(attempt.txHash)) !== null) continue;
      const terms = suiTerms(attempt);
      if (asset.coinType === SUI_COIN_TYPE) outstanding += terms.gasBudget;
      if (terms.coinType === asset.coinType) outstanding += terms.coinOut;
    }
    return held - outstanding;
  }

  /** The call the action makes, after the checks that must hold right before money moves. */
  async #checkedCall(
    action: ActionRequest,
    target: SuiSwapTarget,
    orderId: Uint8Array,
    what: string,
  ): Promise<(tx: Transaction, coins: readonly OwnedCoin[]) => void> {
    if (action.kind === "fill") {
      await this.#checkFill(action, target, orderId);
      const terms = { ...action.params };
      return (tx, coins) =>
        addInitiate(
          tx,
          target,
          terms,
          target.coinType === SUI_COIN_TYPE ? { kind: "gas" } : { kind: "coins", coins },
        );
    }
    const order = await this.#reader.storedOrder(target, orderId);
    if (order === null)
      throw new SuiActionError(`${what}: no order ${action.params.swapId} in ${target.registry.objectId}`);
    if (order.isFulfilled)
      throw new SuiActionError(`${what}: order ${action.params.swapId} is already fulfilled`);
    if (!(action.locks ?? [action.params.swapId]).includes(action.params.swapId))
      throw new SuiActionError(`${what}: the plan named other locks than ${action.params.swapId}`);
    switch (action.kind) {
      case "redeem": {
        this.#mustBe("redeemer", order, what);
        const secret = this.#secret(action, what);
        return (tx) => addRedeem(tx, target, orderId, secret);
      }
      case "refund":
        this.#mustBe("initiator", order, what);
        return (tx) => addRefund(tx, target, orderId);
      case "instant_refund":
        this.#mustBe("redeemer", order, what);
        return (tx) => addInstantRefund(tx, target, orderId);
    }
  }

  /** Never fill twice: not when a journaled fill executed, nor when the registry already holds the order. */
  async #checkFill(action: ActionRequest, target: SuiSwapTarget, orderId: Uint8Array): Promise<void> {
    const what = `fill of order ${action.orderId}`;
    if (action.params.initiator.toLowerCase() !== this.address)
      throw new SuiActionError(
        `${what}: initiator ${action.params.initiator} is not the solver (${this.address})`,
      );
    const computed = this.#reader.computeSwapId(action.params);
    if (computed !== action.params.swapId)
      throw new SuiActionError(`${what}: stated swap id ${action.params.swapId} differs from ${computed}`);
    for (const digest of this.#journal.actionTxids(action.orderId, "fill")) {
      const tx = await this.#rpc.getTransaction(digest);
      if (tx?.effects?.status.status === "success") throw new SuiFillOnChainError(action.orderId, computed);
    }
    const stored = await this.#reader.storedOrder(target, orderId);
    if (stored === null) return;
    if (stored.initiator === this.address) throw new SuiFillOnChainError(action.orderId, computed);
    throw new SuiActionError(
      `${what}: ${target.registry.objectId} already holds order ${computed}, initiated by ${stored.initiator}`,
    );
  }

  /** Picks free coins, dry-runs at the budget ceiling, then signs at the dry run's budget. */
  async #signDryRun(
    what: string,
    add: (tx: Transaction, coins: readonly OwnedCoin[]) => void,
    action: ActionRequest,
    target: SuiSwapTarget,
    allowance?: FeeAllowance,
  ): Promise<SignedTx> {
    const price = checkedGasPrice(this.#config, await this.#rpc.referenceGasPrice());
    const cap = budgetCap(this.#config, allowance);
    const held = this.#locks.held();
    const isFill = action.kind === "fill";
    const suiOut = isFill && target.coinType === SUI_COIN_TYPE ? action.params.amount : 0n;
    const coins =
      isFill && suiOut === 0n ? await this.#pick(target.coinType, action.params.amount, held, what) : [];
    const gas = await this.#pick(SUI_COIN_TYPE, suiOut + cap, held, what, price * MIN_BUDGET_UNITS + suiOut);
    const gasTotal = gas.reduce((sum, coin) => sum + coin.balance, 0n);
    const probeBudget = gasTotal - suiOut < cap ? gasTotal - suiOut : cap;
    const build = (budget: bigint) => {
      const tx = new Transaction();
      add(tx, coins);
      tx.setSender(this.address);
      tx.setGasPrice(price);
      tx.setGasBudget(budget);
      tx.setGasPayment(gas.map(({ objectId, version, digest }) => ({ objectId, version, digest })));
      return tx.build();
    };
    const dryRun = await this.#rpc.dryRun(await build(probeBudget));
    const status = dryRun.effects.status;
    if (status.status === "failure")
      throw new SuiActionError(
        `${what} would fail on ${this.chain}: ${describeSuiFailure(status.error ?? "failure")}`,
      );
    const budget = budgetOf(this.#config, dryRun.effects.gasUsed, price, allowance);
    if (budget > probeBudget)
      throw new SuiActionError(
        `${what}: the solver's free SUI (${gasTotal} MIST) cannot cover a budget of ${budget} MIST`,
      );
    const txBytes = await build(budget);
    const { signature } = await this.#keypair.signTransaction(txBytes);
    const owned = [...gas, ...coins];
    this.#locks.reserve(owned.map((coin) => coin.objectId));
    const terms: SuiTxTerms = {
      family: "sui",
      gasPrice: price,
      gasBudget: budget,
      ownedInputs: owned.map((coin) => `${coin.objectId}@${coin.version}`),
      coinOut: isFill ? action.params.amount : 0n,
      coinType: target.coinType,
    };
    return {
      chain: this.chain,
      txHash: TransactionDataBuilder.getDigestFromBytes(txBytes),
      raw: rawOfSigned(txBytes, signature),
      nonce: null,
      terms,
    };
  }

  /**
   * The solver's coins of a type that no live transaction holds, largest first, until they reach `want`;
   * short of `want`, all of them, refused when even they do not reach `least` (default `want`).
   */
  async #pick(
    coinType: string,
    want: bigint,
    held: ReadonlySet<string>,
    what: string,
    least = want,
  ): Promise<OwnedCoin[]> {
    const free: OwnedCoin[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_COIN_PAGES; page++) {
      const answer = await this.#rpc.coinsPage(this.address, coinType, cursor);
      for (const coin of answer.data) {
        if (!sameMoveType(coin.coinType, coinType))
          throw new SuiActionError(
            `${this.chain}: suix_getCoins answered a coin of ${coin.coinType} for ${coinType}`,
          );
        if (held.has(coin.coinObjectId) || coin.balance === 0n) continue;
        free.push({
          objectId: coin.coinObjectId,
          version: coin.version.toString(),
          digest: coin.digest,
          balance: coin.balance,
        });
      }
      if (!answer.hasNextPage || answer.nextCursor === null || answer.nextCursor === undefined) break;
      cursor = answer.nextCursor;
    }
    free.sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
    const picked: OwnedCoin[] = [];
    let total = 0n;
    for (const coin of free) {
      if (total >= want || picked.length >= MAX_GAS_COINS) break;
      picked.push(coin);
      total += coin.balance;
    }
    if (total < least)
      throw new SuiActionError(
        `${what}: the solver's free coins of ${coinType} hold ${total}, short of ${least} (coins in live transactions are not used)`,
      );
    return picked;
  }

  /**
   * The first owned input the chain shows at a later version or gone, in words; null when none moved;
   * "by this transaction" when the attempt itself moved it (a node that has its effects but not yet its
   * record). Only the attempt can have moved its inputs while it is live, unless another transaction took
   * them: then it can never run.
   */
  async #movedInput(terms: SuiTxTerms, digest: string): Promise<string | null> {
    for (const input of terms.ownedInputs) {
      const id = objectIdOf(input);
      const version = BigInt(input.split("@")[1] ?? "0");
      const answer = await this.#rpc.getObject(id);
      if (!("data" in answer)) return `input ${id} is gone`;
      if (answer.data.version <= version) continue;
      if (answer.data.previousTransaction === digest) return "by this transaction";
      return `input ${id} moved from version ${version} to ${answer.data.version} by another transaction`;
    }
    return null;
  }

  #mustBe(role: "redeemer" | "initiator", order: StoredSuiOrder, what: string): void {
    if (order[role] !== this.address)
      throw new SuiActionError(
        `${what} needs the order's ${role} ${order[role]} to be the solver (${this.address})`,
      );
  }

  /** The redeem's secret: 32 bytes whose sha256 is the order's hash. */
  #secret(action: ActionRequest, what: string): Uint8Array {
    const secret = action.secret;
    if (secret === undefined || !/^[0-9a-fA-F]{64}$/.test(secret))
      throw new SuiActionError(`${what}: the secret is not 32 bytes of hex`);
    const bytes = Uint8Array.from(Buffer.from(secret, "hex"));
    if (createHash("sha256").update(bytes).digest("hex") !== action.params.secretHash.toLowerCase())
      throw new SuiActionError(`${what}: the secret does not hash to the order's secret hash`);
    return bytes;
  }
}

function suiTerms(attempt: Pick<TxAttemptRef, "terms" | "txHash">): SuiTxTerms {
  if (attempt.terms.family !== "sui")
    throw new SuiActionError(`attempt ${attempt.txHash} was not signed by the Sui executor`);
  return attempt.terms;
}
