/**
 * An in-memory chain for the runner's unit tests: HTLC states set by the test, transactions built and
 * broadcast into lists, and a balance that, like the real executors', leaves out what live journaled
 * attempts spend.
 */
import {
  absentHtlc,
  type ActionRequest,
  type ChainExecutor,
  type FeeAllowance,
  type ChainReader,
  type HtlcParams,
  type HtlcReadOptions,
  type HtlcState,
  type JournalView,
  type NetworkFeeEstimate,
  type SignedTx,
  type TxAttemptRef,
  type TxStatus,
} from "../../../src/chains/chain.js";
import { AlreadyOnChainError } from "../../../src/chains/seam-errors.js";
import type { SolverChain } from "../../../src/solver/solver-chain.js";
import { moment } from "../../../src/util/moment.js";
import type { ChainConfig, ChainFamily } from "../../../src/chains/registry.js";
import type { SecretLengthRule } from "../../../src/chains/secret-length.js";

export class FakeChain implements ChainReader, ChainExecutor {
  /** The asset fees are paid in; a test sets it where fees matter. */
  feeAsset: string | null = null;
  /** Actions per transaction; a test may raise it to see how fills are batched. */
  maxBatch: number;
  readonly offersInstantRefund: boolean;
  readonly instantRefundDelivery: "service" | "broadcast";
  readonly secretLength: SecretLengthRule;
  readonly userKeyIsDelegate: boolean;
  tip = 105n;
  /** HTLC states by swap id; absent ones read as never seen. */
  readonly htlcs = new Map<string, HtlcState>();
  /** Every transaction built, by the actions it carries. */
  readonly built: ActionRequest[][] = [];
  readonly broadcasts: string[] = [];
  /** What the account holds on chain, per asset. */
  readonly held = new Map<string, bigint>();
  /** Amount each built transaction takes from the account, per asset, by tx hash. */
  readonly #costs = new Map<string, { asset: string; amount: bigint }>();
  /** Set to make the next build fail with this error. */
  failNextBuild: Error | null = null;
  statusOf: (attempt: TxAttemptRef) => TxStatus = () => ({ state: "pending" });
  /** Broadcasts fail with the error this returns for their hash, until it returns null. */
  failBroadcast: (txHash: string) => Error | null = () => null;
  /** Replacements offered by `bump`, by the attempt they replace; none when absent. */
  bumpWith: (attempt: TxAttemptRef) => SignedTx | null = () => null;
  /** Cancels offered by `cancel`, by the attempt they take the place of; none when absent. */
  cancelWith: (attempt: TxAttemptRef) => SignedTx | null = () => null;
  /** The fee allowance each `bump` was given. */
  readonly allowances: (FeeAllowance | undefined)[] = [];
  /** The fee allowance each `build` was given, by the actions it carries. */
  readonly buildAllowances: (FeeAllowance | undefined)[] = [];
  /** Reads of these swap ids take this long, ms. */
  readonly slowReads = new Map<string, number>();
  /** What `networkFees` answers; a test sets it where network fees matter. */
  fees: NetworkFeeEstimate = {
    fill: { perTransaction: 0n, perAction: 0n },
    redeem: { perTransaction: 0n, perAction: 0n },
    refund: { perTransaction: 0n, perAction: 0n },
  };
  /** Builds take this long, so that a test can hold a pass between claiming and signing. */
  buildDelayMs = 0;
  /** Swap ids whose HTLC changed, by block, for the chain watch; every range asked for is noted. */
  readonly htlcEvents = new Map<bigint, string[]>();
  readonly eventRanges: [bigint, bigint][] = [];
  failEvents = false;
  /** A chain that cannot tell which HTLCs changed (Bitcoin over Esplora): every waiting order is woken. */
  eventsUnknown = false;

  constructor(
    readonly chain: string,
    readonly family: ChainFamily,
    private readonly journal: () => JournalView,
  ) {
    this.maxBatch = family === "bitcoin" ? 50 : 1;
    // Bitcoin hands its half of an instant refund to the service; Solana's redeemer signs and sends it.
    this.offersInstantRefund = family === "bitcoin" || family === "solana";
    this.instantRefundDelivery = family === "solana" ? "broadcast" : "service";
    this.secretLength = family === "bitcoin" ? null : 32;
    this.userKeyIsDelegate = family === "bitcoin";
  }

  changedSwapIds(from: bigint, to: bigint): Promise<string[] | null> {
    if (this.failEvents) return Promise.reject(new Error("logs unavailable"));
    if (this.eventsUnknown) return Promise.resolve(null);
    this.eventRanges.push([from, to]);
    const ids: string[] = [];
    for (let height = from; height <= to; height++) ids.push(...(this.htlcEvents.get(height) ?? []));
    return Promise.resolve(ids);
  }

  /** Calls made of the reader, in order: "tip", "read:<swap id>", "expect:<swap ids>". */
  readonly readerCalls: string[] = [];

  /** Each tip read's answer and when it was given (`moment()`), in order. */
  readonly tipsAnswered: { height: bigint; at: number }[] = [];

