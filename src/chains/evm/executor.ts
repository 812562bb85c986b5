import { pino, type Logger } from "pino";
import {
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
  keccak256,
  maxUint256,
  parseTransaction,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  CANCEL_FEE_CEILING_FACTOR,
  type ActionKind,
  type ActionRequest,
  type ChainExecutor,
  type NetworkFeeEstimate,
  type FailedAction,
  type FeeAllowance,
  type JournalView,
  type OmittedAction,
  type OperatorTransfers,
  type SignedTx,
  type TokenAllowances,
  type TxAttemptRef,
  type TxStatus,
} from "../chain.js";
import { evmCoin, resolveEvmAsset, type EvmAsset } from "./assets.js";
import { batchRoute, type BatchRoute } from "./batch/batch-call.js";
import { tookEffect } from "./batch/batch-outcomes.js";
import { evmBatching, type EvmBatching } from "./batch/batching.js";
import { sendDelegation } from "./batch/delegation.js";
import { settledLater } from "../../util/settled-later.js";
import { MULTICALL3_ADDRESS, type CallResult } from "./batch/multicall3.js";
import { Multicall3Check } from "./batch/multicall3-code.js";
import { createEvmPublicClient, with0x } from "./client.js";
import {
  EvmRpcError,
  InsufficientAllowanceError,
  OrderAlreadyInitiatedError,
  TxWouldRevertError,
  decodeRevert,
  decodeRevertData,
  isAlreadyKnown,
  isNonceTooLow,
  nodeMessage,
  revertDataOf,
} from "./errors.js";
import { allowanceCeiling, bumpedFees, initialFees, type Eip1559Fees } from "./fee-policy.js";
import { erc20Abi, htlcAbi } from "./htlc-abi.js";
import { htlcCallFor, type EvmCall } from "./htlc-calls.js";
import { htlcErrorAbi } from "./htlc-errors.js";
import { EvmNonceManager } from "./nonce-manager.js";
import { evmOperatorTransfers, evmTokenAllowances, type OperatorSigner } from "./operator-txs.js";
import { nativeCost, outstandingCost, tokenCost } from "./outstanding.js";
import { EvmReader } from "./reader.js";
import { standardErrorsAbi } from "./standard-errors-abi.js";
import { RefusedForGoodError } from "../seam-errors.js";
import type { EvmChainConfig } from "./config.js";
import { readEvmNetworkFees } from "./network-fees.js";

export interface EvmExecutorOptions {
  config: EvmChainConfig;
  /** 0x-prefixed 32-byte key of the solver's account on this chain. */
  privateKey: Hex;
  journal: JournalView;
  publicClient?: PublicClient;
  /** Extra custom errors to name reverts by; the compiled HTLCs' own errors are always included. */
  errorAbi?: Abi;
  logger?: Logger;
  /** How long a nonce handed out by build stays reserved before the journal must show it. */
  nonceReservationTtlMs?: number;
  /** The chain's Multicall3 check, shared with its reader; one of the executor's own when absent. */
  multicall3?: Multicall3Check;
}

/** A node refused the transaction for now (its fee, say): the same bytes may be taken later. */
export class BroadcastError extends Error {
  constructor(chain: string, txHash: string, nodeSays: string, cause?: unknown) {
    super(`broadcast of ${txHash} on ${chain} failed: ${nodeSays}`, { cause });
    this.name = "BroadcastError";
  }
}

/** The account has moved past this nonce with another transaction (a sibling replacement): never taken. */
export class NonceUsedError extends RefusedForGoodError {
  constructor(chain: string, txHash: string, nodeSays: string) {
    super(`broadcast of ${txHash} on ${chain} failed for good: ${nodeSays}`);
    this.name = "NonceUsedError";
  }
}

/** Gas estimates get this much headroom: state can shift between simulation and inclusion. */
const GAS_HEADROOM_PERCENT = 120n;
/** An allowance above this is treated as the unlimited one ensureAllowance grants. */
const UNLIMITED_ALLOWANCE_FLOOR = maxUint256 / 2n;
/** A plain transfer's gas: what a cancel (nothing to self) uses when the account has no code. */
const TRANSFER_GAS = 21_000n;

