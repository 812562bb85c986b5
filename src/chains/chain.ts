/**
 * The chain seam: every chain family implements a reader (what the chain says about an HTLC) and an
 * executor (build and sign, broadcast, follow, bump). The runner owns the order of operations, so that
 * "journal first, broadcast second" holds for every family alike.
 */
import type { ChainFamily, TxTerms } from "./registry.js";
import type { SecretLengthRule } from "./secret-length.js";

export type ActionKind = "fill" | "redeem" | "refund" | "instant_refund";

/** One side of an order, normalised across families. Hex values carry no 0x prefix. */
export interface HtlcParams {
  chain: string;
  /** Asset id `<chain>:<asset>`; the family resolves contract and token from its own config. */
  asset: string;
  /** The id the service states (EVM order id, Bitcoin HTLC address, ...). */
  swapId: string;
  /** Address or key of the party that locks (and may refund). Bitcoin: x-only key hex. */
  initiator: string;
  /** Address or key of the party that may redeem. Bitcoin: x-only key hex. */
  redeemer: string;
  /** sha256 of the secret, hex. */
  secretHash: string;
  /** Relative lock in the chain's unit (blocks, slots, milliseconds on Sui). */
  timelock: bigint;
  amount: bigint;
}

/** How a lock left the HTLC. `unknown`: spent through no leaf or function the solver recognises. */
export type LockSpendKind = "redeem" | "refund" | "instant_refund" | "unknown";

export interface LockSpend {
  kind: LockSpendKind;
  /** Spending transaction where the chain names it. */
  txid: string | null;
  /** null while the spend is only in the mempool. */
  height: bigint | null;
}

/**
 * One independently spendable lock of an HTLC. On Bitcoin every output paying the HTLC address is one
 * (anyone can add outputs, of any value, at any time, confirmed or not); on account chains the single
 * stored order is the only one. Every rule about value, depth, spends and refund heights is asked of
 * locks one by one, so an extra output cannot lend its depth, its spend or its lock time to another.
 */
export interface HtlcLock {
  /** `txid:vout` on Bitcoin; the swap id on account chains. */
  id: string;
  /**
   * Transaction that created the lock, where the chain tells (Bitcoin; Solana, whose swap address does
   * not commit to who paid, so the solver's fill is told from a user's by its journaled transaction);
   * `UNATTRIBUTED` when the reader knows the lock is not the solver's but not which transaction made it.
   * null on chains whose one record at a swap id can only have been created with the parameters that id
   * commits to, initiator included (EVM).
   */
  fundingTx: string | null;
  value: bigint;
  /** Height of the block that created it; null while unmined. */
  height: bigint | null;
  /** First block height at which a refund of this lock can be mined; null while unmined. */
  refundableAtHeight: bigint | null;
  /**
   * Worth spending: its value exceeds what spending it costs at the chain's highest configured fee rate.
   * Locks that are not count for nothing and are never spent (a deposit split into dust would otherwise
   * cost the solver more to redeem than it is worth).
   */
  worthSpending: boolean;
  spend: LockSpend | null;
}

/** `HtlcLock.fundingTx` of a lock the reader knows is none of the solver's, without naming its maker. */
export const UNATTRIBUTED = "unattributed";

/** What the chain itself says about one HTLC. */
export interface HtlcState {
  /** Every lock seen, mined or not, spent or not. Empty when the chain has never seen the HTLC. */
  locks: HtlcLock[];
  /** Parameters read back from the chain where the chain stores them (account chains); null otherwise. */
  onChain: {
    initiator: string;
    redeemer: string;
    timelock: bigint;
    amount: bigint;
  } | null;
  /** The revealed secret, hex, once a redeem of any lock is seen on this chain. */
  secret: string | null;
  /**
   * No new lock can be made at this swap id now: a record lives there (account chains; EVM keeps one
   * for good, Solana while its account is open). Absent: false.
   */
  occupied?: boolean;
}

/** What a reader reports for an HTLC the chain has never seen. */
export function absentHtlc(): HtlcState {
  return { locks: [], onChain: null, secret: null };
}

