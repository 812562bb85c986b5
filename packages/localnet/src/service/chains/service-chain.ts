/**
 * The seam between the service and a chain family. The service core (orders, watch loop, HTTP) only
 * talks to these interfaces; EVM and Bitcoin implement them.
 */
import type { CreateOrderResult, SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceChainConfig } from "../config.js";
import type { ResolvedAsset } from "../registry.js";

/** Terms of one HTLC as the order defines them. Hex without 0x. */
export interface SwapTerms {
  side: "source" | "destination";
  asset: ResolvedAsset;
  /** As the record shows it (Bitcoin source: the owner's address, or "" when none was given). */
  initiator: string;
  redeemer: string;
  /**
   * Bitcoin: the user's x-only key in the HTLC (the source initiator key, or the destination redeemer
   * key). Null on EVM.
   */
  delegate: string | null;
  /** Chain units (blocks on EVM and Bitcoin). */
  timelock: number;
  amount: bigint;
  secretHash: string;
}

export interface TxFact {
  /** As the chain shows it (EVM: 0x-prefixed). */
  txHash: string;
  /** 0 while the transaction is only in the mempool (Bitcoin). */
  blockNumber: bigint;
  /** ISO 8601 UTC with fractional seconds, from the block's time; null while unmined. */
  timestamp: string | null;
}

/** Terms read back from the chain for an initiated HTLC. */
export interface OnChainTerms {
  initiator: string;
  redeemer: string;
  timelock: bigint;
  amount: bigint;
}

/**
 * What a watcher learned about one swap in one poll. Absent parts mean "nothing new": the caller merges
 * them into the record, so a watcher may skip look-ups for facts the record already holds.
 */
export interface SwapFacts {
  initiate?: TxFact & { filledAmount: bigint };
  redeem?: TxFact & { secret: string };
  refund?: TxFact;
  /** Null when the HTLC is not initiated (or the family stores no terms). */
  onChain: OnChainTerms | null;
}

/** Reads one chain for the service; one implementation per chain family. */
export interface ChainWatcher {
  /** The newest block the watcher has caught up with: facts read after it are complete up to it. */
  tipHeight(): Promise<bigint>;
  /**
   * The node's newest block, read without waiting for the watcher to catch up (an order's watch starts
   * there): a Bitcoin index busy with a burst of new addresses held every order creation for seconds.
   */
  headHeight(): Promise<bigint>;
  /**
   * What the chain shows about the swap up to and including block `tip` (read once per poll, so that
   * confirmations are counted against the same height the facts come from). `fromBlock`: no event of
   * this swap can be older (the tip when the order was created).
   */
  observe(swap: SwapRecord, fromBlock: bigint, tip: bigint): Promise<SwapFacts>;
}

export type TxOutcome = "pending" | "success" | "reverted" | "dropped";

/** Gasless initiation by a user's signature, relayed by the service (EVM ERC20 and Starknet sources). */
export interface SignedInitiate {
  /** The typed data the user signs for this swap (JSON-safe: integers as decimal strings). */
  typedData(swap: SwapRecord): Promise<unknown>;
  /** The call the user may send itself instead, where the API offers one (Starknet: `transaction`). */
  transaction?(swap: SwapRecord): unknown;
  /**
   * The request's `signature` in the one text form `verify` and `relay` take (EVM: 0x hex; Starknet: an
   * array of felts), or why it is not a signature of this chain.
   */
  signatureOf(value: unknown): { signature: string } | { problem: string };
  /** Null when `signature` authorises this swap for its initiator; otherwise why not. */
  verify(swap: SwapRecord, signature: string): Promise<string | null>;
  /** Sends the initiate paid by the relayer; returns the transaction hash. */
  relay(swap: SwapRecord, signature: string): Promise<string>;
}

/** Ways back to the user's funds that the service helps with (Bitcoin sources). */
export interface UserRefunds {
  /**
   * Checks the solver's half of an instant refund of this source swap (its inputs, outputs paying
   * `refundAddress`, the redeemer's signatures, the fee) and completes it with the service's key.
   * Throws an ApiError (400 for a transaction that does not match, 409 when the swap cannot be refunded).
   */
  completeInstantRefund(
    swap: SwapRecord,
    partialTxHex: string,
    refundAddress: string,
  ): Promise<{ txid: string; txHex: string }>;
  /** Spends the expired HTLC back to `refundAddress` and broadcasts; returns the txid. Throws ApiErrors. */
  refund(swap: SwapRecord, refundAddress: string): Promise<string>;
}

export interface ServiceChain {
  readonly config: LocalServiceChainConfig;
  readonly watcher: ChainWatcher;
  /** Present where users may initiate by signature. */
  readonly signedInitiate: SignedInitiate | null;
  /** Present where the service completes instant refunds and refunds for users (Bitcoin). */
  readonly userRefunds: UserRefunds | null;
  isValidAddress(address: string): boolean;
  /** The solver's party on this chain in record form (EVM address, Bitcoin x-only key), or null if invalid. */
  solverParty(value: string): string | null;
  /** The form addresses take in order records. */
  normalizeAddress(address: string): string;
  /** Lowercased or otherwise canonical form used when comparing addresses. */
  addressKey(address: string): string;
  /** The swap id (EVM order id, Bitcoin HTLC address) of these terms, hex without 0x where hex. */
  swapId(terms: SwapTerms): string;
  /** Where the user sends or approves the source funds. */
  depositTarget(terms: SwapTerms): string;
  /**
   * What the create-order answer of a source on this chain carries for the user to lock it with, beyond
   * `to` and `amount` (Sui: the initiate's `ptb_bytes`); absent or undefined where there is nothing more.
   */
  initiateTransaction?(swap: SwapRecord): Promise<Pick<CreateOrderResult, "ptb_bytes"> | undefined>;
  /** Whether the HTLC of this swap exists on chain already (whatever its state). */
  isInitiated(swap: SwapRecord): Promise<boolean>;
  /** Redeems the swap with the secret, paid by the relayer; returns the transaction hash. */
  redeem(swap: SwapRecord, secret: string): Promise<string>;
  txOutcome(txHash: string): Promise<TxOutcome>;
  close(): Promise<void>;
}