/** What a signed transaction is for, in simulation errors. */
type EvmTxLabel = ActionRequest["kind"] | "approve" | "withdraw";

/** A start-up transaction already broadcast: settles once its receipt shows it took effect. */
type PendingSetup = () => Promise<void>;

export class EvmExecutor implements ChainExecutor {
  readonly chain: string;
  readonly feeAsset: string | null;
  /** The solver declines EVM sources by not filling them; the user refunds after the timelock. */
  readonly offersInstantRefund = false;
  readonly client: PublicClient;
  private readonly config: EvmChainConfig;
  private readonly account: PrivateKeyAccount;
  private readonly nonces: EvmNonceManager;
  private readonly reader: EvmReader;
  private readonly revertAbi: Abi;
  private readonly log: Logger;
  private readonly journal: JournalView;
  private readonly batching: EvmBatching;
  private readonly multicall3: Multicall3Check;
  /** Multicall3's own code is here (checked by prepare): redeems and refunds may batch. */
  private multicallReady = false;
  /** The account delegates to the BatchExecutor (made sure of by prepareBatching): fills may batch. */
  private delegated = false;

  constructor(options: EvmExecutorOptions) {
    this.config = options.config;
    this.chain = options.config.name;
    this.feeAsset = evmCoin(options.config.assets)?.id ?? null;
    this.client = options.publicClient ?? createEvmPublicClient(options.config);
    this.account = privateKeyToAccount(options.privateKey);
    this.journal = options.journal;
    this.batching = evmBatching(options.config);
    this.revertAbi = [
      ...htlcAbi,
      ...erc20Abi,
      ...standardErrorsAbi,
      ...htlcErrorAbi(),
      ...(options.errorAbi ?? []),
    ];
    this.log = (options.logger ?? pino({ level: "silent" })).child({ chain: this.chain, family: "evm" });
    this.multicall3 = options.multicall3 ?? new Multicall3Check(this.client, this.chain, this.log);
    this.reader = new EvmReader(options.config, this.client, this.multicall3);
    this.nonces = new EvmNonceManager({
      chain: this.chain,
      address: this.account.address,
      client: this.client,
      journal: options.journal,
      ...(options.nonceReservationTtlMs !== undefined
        ? { reservationTtlMs: options.nonceReservationTtlMs }
        : {}),
    });
  }

  get address(): Address {
    return this.account.address;
  }

  /** The operator's payments out of the account (src/chains/evm/operator-txs.ts). */
  get transfers(): OperatorTransfers {
    return evmOperatorTransfers(this.operatorSigner());
  }

  /** The operator's view and setting of the HTLCs' token allowances. */
  get tokenAllowances(): TokenAllowances {
    return evmTokenAllowances(this.operatorSigner());
  }

  private operatorSigner(): OperatorSigner {
    return {
      config: this.config,
      signOperatorCall: async (call, label) => {
        const signed = await this.signNew(call, label);
        const terms = signed.terms.family === "evm" ? signed.terms : null;
        if (terms === null)
          throw new Error(`an EVM transaction on ${this.chain} was signed with foreign terms`);
        return { signed, maxFee: terms.gas * terms.maxFeePerGas };
      },
      allowanceOf: (asset) => this.allowanceOf(resolveEvmAsset(this.config, asset)),
    };
  }

  /** The nonce the next build would take (chain pending count, journal and in-flight builds). */
  nextNonce(): Promise<bigint> {
    return this.nonces.peek();
  }

  /** The largest batch any kind may have now. */
  get maxBatch(): number {
    return Math.max(this.maxBatchFor("fill"), this.maxBatchFor("redeem"));
  }

  /**
   * Actions of `kind` one transaction carries: redeems and refunds once Multicall3's code is known to be
   * here, fills once the account delegates to the BatchExecutor; one each until prepareBatching has seen so.
   */
  maxBatchFor(kind: ActionKind): number {
    if (this.batching.maxBatch <= 1) return 1;
    if (kind === "fill") return this.delegated ? this.batching.maxBatch : 1;
    if (kind === "redeem" || kind === "refund") return this.multicallReady ? this.batching.maxBatch : 1;
    return 1;
  }