  tipHeight(): Promise<bigint> {
    this.readerCalls.push("tip");
    this.tipsAnswered.push({ height: this.tip, at: moment() });
    return Promise.resolve(this.tip);
  }

  expectReads(params: readonly HtlcParams[]): void {
    this.readerCalls.push(`expect:${params.map((p) => p.swapId).join(",")}`);
  }

  computeSwapId(params: HtlcParams): string {
    return params.swapId;
  }

  /** Swap ids read where the reader's latest view would do (HtlcReadOptions.latestView). */
  readonly latestViewReads: string[] = [];
  /** The locks each HTLC read named as known (HtlcReadOptions.ownTxids, lockIds), in order. */
  readonly knownLocksNamed: { swapId: string; ownTxids: readonly string[]; lockIds: readonly string[] }[] =
    [];
  /** Each HTLC read with the `viewAfter` it allowed, in order. */
  readonly viewsAllowed: { swapId: string; viewAfter: number | undefined; askedAt: number }[] = [];

  async readHtlc(params: HtlcParams, options: HtlcReadOptions = {}): Promise<HtlcState> {
    this.readerCalls.push(`read:${params.swapId}`);
    if (options.latestView === true) this.latestViewReads.push(params.swapId);
    this.viewsAllowed.push({ swapId: params.swapId, viewAfter: options.viewAfter, askedAt: moment() });
    this.knownLocksNamed.push({
      swapId: params.swapId,
      ownTxids: options.ownTxids ?? [],
      lockIds: options.lockIds ?? [],
    });
    // A slow read answers with the chain as it was when asked, as a lagging node's answer does.
    const state = this.htlcs.get(params.swapId) ?? absentHtlc();
    const delayMs = this.slowReads.get(params.swapId) ?? 0;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return state;
  }

  async build(actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx> {
    this.buildAllowances.push(allowance);
    if (this.buildDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.buildDelayMs));
    return this.buildNow(actions);
  }

  private buildNow(actions: ActionRequest[]): Promise<SignedTx> {
    const error = this.failNextBuild;
    if (error !== null) {
      this.failNextBuild = null;
      return Promise.reject(error);
    }
    this.built.push(actions);
    const txHash = `${this.chain}-tx-${this.built.length}`;
    for (const action of actions) {
      if (action.kind === "fill")
        this.#costs.set(txHash, { asset: action.params.asset, amount: action.params.amount });
    }
    return Promise.resolve({
      chain: this.chain,
      txHash,
      raw: `raw-${txHash}`,
      nonce: null,
      terms: { family: "evm", maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gas: 21_000n },
    });
  }

  broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    const error = this.failBroadcast(tx.txHash);
    if (error !== null) return Promise.reject(error);
    this.broadcasts.push(tx.txHash);
    return Promise.resolve();
  }

  txStatus(attempt: TxAttemptRef): Promise<TxStatus> {
    return Promise.resolve(this.statusOf(attempt));
  }

  bump(attempt: TxAttemptRef, _actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx | null> {
    this.allowances.push(allowance);
    return Promise.resolve(this.bumpWith(attempt));
  }

  /** Fillers for nonce gaps, and how often they were asked for. */
  gapFillers: SignedTx[] = [];
  gapChecks = 0;
  fillNonceGaps(): Promise<SignedTx[]> {
    this.gapChecks += 1;
    return Promise.resolve(this.gapFillers.splice(0));
  }

  cancel(attempt: TxAttemptRef): Promise<SignedTx | null> {
    return Promise.resolve(this.cancelWith(attempt));
  }

  networkFees(): Promise<NetworkFeeEstimate> {
    return Promise.resolve(this.fees);
  }

  balance(asset: string): Promise<bigint> {
    let outstanding = 0n;
    for (const attempt of this.journal().liveAttempts(this.chain)) {
      const cost = this.#costs.get(attempt.txHash);
      if (cost?.asset === asset) outstanding += cost.amount;
    }
    return Promise.resolve((this.held.get(asset) ?? 0n) - outstanding);
  }

  /** The chain as the runner's registry holds it. */
  solverChain(
    party: string,
    assets: { symbol: string; tokenAddress: string; decimals: number }[],
  ): SolverChain {
    const config = {
      family: this.family,
      name: this.chain,
      minBlockTimeMs: 1_000,
      maxBlockTimeMs: 2_000,
      minConfirmations: 1,
      finalityDepth: 3,
      fillTimelockBlocks: 1_000,
      bumpAfterMs: 60_000,
      assets: assets.map((a) => ({
        id: `${this.chain}:${a.symbol}`,
        chain: this.chain,
        symbol: a.symbol,
        decimals: a.decimals,
        tokenAddress: a.tokenAddress,
        htlcAddress: "",
      })),
    } as unknown as ChainConfig;
    return { config, reader: this, executor: this, party };
  }
}

/** What a family throws when the chain already shows the action (an order already initiated). */
export class ChainShowsItError extends AlreadyOnChainError {}
