/**
 * What a Solana cluster says about one swap. The swap account is read at the program address of the
 * order's own terms: a program-owned SwapAccount there can only have been initiated with exactly those
 * terms (the programs check it), so a service that misstates a term points at an empty address.
 *
 * The address does not commit to who paid, and the programs take the same terms again once an account
 * closes. So the solver's fill is the initiation its journaled transaction made (`ownTxids`), held by the
 * account only while the account stores that initiation's slot with the solver as rent sponsor (a
 * sponsor must sign, so no one else can name the solver). Once the account no longer holds it, what
 * closed it is found by following the address from the fill forward (`InitiationFollower`), whatever
 * lives there now.
 */
import type { PublicKey } from "@solana/web3.js";
import type { FollowPositions } from "../follow-positions.js";
import {
  absentHtlc,
  type ChainReader,
  type HtlcParams,
  type HtlcReadOptions,
  type HtlcState,
} from "../chain.js";
import { solanaAddress } from "./address.js";
import { resolveSolanaAsset, type SolanaAsset } from "./assets.js";
import { htlcInterfaceOf, type SolanaHtlcInterface } from "./htlc-interface.js";
import { InitiationFollower, type Initiation } from "./initiation-follower.js";
import { findLegacyInitiation } from "./legacy/initiation.js";
import type { SolanaAccount, SolanaRpc } from "./rpc.js";
import type { StoredSwap } from "./stored-swap.js";
import { solanaSwapId } from "./swap-id.js";
import { hexBytes, swapTermsOf } from "./swap-params.js";
import { followedSwapState, liveSwapState, type LiveSwap } from "./swap-state.js";
import type { SwapTerms } from "./swap-terms.js";
import type { SolanaChainConfig } from "./config.js";

export interface SolanaReaderOptions {
  /** The solver's address: the rent sponsor of every fill it makes. */
  solver: PublicKey;
  /** Where following a closed fill resumes after a restart (the journal's). */
  positions: FollowPositions;
  /** Bounds of the work one read may do following a fill (tests make them small). */
  pagesPerRead?: number;
  fetchesPerRead?: number;
}

export class SolanaReader implements ChainReader {
  readonly family = "solana" as const;
  /** Both programs take the secret as [u8; 32]. */
  readonly secretLength = 32;
  /** Orders name the parties by their own addresses, which are the keys in the swap. */
  readonly userKeyIsDelegate = false;
  readonly chain: string;
  readonly nativeProgram: PublicKey;
  readonly splProgram: PublicKey;
  /** The programs' version: where swaps live, what their accounts store. */
  readonly htlc: SolanaHtlcInterface;
  readonly #solver: PublicKey;
  readonly #follower: InitiationFollower;
  /** Slots of the solver's transactions known final: a landed transaction never moves once final. */
  readonly #finalSlots = new Map<string, bigint>();

