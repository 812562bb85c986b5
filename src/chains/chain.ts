/**
 * The chain seam: every chain family implements a reader (what the chain says about an HTLC) and an
 * executor (build and sign, broadcast, follow, bump). The runner owns the order of operations, so that
 * "journal first, broadcast second" holds for every family alike.
 */

export type ChainFamily = "evm" | "bitcoin" | "solana" | "starknet" | "sui";

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

/** What the chain itself says about one HTLC. */
export interface HtlcState {
  /** Funds are locked under these parameters (possibly not yet confirmed). */
  initiated: boolean;
  /** Value locked so far (Bitcoin: sum of every funding output). */
  fundedAmount: bigint;
  /** Parameters read back from the chain where the chain stores them; null otherwise. */
  onChain: {
    initiator: string;
    redeemer: string;
    timelock: bigint;
    amount: bigint;
  } | null;
  /** Height of the (first) initiating transaction; null until mined. */
  initiatedAtHeight: bigint | null;
  /** Confirmations of the initiating transaction per `tip - height + 1`; 0 when unmined. */
  confirmations: number;
  /** First height at which a refund is accepted; null until initiated. */
  refundableAtHeight: bigint | null;
  redeemed: boolean;
  refunded: boolean;
  /** The revealed secret, hex, once a redeem is seen on this chain. */
  secret: string | null;
}

/** What a reader reports for an HTLC the chain has never seen. */
export function absentHtlc(): HtlcState {
  return {
    initiated: false,
    fundedAmount: 0n,
    onChain: null,
    initiatedAtHeight: null,
    confirmations: 0,
    refundableAtHeight: null,
    redeemed: false,
    refunded: false,
    secret: null,
  };
}

export interface ChainReader {
  readonly chain: string;
  readonly family: ChainFamily;
  /** Current height of the chain (blocks; slots on Solana). */
  tipHeight(): Promise<bigint>;
  /** The swap id the deployed contracts or scripts give these parameters. */
  computeSwapId(params: HtlcParams): string;
  /**
   * The HTLC at the stated `params.swapId` as the chain shows it. The planner compares the chain's
   * fields with the order's and checks `computeSwapId` separately, so each disagreement gets its name.
   */
  readHtlc(params: HtlcParams): Promise<HtlcState>;
}

/** A transaction signed by an executor, persisted by the journal before it is broadcast. */
export interface SignedTx {
  chain: string;
  txHash: string;
  /** Serialized signed transaction, hex. Re-broadcast after a crash, never re-built. */
  raw: string;
  /** Account nonce where the family has one. */
  nonce: bigint | null;
  /** Family-specific fee terms (maxFeePerGas, feeRate, ...) as decimal strings. */
  fee: Record<string, string>;
  /** Outputs of the solver's wallet this transaction spends (`txid:vout`), on UTXO chains. */
  spends: string[];
}

export interface TxAttemptRef {
  id: number;
  chain: string;
  txHash: string;
  raw: string;
  nonce: bigint | null;
  fee: Record<string, string>;
  createdAtMs: number;
}

export type TxStatus =
  | { state: "pending" }
  /** `feePaid`: what the mined transaction cost, in the smallest unit of the chain's coin, when known. */
  | { state: "confirmed"; blockHeight: bigint; confirmations: number; feePaid?: bigint }
  | { state: "failed"; blockHeight: bigint; reason: string; feePaid?: bigint }
  | { state: "unknown" };

export interface ActionRequest {
  kind: ActionKind;
  orderId: string;
  params: HtlcParams;
  /** Hex secret, for redeem. */
  secret?: string;
  /** Where an instant refund pays the user back (Bitcoin: the source owner's address). */
  refundAddress?: string;
  /**
   * Wall-clock time (ms) after which this transaction may come too late (a source redeem racing the
   * source's refund), estimated at the chain's fastest block rate. Fees escalate as it nears.
   */
  mustConfirmByMs?: number;
}

export interface ChainExecutor {
  readonly chain: string;
  /** Actions one transaction may carry (Bitcoin redeems batch; most families take 1). */
  readonly maxBatch: number;
  /** Builds and signs one transaction carrying these actions. Must not broadcast. */
  build(actions: ActionRequest[]): Promise<SignedTx>;
  /** Sends a signed transaction; a node that already knows it counts as success. */
  broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void>;
  txStatus(attempt: TxAttemptRef): Promise<TxStatus>;
  /**
   * A replacement that pays more, for an attempt pending too long; null when the family cannot
   * replace it or the fee ceiling is reached.
   */
  bump(attempt: TxAttemptRef, actions: ActionRequest[]): Promise<SignedTx | null>;
  /** The solver's spendable balance of an asset id on this chain, smallest units. */
  balance(asset: string): Promise<bigint>;
}

export interface ChainFamilyModule {
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

/**
 * What an executor may read from the journal: its own chain's attempts that are not final yet
 * (signed, broadcast or replaced). EVM derives the next nonce from them; Bitcoin derives the outputs it
 * must not spend again and the change it may spend.
 */
export interface JournalView {
  liveAttempts(chain: string): TxAttemptRef[];
}