export interface ChainReader {
  readonly chain: string;
  readonly family: ChainFamily;
  /**
   * The secret lengths a redeem here accepts (src/chains/secret-length.ts): null when any preimage of the
   * hash redeems (Bitcoin's leaf checks only the hash).
   */
  readonly secretLength: SecretLengthRule;
  /**
   * The user's party in an HTLC here is the swap's `delegate` (Bitcoin: the scripts hold x-only keys,
   * not the addresses the API shows), not its initiator or redeemer address.
   */
  readonly userKeyIsDelegate: boolean;
  /** Current height of the chain (blocks; slots on Solana). */
  tipHeight(): Promise<bigint>;
  /** The swap id the deployed contracts or scripts give these parameters. */
  computeSwapId(params: HtlcParams): string;
  /**
   * The HTLC at the stated `params.swapId` as the chain shows it. The planner compares the chain's
   * fields with the order's and checks `computeSwapId` separately, so each disagreement gets its name.
   */
  readHtlc(params: HtlcParams, options?: HtlcReadOptions): Promise<HtlcState>;
  /**
   * The HTLCs a round is about to read, announced together first: a family that indexes by address
   * (Bitcoin on a node) then searches past blocks for all of them in one pass, not one pass per wave.
   */
  expectReads?(params: readonly HtlcParams[]): void;
  /**
   * Swap ids (as `computeSwapId` gives them) whose HTLC was locked, redeemed or refunded in blocks
   * `from`..`to`, read in one request; null when the reader cannot tell for that range. Where a family
   * has it, the solver acts on the block such an event lands in rather than at its next full round.
   */
  changedSwapIds?(from: bigint, to: bigint): Promise<string[] | null>;
}

export interface HtlcReadOptions {
  /**
   * The reader's latest view will do, though it may be one sync of its index behind the chain (Bitcoin
   * on a node): asked only where a stale answer cannot move money, the destination of an order nothing
   * was ever signed for (no answer there can show a fill of ours; the journal's claim keeps a first fill
   * from going twice, and a fill tried again reads the chain fresh before it is built). A family that
   * reads the chain at each call ignores it.
   */
  latestView?: boolean;
  /**
   * A view of the chain whose reads all began after this moment (`moment()`) will do, whatever else
   * asked for it: the answer is then no older than what the caller read before this moment (a tip it
   * counts confirmations against), as a read made now would be.
   */
  viewAfter?: number;
  /**
   * Transactions the solver journaled that may have made a lock here (its fill of this HTLC). A family
   * whose swap address does not commit to who funded it (Solana) tells the solver's lock from any other
   * by these, and follows that lock from its own transaction forward to learn how it closed.
   */
  ownTxids?: readonly string[];
  /**
   * Locks here (`HtlcLock.id`) the solver relies on besides its own (the source deposits its fill was
   * judged on). Anyone can flood an address past what a reader will read of it; a reader that cannot read
   * the whole address still reads these and the locks of `ownTxids`, and follows each to its spend, so
   * that a flood cannot hide a redeem or a lock the solver must spend.
   */
  lockIds?: readonly string[];
}

/**
 * An action a batch was asked to carry and does not: the executor found, simulating the batch, that its
 * call would fail (or that the chain already shows its effect). It fails alone; the rest are signed.
 */
export interface OmittedAction {
  /** Position in the actions given to `build`. */
  index: number;
  reason: string;
  /** The chain already shows the action's effect (a fill already there): done, nothing to send. */
  alreadyDone: boolean;
}

/** A transaction signed by an executor, persisted by the journal before it is broadcast. */
export interface SignedTx {
  chain: string;
  txHash: string;
  /** Serialized signed transaction, hex. Re-broadcast until provably dead, never re-built before. */
  raw: string;
  /** Account nonce where the family has one. */
  nonce: bigint | null;
  terms: TxTerms;
  /** Actions given to `build` that this transaction does not carry; absent when it carries them all. */
  omitted?: OmittedAction[];
}

export interface TxAttemptRef {
  id: number;
  chain: string;
  txHash: string;
  raw: string;
  nonce: bigint | null;
  terms: TxTerms;
  createdAtMs: number;
}

export type TxStatus =
  | { state: "pending" }
  /** Can never be mined: an input is spent by another transaction, or its nonce by another. */
  | { state: "dead"; reason: string }
  /**
   * `feePaid`: what the mined transaction cost, in the smallest unit of the chain's coin, when known.
   * `failedActions`: in a mined batch whose calls fail alone, the actions (by position in the `actions`
   * given to `txStatus`) whose own call failed; every other action of the attempt is done.
   */
  | {
      state: "confirmed";
      blockHeight: bigint;
      confirmations: number;
      feePaid?: bigint;
      failedActions?: FailedAction[];
    }
  | { state: "failed"; blockHeight: bigint; reason: string; feePaid?: bigint }
  | { state: "unknown" };

/** An action whose own call failed inside a mined batch. */
export interface FailedAction {
  index: number;
  reason: string;
}