  /**
   * Once at start: checks the code at Multicall3's canonical address (unless it is Multicall3's, every
   * redeem and refund goes alone), with batchFills "eip7702" makes sure the account delegates to the
   * configured BatchExecutor, and grants the HTLC of each of these assets that is a token its unlimited
   * allowance once. Every transaction this needs is sent back to back (one block) before any receipt is
   * awaited; a second call sends nothing.
   */
  async prepare(assets: readonly string[]): Promise<void> {
    const pending: PendingSetup[] = [];
    for (const asset of assets) {
      const approval = await this.sendApproval(asset);
      if (approval !== null) pending.push(approval);
    }
    // Last: its authorization moves the account's nonce on by two, and a node's pool may never release a
    // transaction sent behind it before it is mined.
    const delegation = await this.sendDelegationIfBatching();
    if (delegation !== null) pending.push(delegation);
    const results = await Promise.allSettled(pending.map((confirmed) => confirmed()));
    const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    if (failed[0] !== undefined) throw failed[0];
    if (this.batching.maxBatch > 1 && this.batching.batchFills === "eip7702") this.delegated = true;
  }

  private async sendDelegationIfBatching(): Promise<PendingSetup | null> {
    if (this.batching.maxBatch <= 1) return null;
    this.multicallReady = await this.multicall3.usable();
    if (this.batching.batchFills !== "eip7702") return null;
    const batchExecutor = this.batching.batchExecutor;
    const sent = await sendDelegation({
      chain: this.chain,
      chainId: this.config.chainId,
      client: this.client,
      account: this.account,
      executor: getAddress(batchExecutor),
      nonces: this.nonces,
      fees: () => this.currentFees(),
      broadcast: (tx) => this.broadcast(tx),
      timeoutMs: this.setupReceiptTimeoutMs(),
    });
    if (sent === null) {
      this.log.info({ batchExecutor }, "account delegates to the batch executor");
      return null;
    }
    return async () => {
      await sent.confirmed();
      this.log.info({ batchExecutor, txHash: sent.txHash }, "account delegated to the batch executor");
    };
  }

  private setupReceiptTimeoutMs(): number {
    return Math.max(60_000, this.config.maxBlockTimeMs * 30);
  }

  async build(actions: ActionRequest[]): Promise<SignedTx> {
    const action = actions[0];
    if (action === undefined) throw new Error(`EVM executor on ${this.chain} was given no action to build`);
    for (const other of actions) {
      if (other.kind !== action.kind || other.params.chain !== this.chain) {
        throw new Error(
          `EVM executor on ${this.chain} batches actions of one kind on its own chain, got ${other.kind} on ${other.params.chain}`,
        );
      }
    }
    if (actions.length === 1) return this.buildLone(action);
    const limit = this.maxBatchFor(action.kind);
    if (actions.length > limit) {
      throw new Error(
        `EVM executor on ${this.chain} carries at most ${limit} ${action.kind} action(s) per transaction, got ${actions.length}`,
      );
    }
    return this.buildBatch(action.kind, actions);
  }

  /** One action in its own transaction, a plain call of the HTLC. */
  private async buildLone(action: ActionRequest): Promise<SignedTx> {
    const asset = resolveEvmAsset(this.config, action.params.asset);
    if (action.kind === "fill") await this.checkFill(action, asset);
    const call = htlcCallFor(action, asset);
    const signed = await this.signNew(call, action.kind);
    this.log.info(
      { kind: action.kind, orderId: action.orderId, txHash: signed.txHash, nonce: String(signed.nonce) },
      "signed",
    );
    return signed;
  }