  constructor(
    readonly config: SolanaChainConfig,
    readonly rpc: SolanaRpc,
    options: SolanaReaderOptions,
  ) {
    this.chain = config.name;
    this.nativeProgram = solanaAddress(config.nativeProgramId, `nativeProgramId of ${config.name}`);
    this.splProgram = solanaAddress(config.splProgramId, `splProgramId of ${config.name}`);
    this.htlc = htlcInterfaceOf(config.programVersion);
    this.#solver = options.solver;
    this.#follower = new InitiationFollower(rpc, options.positions, {
      commitment: config.commitment,
      ...(options.pagesPerRead === undefined ? {} : { pagesPerRead: options.pagesPerRead }),
      ...(options.fetchesPerRead === undefined ? {} : { fetchesPerRead: options.fetchesPerRead }),
    });
  }

  /** The slot at the configured commitment, never a stale one: Solana timelocks and depths count slots. */
  tipHeight(): Promise<bigint> {
    return this.rpc.freshSlot(this.config.commitment);
  }

  /** sha256(chain id ‖ secret hash ‖ initiator), the API's Solana swap id. */
  computeSwapId(params: HtlcParams): string {
    return solanaSwapId(
      BigInt(this.config.chainId),
      hexBytes(params.secretHash, 32, "secret hash"),
      solanaAddress(params.initiator, `initiator of the swap on ${params.chain}`),
    );
  }

  async readHtlc(params: HtlcParams, options: HtlcReadOptions = {}): Promise<HtlcState> {
    const { asset, terms, address } = this.swapAccount(params);
    const own = options.ownTxids ?? [];
    // Statuses and the account from one node: the account read must not predate the fill it judges.
    const { fill, slot, stored } = await this.rpc.sticky("swap read", async () => {
      const fill = own.length === 0 ? null : await this.#landedInitiation(own);
      const read = await this.rpc.getAccount(address, this.config.commitment, fill?.slot);
      const stored = read.account === null ? null : this.htlc.decodeSwap(asset, address, read.account);
      return { fill, slot: read.slot, stored };
    });
    if (fill === null) {
      if (stored === null) return absentHtlc();
      const live = await this.#initiated(asset, stored);
      return live === null ? unverifiableSwap() : liveSwapState(live);
    }
    if (stored !== null && this.#holds(stored, fill, terms)) {
      const live = { ...stored, timelock: terms.timelock };
      this.#follower.seenAlive(address, fill, slot);
      return followedSwapState(address, terms, fill, { alive: true }, live);
    }
    const program = { id: asset.programId, kind: asset.kind, version: this.htlc.version };
    const close = await this.#follower.close(address, program, fill);
    const other = stored === null ? null : await this.#initiated(asset, stored);
    return followedSwapState(address, terms, fill, { alive: false, close }, other, stored !== null);
  }

  /**
   * The live account stores the solver's initiation: the solver as rent sponsor (a sponsor, or the
   * legacy native initiator, must sign, so no one else can name the solver), the fill's terms, and the
   * expiry its slot gives them.
   */
  #holds(stored: StoredSwap, fill: Initiation, terms: SwapTerms): boolean {
    return (
      stored.rentSponsor.equals(this.#solver) &&
      stored.expirySlot === fill.slot + terms.timelock &&
      stored.swapAmount === terms.swapAmount &&
      stored.redeemer.equals(terms.redeemer) &&
      stored.refundee.equals(terms.refundee) &&
      (stored.timelock === null || stored.timelock === terms.timelock)
    );
  }

  /**
   * A live swap with the slot it was initiated at. The current programs store the timelock, so the
   * account tells; a legacy account does not, and is tied to the transaction that initiated it (which
   * also names a legacy SPL swap's mint): null when that transaction cannot be found or locked another mint.
   */
  async #initiated(asset: SolanaAsset, stored: StoredSwap): Promise<LiveSwap | null> {
    if (stored.timelock !== null) return { ...stored, timelock: stored.timelock };
    const initiation = await findLegacyInitiation(this.rpc, this.config.commitment, asset, stored);
    if (initiation === null) return null;
    if (asset.mint !== null && (initiation.mint === null || !initiation.mint.equals(asset.mint))) return null;
    return { ...stored, timelock: initiation.expiresInSlots };
  }

  /**
   * The solver's transaction among `signatures` that landed without error at the configured commitment,
   * earliest first; null when none has. Only one fill of an order can land (the executor refuses a second
   * once one did), so this is the order's fill.
   */
  async #landedInitiation(signatures: readonly string[]): Promise<Initiation | null> {
    for (const signature of signatures) {
      const slot = this.#finalSlots.get(signature);
      if (slot !== undefined) return { signature, slot };
    }
    const statuses = await this.rpc.getSignatureStatuses(signatures);
    const accepted = this.config.commitment === "finalized" ? ["finalized"] : ["confirmed", "finalized"];
    let landed: Initiation | null = null;
    statuses.forEach((status, i) => {
      const signature = signatures[i];
      if (status === null || status === undefined || signature === undefined) return;
      if (status.err !== null && status.err !== undefined) return;
      if (!accepted.includes(status.confirmationStatus ?? "")) return;
      if (status.confirmationStatus === "finalized") this.#finalSlots.set(signature, status.slot);
      if (landed === null || status.slot < landed.slot) landed = { signature, slot: status.slot };
    });
    return landed;
  }

  /** The swap stored at `address` now, or null when no swap of the asset's program lives there. */
  async storedSwap(asset: SolanaAsset, address: PublicKey): Promise<StoredSwap | null> {
    const { account } = await this.rpc.getAccount(address, this.config.commitment);
    return account === null ? null : this.htlc.decodeSwap(asset, address, account);
  }

  /** The live swap at `address` with its initiation's slot; null when none lives there or it cannot be tied to one. */
  async liveSwap(asset: SolanaAsset, address: PublicKey): Promise<LiveSwap | null> {
    const stored = await this.storedSwap(asset, address);
    return stored === null ? null : this.#initiated(asset, stored);
  }

  /** The swap account of an order side. */
  swapAccount(params: HtlcParams): { asset: SolanaAsset; terms: SwapTerms; address: PublicKey } {
    const asset = resolveSolanaAsset(this.config, params.asset);
    const terms = swapTermsOf(params);
    return { asset, terms, address: this.htlc.swapAddress(asset, terms) };
  }
}

/** A swap lives at the address but cannot be tied to an initiation: it holds the address, and is no lock. */
function unverifiableSwap(): HtlcState {
  return { locks: [], onChain: null, secret: null, occupied: true };
}

/**
 * A swap account of the current programs, or null for anything else at the address (see
 * `SolanaHtlcInterface.decodeSwap`): their accounts store the timelock, so no transaction is needed.
 */
export function decodeLiveSwap(
  asset: SolanaAsset,
  address: PublicKey,
  account: SolanaAccount,
): LiveSwap | null {
  const stored = htlcInterfaceOf("current").decodeSwap(asset, address, account);
  return stored === null || stored.timelock === null ? null : { ...stored, timelock: stored.timelock };
}