export interface ActionRequest {
  kind: ActionKind;
  orderId: string;
  params: HtlcParams;
  /** Hex secret, for redeem. */
  secret?: string;
  /** Where an instant refund pays the user back (Bitcoin: the source owner's address). */
  refundAddress?: string;
  /**
   * Locks (`HtlcLock.id`) a redeem, refund or instant refund spends, chosen by the planner. The executor
   * spends those of them that are still unspent (and, for redeems and refunds, mined), never others.
   */
  locks?: string[];
  /**
   * Wall-clock time (ms) after which this transaction may come too late (a source redeem racing the
   * source's refund), estimated at the chain's fastest block rate. Fees escalate as it nears.
   */
  mustConfirmByMs?: number;
}

/** How many actions of `kind` one transaction of this executor may carry; at least 1. */
export function batchLimit(
  executor: Pick<ChainExecutor, "maxBatch" | "maxBatchFor"> | undefined,
  kind: ActionKind,
): number {
  if (executor === undefined) return 1;
  return Math.max(1, executor.maxBatchFor?.(kind) ?? executor.maxBatch);
}

/** A cancel may pay up to this many times the chain's fee ceiling: it stops a fill that is no longer safe. */
export const CANCEL_FEE_CEILING_FACTOR = 2;

/** What one transaction may pay in fees when the configured ceiling is not enough (an urgent redeem). */
export interface FeeAllowance {
  /** Total fee, smallest unit of the chain's coin; above the ceiling only up to this. */
  maxFee: bigint;
  /** Why the ceiling may be passed, for the log. */
  reason: string;
}

/**
 * What one transaction of an action kind costs on a chain at the fees of now, in the smallest unit of
 * the chain's coin, split so that batching can be discounted: a transaction carrying `n` actions of the
 * kind costs `perTransaction + n × perAction`.
 */
export interface ActionFeeEstimate {
  /** Paid once whatever the transaction carries (EVM: intrinsic gas; Bitcoin: version, outputs). */
  perTransaction: bigint;
  /** Added by each action carried (the HTLC call, input or output), with any rent never got back. */
  perAction: bigint;
}

/** The fees of the actions pricing charges for, as the chain's family reads them now. */
export type NetworkFeeEstimate = Record<"fill" | "redeem" | "refund", ActionFeeEstimate>;