  /**
   * Many actions of one kind in one transaction (batch-call.ts). The batch is simulated first; an action
   * whose call would fail is left out with its reason (a fill whose order is already on chain, as done),
   * and only the rest are signed, with a gas estimate that requires each of them to succeed.
   */
  private async buildBatch(kind: ActionKind, actions: ActionRequest[]): Promise<SignedTx> {
    const route = batchRoute(kind, this.address, this.chain);
    const omitted: OmittedAction[] = [];
    const entries: { index: number; call: EvmCall }[] = [];
    actions.forEach((action, index) => {
      try {
        const asset = resolveEvmAsset(this.config, action.params.asset);
        if (kind === "fill") this.checkFillTerms(action);
        entries.push({ index, call: htlcCallFor(action, asset) });
      } catch (error) {
        omitted.push({
          index,
          reason: error instanceof Error ? error.message : String(error),
          alreadyDone: false,
        });
      }
    });
    // The fees, the nonce, the simulation and the gas of every call are asked side by side: each is a
    // round trip (hundreds of ms on a loaded node), and when every call passes, as it nearly always
    // does, that gas estimate is the one signed with.
    const fees = settledLater(this.currentFees());
    const pending = settledLater(this.nonces.pendingNow());
    const everyCall = entries.map((e) => e.call);
    const gasOfEvery = settledLater(
      entries.length === 0 ? Promise.resolve(0n) : this.estimateBatch(route, everyCall, kind),
    );
    const results = entries.length === 0 ? [] : await this.simulateBatch(route, everyCall);
    const passing = entries.filter((entry, i) => {
      const result = results[i];
      if (result?.success === true) return true;
      omitted.push({ index: entry.index, ...this.callFailure(kind, result) });
      return false;
    });
    if (passing.length === 0) {
      throw new TxWouldRevertError(kind, null, omitted.map((o) => o.reason).join("; "), null);
    }
    const calls = passing.map((e) => e.call);
    const gas =
      passing.length === entries.length ? await gasOfEvery : await this.estimateBatch(route, calls, kind);
    const call: EvmCall = { to: route.to, data: route.data(calls, true), value: 0n };
    const signed = await this.nonces.withNextNonce(
      async (nonce) => this.sign(call, nonce, gas, await fees),
      pending,
    );
    this.log.info(
      {
        kind,
        orderIds: passing.map((e) => actions[e.index]?.orderId),
        left: omitted.length,
        txHash: signed.txHash,
        nonce: String(signed.nonce),
      },
      "signed a batch",
    );
    return omitted.length === 0 ? signed : { ...signed, omitted: omitted.sort((a, b) => a.index - b.index) };
  }

  /** Each call's result when the batch runs on the pending block, every call allowed to fail alone. */
  private async simulateBatch(route: BatchRoute, calls: readonly EvmCall[]): Promise<CallResult[]> {
    try {
      const { data } = await this.client.call({
        account: this.address,
        to: route.to,
        data: route.data(calls, true),
        blockTag: "pending",
      });
      return route.decode(data ?? "0x");
    } catch (error) {
      throw new EvmRpcError(this.chain, "simulation of a batch", nodeMessage(error));
    }
  }

  /** Gas of the batch with every call required to succeed, plus headroom. */
  private async estimateBatch(
    route: BatchRoute,
    calls: readonly EvmCall[],
    kind: ActionKind,
  ): Promise<bigint> {
    try {
      const estimate = await this.client.estimateGas({
        account: this.address,
        to: route.to,
        data: route.data(calls, false),
        blockTag: "pending",
      });
      return (estimate * GAS_HEADROOM_PERCENT) / 100n;
    } catch (error) {
      const decoded = decodeRevert(error, this.revertAbi);
      throw new TxWouldRevertError(
        kind,
        decoded.errorName,
        `batch gas estimate failed: ${decoded.reason}`,
        decoded.data,
      );
    }
  }

  /** Why a call failed in a simulated batch; a fill whose order is already on chain is done, not failed. */
  private callFailure(kind: ActionKind, result: CallResult | undefined): Omit<OmittedAction, "index"> {
    if (result === undefined)
      return { reason: `${kind}: no result for its call in the batch`, alreadyDone: false };
    const decoded = decodeRevertData(result.returnData, this.revertAbi);
    if (kind === "fill" && decoded.errorName === "DuplicateOrder") {
      // The order id commits to the initiator, so an order there is the solver's own fill.
      return { reason: `fill already on chain: ${decoded.reason}`, alreadyDone: true };
    }
    return { reason: `${kind} would revert: ${decoded.reason}`, alreadyDone: false };
  }

