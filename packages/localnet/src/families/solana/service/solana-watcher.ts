/**
 * Watches swaps on one Solana chain: the swap account at the address of the record's terms (live: the
 * terms on chain), and the HTLC calls of the transactions that touched it.
 *
 * Until the record holds an initiate, the address is scanned from the order's creation on for the first
 * initiate of its terms and what closed it (a swap can be initiated and redeemed between two polls). Once
 * it holds one, that initiation is followed from its own transaction forward, as the solver follows its
 * fills: the programs take the same terms again at the same address after a close, so an account that
 * looks live may be a later initiation, and only what closed the recorded one counts.
 */
import type { PublicKey } from "@solana/web3.js";
import { MemoryFollowPositions } from "htlc-solver/chains/follow-positions.js";
import {
  AddressScanner,
  newScan,
  scanAbove,
  type ScannedCall,
  type ScanState,
} from "htlc-solver/chains/solana/address-scan.js";
import type { HtlcProgram } from "htlc-solver/chains/solana/htlc-calls.js";
import {
  InitiationFollower,
  type Initiation,
  type InitiationClose,
} from "htlc-solver/chains/solana/initiation-follower.js";
import { htlcInterfaceOf } from "htlc-solver/chains/solana/htlc-interface.js";
import { findLegacyInitiation } from "htlc-solver/chains/solana/legacy/initiation.js";
import type { SolanaRpc } from "htlc-solver/chains/solana/rpc.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceSolanaChainConfig } from "./solana-config.js";
import type { ChainWatcher, OnChainTerms, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";
import { swapOfRecord } from "./solana-swap-of.js";

const COMMITMENT = "confirmed";
const PAGES_PER_POLL = 5;
const FETCHES_PER_POLL = 200;

/** A swap whose initiate the record does not hold yet: the scan for it, and what it found so far. */
interface Discovery {
  scan: ScanState;
  initiate: ScannedCall | null;
  close: ScannedCall | null;
}

export class SolanaWatcher implements ChainWatcher {
  readonly #scanner: AddressScanner;
  readonly #follower: InitiationFollower;
  readonly #discoveries = new Map<string, Discovery>();

  constructor(
    private readonly config: LocalServiceSolanaChainConfig,
    private readonly rpc: SolanaRpc,
  ) {
    const bounds = {
      commitment: COMMITMENT,
      pagesPerStep: PAGES_PER_POLL,
      fetchesPerStep: FETCHES_PER_POLL,
    } as const;
    this.#scanner = new AddressScanner(rpc, bounds);
    this.#follower = new InitiationFollower(rpc, new MemoryFollowPositions(), {
      commitment: COMMITMENT,
      pagesPerRead: PAGES_PER_POLL,
      fetchesPerRead: FETCHES_PER_POLL,
    });
  }

  tipHeight(): Promise<bigint> {
    return this.rpc.getSlot(COMMITMENT);
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, fromBlock: bigint, _tip: bigint): Promise<SwapFacts> {
    const { asset, terms, address } = swapOfRecord(this.config, swap);
    const htlc = htlcInterfaceOf(this.config.programVersion);
    const program: HtlcProgram = { id: asset.programId, kind: asset.kind, version: htlc.version };
    const { slot, account } = await this.rpc.getAccount(address, COMMITMENT);
    const live = account === null ? null : htlc.decodeSwap(asset, address, account);
    // A legacy account keeps no timelock: its initiating transaction gives it (null when not found).
    const liveTimelock =
      live === null || live.timelock !== null
        ? (live?.timelock ?? null)
        : ((await findLegacyInitiation(this.rpc, COMMITMENT, asset, live))?.expiresInSlots ?? null);
    const liveTerms: OnChainTerms | null =
      live === null || liveTimelock === null
        ? null
        : {
            initiator: live.refundee.toBase58(),
            redeemer: live.redeemer.toBase58(),
            timelock: liveTimelock,
            amount: live.swapAmount,
          };
    // Current programs: the address commits to the terms, so whatever initiated there initiated these.
    // Legacy: it commits to the initiator and secret hash only; a closed swap is taken at the record's word.
    const termsOnChain = liveTerms ?? {
      initiator: terms.refundee.toBase58(),
      redeemer: terms.redeemer.toBase58(),
      timelock: terms.timelock,
      amount: terms.swapAmount,
    };
    if (swap.initiate_tx_hash === "")
      return this.#discover(address, program, fromBlock, liveTerms, termsOnChain);
    this.#discoveries.delete(address.toBase58());

    const initiation: Initiation = {
      signature: swap.initiate_tx_hash,
      slot: BigInt(swap.initiate_block_number),
    };
    if (live !== null && live.expirySlot === initiation.slot + (liveTimelock ?? terms.timelock)) {
      this.#follower.seenAlive(address, initiation, slot);
      return { onChain: liveTerms };
    }
    if (swap.redeem_tx_hash !== "" || swap.refund_tx_hash !== "") return { onChain: liveTerms };
    const close = await this.#follower.close(address, program, initiation);
    return { onChain: liveTerms, ...(close === null ? {} : closeFacts(close)) };
  }

  /** The first initiate of the terms since the order was made, and what closed it, as far as read. */
  async #discover(
    address: PublicKey,
    program: HtlcProgram,
    fromBlock: bigint,
    liveTerms: OnChainTerms | null,
    termsOnChain: OnChainTerms,
  ): Promise<SwapFacts> {
    const key = address.toBase58();
    const found = this.#discoveries.get(key) ?? {
      scan: newScan({ aboveSlot: fromBlock > 0n ? fromBlock - 1n : null }),
      initiate: null,
      close: null,
    };
    this.#discoveries.set(key, found);
    const outcome = await this.#scanner.step(found.scan, address, program, (calls) => {
      for (const scanned of calls) {
        if (found.initiate === null && scanned.call.name === "initiate") found.initiate = scanned;
        else if (found.initiate !== null && scanned.call.name !== "initiate") {
          found.close = scanned;
          return true;
        }
      }
      return false;
    });
    // Read to its end: later transactions are above this scan. A found close ends the discovery.
    if (outcome === "exhausted") found.scan = scanAbove(found.scan);
    const initiate = found.initiate;
    if (initiate === null || initiate.call.name !== "initiate") return { onChain: liveTerms };
    if (found.close !== null) this.#discoveries.delete(key);
    const facts: SwapFacts = {
      onChain: termsOnChain,
      initiate: { ...txFact(initiate), filledAmount: initiate.call.swapAmount },
    };
    const close = found.close;
    if (close === null || close.call.name === "initiate") return facts;
    return {
      ...facts,
      ...closeFacts({
        kind: close.call.name,
        signature: close.signature,
        slot: close.slot,
        blockTime: close.blockTime,
        secret: close.call.name === "redeem" ? close.call.secret : null,
      }),
    };
  }
}

function closeFacts(close: InitiationClose): Pick<SwapFacts, "redeem" | "refund"> {
  const fact = txFact(close);
  if (close.kind === "redeem" && close.secret !== null) {
    return { redeem: { ...fact, secret: Buffer.from(close.secret).toString("hex") } };
  }
  return { refund: fact };
}

function txFact(tx: { signature: string; slot: bigint; blockTime: number | null }): TxFact {
  return {
    txHash: tx.signature,
    blockNumber: tx.slot,
    timestamp: tx.blockTime === null ? null : new Date(tx.blockTime * 1000).toISOString(),
  };
}