export interface ChainExecutor {
  readonly chain: string;
  /**
   * The configured asset this chain's fees are paid in (its own coin), so that an amount of it is an
   * amount of fees; null when the configuration lists none. Each family knows its coin by its own rule.
   */
  readonly feeAsset: string | null;
  /** Actions one transaction may carry (Bitcoin redeems batch; most families take 1). */
  readonly maxBatch: number;
  /** Actions of one kind one transaction may carry, where that depends on the kind (EVM fills). */
  maxBatchFor?(kind: ActionKind): number;
  /**
   * The family can pre-sign the redeemer's half of an instant refund (`instant_refund` action), so a
   * source the solver declines for good goes back to the user at once instead of after its timelock.
   */
  readonly offersInstantRefund: boolean;
  /**
   * Where a signed instant refund goes. `service`: it is only the redeemer's half (Bitcoin's two-key
   * leaf), handed to the service, which adds the initiator's signature and publishes it. `broadcast`:
   * the redeemer's signature alone makes it valid (Solana's instant_refund), so the solver sends and
   * follows it like any transaction. Absent: `service`.
   */
  readonly instantRefundDelivery?: "service" | "broadcast";
  /**
   * Builds and signs one transaction carrying these actions. Must not broadcast. `allowance`: what it may
   * pay above the fee ceiling (an urgent source redeem). A family that replaces a stuck transaction
   * (EVM, Bitcoin) builds within the ceiling and spends an allowance on the replacements (`bump`); one
   * that cannot (Solana) spends it here, when it builds an action again after its attempt expired.
   */
  build(actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx>;
  /** Sends a signed transaction; a node that already knows it counts as success. */
  broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void>;
  /**
   * Where an attempt stands. `actions` are the journaled actions it carries: a family may need them to
   * tell a transaction that can never be mined (`dead`) from one the node merely forgot (`unknown`).
   */
  txStatus(attempt: TxAttemptRef, actions: ActionRequest[]): Promise<TxStatus>;
  /**
   * A replacement that pays more, for an attempt pending too long; null when the family cannot
   * replace it or the fee ceiling is reached.
   */
  bump(attempt: TxAttemptRef, actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx | null>;
  /**
   * A transaction that takes the attempt's place and moves nothing (EVM: the same nonce, nothing sent;
   * Bitcoin: the same wallet inputs back to the wallet), paying enough to replace it, up to twice the fee
   * ceiling. Null when the family cannot cancel it or even that cannot out-pay it.
   */
  cancel(attempt: TxAttemptRef): Promise<SignedTx | null>;
  /**
   * Account families: transactions moving nothing for the nonces below the journal's live ones that
   * nothing holds (a transaction dropped for good leaves a hole every later one waits behind). Absent
   * where transactions are not ordered by nonce.
   */
  fillNonceGaps?(): Promise<SignedTx[]>;
  /**
   * What a fill, a redeem and a refund cost here at the fees of now (the family's live fee reads times
   * the size its transactions take). Read in the background by pricing, never while a quote waits; a
   * rejection leaves quotes on this chain refused until a read succeeds.
   */
  networkFees(): Promise<NetworkFeeEstimate>;
  /**
   * The solver's balance of an asset id on this chain, smallest units, as it will be once every live
   * journaled attempt lands: what they spend is already taken off. Read the journal before the chain.
   */
  balance(asset: string): Promise<bigint>;
  /** Present where the family can pay out of the solver's wallet by the operator's command. */
  readonly transfers?: OperatorTransfers;
  /** Present where the family's tokens have allowances. */
  readonly tokenAllowances?: TokenAllowances;
}

/** A payment the operator asks for: `amount` (smallest units) of a configured asset to an address of the chain. */
export interface Transfer {
  asset: string;
  amount: bigint;
  to: string;
}

/** A signed operator transaction and the most it can cost in fees, smallest units of the chain's coin. */
export interface SignedOperatorTx {
  signed: SignedTx;
  maxFee: bigint;
}

/**
 * What the operator's commands ask of a chain's executor besides the runner's actions. Each signs and
 * never sends: the caller journals the transaction first, as for every action.
 */
export interface OperatorTransfers {
  /** The problem with `to` as a recipient on this chain (not an address of it), or null. */
  addressProblem(to: string): string | null;
  /** Signs a plain payment from the solver's wallet. */
  buildTransfer(transfer: Transfer): Promise<SignedOperatorTx>;
}

/** Token allowances of the solver's account to the HTLC contracts (families whose tokens have them: EVM). */
export interface TokenAllowances {
  /** The spender (the asset's HTLC) and its allowance now; null for an asset that needs none (a coin). */
  allowance(asset: string): Promise<{ spender: string; allowance: bigint } | null>;
  /** Signs an approve of exactly `amount` (0 revokes) to the asset's HTLC. */
  buildApproval(asset: string, amount: bigint): Promise<SignedOperatorTx>;
}

/** The signed instant refund is handed to the service rather than broadcast (see `instantRefundDelivery`). */
export function handsInstantRefundToService(executor: Pick<ChainExecutor, "instantRefundDelivery">): boolean {
  return (executor.instantRefundDelivery ?? "service") === "service";
}

/** The reader and executor of one chain, as a family builds them. */
export interface ChainHandles {
  reader: ChainReader;
  executor: ChainExecutor;
}

/** Status of a journaled transaction attempt. `replaced` attempts may still confirm instead of their successor. */
export type AttemptState =
  | "signed"
  | "broadcast"
  | "replaced"
  | "confirmed"
  | "failed"
  | "dropped"
  /** Handed to another party to complete and broadcast (the solver's half of a Bitcoin instant refund). */
  | "delivered";

/** A transaction the journal holds, whatever became of it. */
export interface JournaledTx {
  raw: string;
  state: AttemptState;
  /** The actions it carried; a cancel's are those of the fill whose place it took. */
  actions: ActionRequest[];
}

/**
 * What an executor may read from the journal: its own chain's attempts that are not final yet
 * (signed, broadcast or replaced). EVM derives the next nonce from them; Bitcoin derives the outputs it
 * must not spend again and the change it may spend.
 */
export interface JournalView {
  liveAttempts(chain: string): TxAttemptRef[];
  /** Hashes of every transaction ever journaled for this action of this order, whatever became of it. */
  actionTxids(orderId: string, kind: ActionKind): string[];
  /**
   * The attempt journaled on this chain with this hash, live or ended; null when none was. Bitcoin
   * follows a live attempt's unconfirmed inputs back to the transactions meant to create them, which may
   * have ended since.
   */
  journaledTx(chain: string, txHash: string): JournaledTx | null;
}