  async broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    const raw = with0x(tx.raw);
    const txHash = keccak256(raw);
    if (txHash !== with0x(tx.txHash).toLowerCase()) {
      throw new Error(
        `broadcast on ${this.chain}: txHash ${tx.txHash} is not the hash of the given raw (${txHash})`,
      );
    }
    try {
      await this.client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      const message = nodeMessage(error);
      // "already known", or "nonce too low" because this very transaction was mined: both are success.
      if (isAlreadyKnown(message) || (await this.nodeHasTx(txHash))) {
        this.log.debug({ txHash, message }, "broadcast: node already has the transaction");
        return;
      }
      if (isNonceTooLow(message)) throw new NonceUsedError(this.chain, txHash, message);
      throw new BroadcastError(this.chain, txHash, message, error);
    }
    this.log.info({ txHash }, "broadcast");
  }

  async txStatus(attempt: TxAttemptRef, actions: ActionRequest[]): Promise<TxStatus> {
    const hash = with0x(attempt.txHash);
    const receipt = await this.receiptOf(hash);
    if (receipt !== null) {
      const tip = await this.client.getBlockNumber({ cacheTime: 0 });
      const blockHeight = receipt.blockNumber;
      // A reverted transaction pays its gas too.
      const feePaid = receipt.gasUsed * receipt.effectiveGasPrice;
      if (receipt.status === "success") {
        const failedActions = await this.failedInBatch(attempt, actions, receipt);
        return {
          state: "confirmed",
          blockHeight,
          confirmations: Number(tip - blockHeight + 1n),
          feePaid,
          ...(failedActions.length > 0 ? { failedActions } : {}),
        };
      }
      return { state: "failed", blockHeight, reason: await this.revertReasonOf(receipt), feePaid };
    }
    if (await this.nodeHasTx(hash)) return { state: "pending" };
    // Its nonce taken by another transaction in a final block: these bytes can never be mined. Taken in
    // a block not yet final, a reorganisation could still free it: wait.
    if (attempt.nonce === null) return { state: "unknown" };
    const tip = await this.client.getBlockNumber({ cacheTime: 0 });
    const finalBlock = tip - BigInt(this.config.finalityDepth) + 1n;
    if (finalBlock < 0n) return { state: "unknown" };
    const used = BigInt(
      await this.client.getTransactionCount({ address: this.address, blockNumber: finalBlock }),
    );
    if (attempt.nonce < used) {
      return {
        state: "dead",
        reason: `nonce ${attempt.nonce} is used by another transaction, final at block ${finalBlock}`,
      };
    }
    return { state: "unknown" };
  }

  /**
   * In a mined batch, the actions whose own call failed (no event of their HTLC for their order), each
   * with the reason its call gives when replayed alone on the state after the block. Empty for a lone call,
   * whose receipt status is its action's outcome.
   */
  private async failedInBatch(
    attempt: TxAttemptRef,
    actions: readonly ActionRequest[],
    receipt: TransactionReceipt,
  ): Promise<FailedAction[]> {
    const to = parseTransaction(with0x(attempt.raw)).to;
    const batched =
      to != null && (isAddressEqual(to, MULTICALL3_ADDRESS) || isAddressEqual(to, this.address));
    if (!batched) return [];
    const failed: FailedAction[] = [];
    for (const [index, action] of actions.entries()) {
      const asset = resolveEvmAsset(this.config, action.params.asset);
      const batchedAction = { kind: action.kind, htlc: asset.htlc, swapId: action.params.swapId };
      if (tookEffect(batchedAction, receipt.logs)) continue;
      const call = htlcCallFor(action, asset);
      const replayed = await this.replayRevert(
        { account: this.address, to: call.to, data: call.data, value: call.value, gas: 5_000_000n },
        receipt.blockNumber,
      );
      const reason =
        replayed ?? "no effect, though it succeeds alone after the block (out of gas inside the batch?)";
      failed.push({ index, reason: `its call failed inside batch ${attempt.txHash}: ${reason}` });
    }
    return failed;
  }

  /** The same transaction (same nonce, call and gas) re-signed with fees 25% higher; null at the ceiling. */
  async bump(
    attempt: TxAttemptRef,
    _actions: ActionRequest[],
    allowance?: FeeAllowance,
  ): Promise<SignedTx | null> {
    const previous = this.#replaceable(attempt);
    if (previous.to === undefined || previous.to === null) {
      throw new Error(`attempt ${attempt.id} on ${this.chain} has no recipient`);
    }
    const ceiling = allowanceCeiling(this.config.maxFeePerGasWei, previous.gas, allowance);
    const fees = bumpedFees(previous.fees, await this.freshFeesOrNull(), ceiling);
    if (fees === null) {
      this.log.warn(
        { txHash: attempt.txHash, maxFeePerGas: String(previous.fees.maxFeePerGas) },
        "bump: fee ceiling reached",
      );
      return null;
    }
    if (fees.maxFeePerGas > this.config.maxFeePerGasWei && allowance !== undefined) {
      this.log.warn(
        { txHash: attempt.txHash, maxFeePerGas: String(fees.maxFeePerGas), reason: allowance.reason },
        "bump: paying above the fee ceiling",
      );
    }
    const call: EvmCall = { to: previous.to, data: previous.data ?? "0x", value: previous.value ?? 0n };
    const signed = await this.sign(call, previous.nonce, previous.gas, fees);
    this.log.info(
      { replaces: attempt.txHash, txHash: signed.txHash, maxFeePerGas: String(fees.maxFeePerGas) },
      "bumped",
    );
    return signed;
  }

  /** Nothing to self at the attempt's nonce: whichever of the two is mined, the other never can be. */
  async cancel(attempt: TxAttemptRef): Promise<SignedTx | null> {
    const previous = this.#replaceable(attempt);
    const ceiling = this.config.maxFeePerGasWei * BigInt(CANCEL_FEE_CEILING_FACTOR);
    const fees = bumpedFees(previous.fees, await this.freshFeesOrNull(), ceiling);
    if (fees === null) {
      this.log.warn(
        { txHash: attempt.txHash, maxFeePerGas: String(previous.fees.maxFeePerGas) },
        "cancel: cannot out-pay the transaction within twice the fee ceiling",
      );
      return null;
    }
    const call: EvmCall = { to: this.address, data: "0x", value: 0n };
    const signed = await this.sign(call, previous.nonce, await this.#nothingToSelfGas(), fees);
    this.log.info(
      { cancels: attempt.txHash, txHash: signed.txHash, maxFeePerGas: String(fees.maxFeePerGas) },
      "cancel signed",
    );
    return signed;
  }

  async fillNonceGaps(): Promise<SignedTx[]> {
    const fillers = await this.nonces.withNonceGaps(async (nonce) =>
      this.sign(
        { to: this.address, data: "0x", value: 0n },
        nonce,
        await this.#nothingToSelfGas(),
        await this.currentFees(),
      ),
    );
    if (fillers.length > 0) {
      this.log.warn({ nonces: fillers.map((f) => String(f.nonce)) }, "nonce gaps found; filling them");
    }
    return fillers;
  }

  /**
   * Gas for a transfer of nothing to the solver's own address: 21 000, or what the node estimates when the
   * account runs code (an EIP-7702 delegation's receive), so a cancel never fails for gas. A node that
   * cannot estimate gets the plain figure; even a reverted cancel uses its nonce.
   */
  async #nothingToSelfGas(): Promise<bigint> {
    try {
      const estimate = await this.client.estimateGas({ account: this.address, to: this.address, value: 0n });
      return estimate > TRANSFER_GAS ? (estimate * GAS_HEADROOM_PERCENT) / 100n : TRANSFER_GAS;
    } catch {
      return TRANSFER_GAS;
    }
  }

  #replaceable(attempt: TxAttemptRef): {
    nonce: bigint;
    gas: bigint;
    fees: Eip1559Fees;
    to: Address | null | undefined;
    data: Hex | undefined;
    value: bigint | undefined;
  } {
    const previous = parseTransaction(with0x(attempt.raw));
    if (previous.type !== "eip1559" || previous.nonce === undefined || previous.gas === undefined) {
      throw new Error(
        `attempt ${attempt.id} on ${this.chain} is not an EIP-1559 transaction with nonce and gas`,
      );
    }
    return {
      nonce: BigInt(previous.nonce),
      gas: previous.gas,
      fees: {
        maxFeePerGas: previous.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: previous.maxPriorityFeePerGas ?? 0n,
      },
      to: previous.to,
      data: previous.data,
      value: previous.value,
    };
  }

  networkFees(): Promise<NetworkFeeEstimate> {
    return readEvmNetworkFees(this.client, this.chain, this.config.maxFeePerGasWei);
  }

  /**
   * The solver's balance of an asset once every journaled transaction of this account lands: the balance
   * at the latest block less what attempts not mined by then may still spend (value and gas; tokens an
   * initiate locks). The journal is read before the chain, so an attempt mined in between is counted
   * once: by the chain, since its nonce is then below the block's.
   */
  async balance(asset: string): Promise<bigint> {
    const { token, htlc } = resolveEvmAsset(this.config, asset);
    const live = this.journal.liveAttempts(this.chain);
    const blockNumber = await this.client.getBlockNumber({ cacheTime: 0 });
    const [held, minedNonce] = await Promise.all([
      token === null
        ? this.client.getBalance({ address: this.address, blockNumber })
        : this.client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [this.address],
            blockNumber,
          }),
      this.client.getTransactionCount({ address: this.address, blockNumber }),
    ]);
    const self = this.address;
    const cost =
      token === null
        ? (attempt: Pick<TxAttemptRef, "raw">) => nativeCost(attempt, self)
        : (attempt: Pick<TxAttemptRef, "raw">) => tokenCost(attempt, { htlc, token }, self);
    return held - outstandingCost(live, BigInt(minedNonce), cost);
  }

  /** Sends the approve an asset's HTLC still needs; null when it has its allowance or the asset is native. */
  private async sendApproval(asset: string): Promise<PendingSetup | null> {
    const resolved = resolveEvmAsset(this.config, asset);
    if (resolved.token === null) return null;
    if ((await this.allowanceOf(resolved)) >= UNLIMITED_ALLOWANCE_FLOOR) return null;
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [resolved.htlc, maxUint256],
    });
    const signed = await this.signNew({ to: resolved.token, data, value: 0n }, "approve");
    await this.broadcast(signed);
    return async () => {
      const receipt = await this.client.waitForTransactionReceipt({
        hash: with0x(signed.txHash),
        timeout: this.setupReceiptTimeoutMs(),
      });
      if (receipt.status !== "success") {
        throw new Error(`approve of ${resolved.htlc} for ${asset} reverted in ${signed.txHash}`);
      }
      this.log.info({ asset, htlc: resolved.htlc, txHash: signed.txHash }, "allowance granted");
    };
  }

  /** The solver initiates, and the stated swap id is the one these terms give; returns that id. */
  private checkFillTerms(action: ActionRequest): string {
    const { params } = action;
    if (getAddress(params.initiator) !== this.address) {
      throw new Error(
        `fill of order ${action.orderId}: initiator ${params.initiator} is not the solver (${this.address})`,
      );
    }
    const swapId = this.reader.computeSwapId(params);
    if (swapId !== params.swapId.toLowerCase().replace(/^0x/, "")) {
      throw new Error(
        `fill of order ${action.orderId}: stated swap id ${params.swapId} differs from ${swapId}`,
      );
    }
    return swapId;
  }

  private async checkFill(action: ActionRequest, asset: EvmAsset): Promise<void> {
    const { params } = action;
    const swapId = this.checkFillTerms(action);
    // The chain is the final truth against a double fill, whatever the journal says.
    const [stored, allowance] = await Promise.all([
      this.reader.readOrder(params.asset, swapId),
      this.allowanceOf(asset),
    ]);
    if (stored.initiator !== zeroAddress) throw new OrderAlreadyInitiatedError(swapId, asset.id);
    if (allowance < params.amount) throw new InsufficientAllowanceError(asset.id, allowance, params.amount);
  }

  private allowanceOf(asset: EvmAsset): Promise<bigint> {
    if (asset.token === null) return Promise.resolve(maxUint256);
    return this.client.readContract({
      address: asset.token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [this.address, asset.htlc],
    });
  }

  /** Simulates, then signs under the next nonce; the fees and the nonce are read while it simulates. */
  private async signNew(call: EvmCall, label: EvmTxLabel): Promise<SignedTx> {
    const fees = settledLater(this.currentFees());
    const pending = settledLater(this.nonces.pendingNow());
    const gas = await this.simulate(call, label);
    return this.nonces.withNextNonce(async (nonce) => this.sign(call, nonce, gas, await fees), pending);
  }

  /**
   * eth_call and eth_estimateGas on the pending block, the first block the transaction can land in
   * (a refund is valid from `initiatedAt + timelock + 1` on), asked side by side; a revert is read from
   * the call's answer. A revert becomes TxWouldRevertError, never a signed transaction.
   */
  private async simulate(call: EvmCall, label: EvmTxLabel): Promise<bigint> {
    try {
      const estimated = settledLater(
        this.client.estimateGas({ account: this.address, ...call, blockTag: "pending" }),
      );
      await this.client.call({ account: this.address, ...call, blockTag: "pending" });
      const estimate = await estimated;
      return (estimate * GAS_HEADROOM_PERCENT) / 100n;
    } catch (error) {
      const message = nodeMessage(error);
      if (revertDataOf(error) === null && !/revert/i.test(message)) {
        throw new EvmRpcError(this.chain, `simulation of ${label}`, message);
      }
      const decoded = decodeRevert(error, this.revertAbi);
      throw new TxWouldRevertError(label, decoded.errorName, decoded.reason, decoded.data);
    }
  }

  private async currentFees(): Promise<Eip1559Fees> {
    const [block, priority] = await Promise.all([
      this.client.getBlock({ blockTag: "latest" }),
      this.client.estimateMaxPriorityFeePerGas(),
    ]);
    if (block.baseFeePerGas === null)
      throw new Error(`chain ${this.chain} reports no base fee (pre-London?)`);
    return initialFees(this.chain, block.baseFeePerGas, priority, this.config.maxFeePerGasWei);
  }

  private async freshFeesOrNull(): Promise<Eip1559Fees | null> {
    try {
      return await this.currentFees();
    } catch (error) {
      this.log.warn({ err: nodeMessage(error) }, "bump: no fresh fee terms, bumping from the previous ones");
      return null;
    }
  }

  private async sign(call: EvmCall, nonce: bigint, gas: bigint, fees: Eip1559Fees): Promise<SignedTx> {
    const raw = await this.account.signTransaction({
      type: "eip1559",
      chainId: this.config.chainId,
      nonce: Number(nonce),
      to: call.to,
      data: call.data,
      value: call.value,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return {
      chain: this.chain,
      txHash: keccak256(raw),
      raw,
      nonce,
      terms: {
        family: "evm",
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        gas,
      },
    };
  }

  private async receiptOf(hash: Hex): Promise<TransactionReceipt | null> {
    try {
      return await this.client.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  private async nodeHasTx(hash: Hex): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash });
      return true;
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false;
      throw error;
    }
  }

  /**
   * Replays a reverted transaction to recover why: first on the state before its block; when an
   * earlier transaction of the same block caused the revert, on the state after it.
   */
  private async revertReasonOf(receipt: TransactionReceipt): Promise<string> {
    const tx = await this.client.getTransaction({ hash: receipt.transactionHash });
    if (receipt.gasUsed >= tx.gas) return `out of gas (used ${receipt.gasUsed} of ${tx.gas})`;
    if (tx.to === null) return "reverted";
    const call = { account: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas };
    const before = await this.replayRevert(call, receipt.blockNumber - 1n);
    if (before !== null) return `reverted: ${before}`;
    const after = await this.replayRevert(call, receipt.blockNumber);
    if (after !== null) return `reverted: ${after} (replayed on the state after its block)`;
    return "reverted (the reason could not be recovered by replay)";
  }

  private async replayRevert(
    call: { account: Address; to: Address; data: Hex; value: bigint; gas: bigint },
    blockNumber: bigint,
  ): Promise<string | null> {
    try {
      await this.client.call({ ...call, blockNumber });
      return null;
    } catch (error) {
      return decodeRevert(error, this.revertAbi).reason;
    }
  }
}
