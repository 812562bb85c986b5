/**
 * Watches swaps on one Solana chain: the swap account at the address of the record's terms (live: the
 * terms on chain), and the HTLC events in the account's history for the initiate, redeem (with the
 * secret) and refund transactions, their slots and block times. History is read only when the record
 * may be missing a fact: a live account whose initiate is recorded has nothing new to tell.
 */
import { SwapHistory, eventMatches, type SwapEvent } from "../../../../chains/solana/swap-history.js";
import { decodeLiveSwap } from "../../../../chains/solana/reader.js";
import type { SolanaRpc } from "../../../../chains/solana/rpc.js";
import type { SwapRecord } from "../../../../orderbook/types.js";
import type { LocalServiceSolanaChainConfig } from "../../config.js";
import type { ChainWatcher, OnChainTerms, SwapFacts, TxFact } from "../service-chain.js";
import { swapOfRecord } from "./solana-swap-of.js";

export class SolanaWatcher implements ChainWatcher {
  readonly #history: SwapHistory;

  constructor(
    private readonly config: LocalServiceSolanaChainConfig,
    private readonly rpc: SolanaRpc,
  ) {
    this.#history = new SwapHistory(rpc, { commitment: "confirmed" });
  }

  tipHeight(): Promise<bigint> {
    return this.rpc.getSlot("confirmed");
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, _fromBlock: bigint, _tip: bigint): Promise<SwapFacts> {
    const { asset, terms, address } = swapOfRecord(this.config, swap);
    const { account } = await this.rpc.getAccount(address, "confirmed");
    const live = account === null ? null : decodeLiveSwap(asset, address, account);
    const liveTerms: OnChainTerms | null =
      live === null
        ? null
        : {
            initiator: live.refundee.toBase58(),
            redeemer: live.redeemer.toBase58(),
            timelock: live.timelock,
            amount: live.swapAmount,
          };
    if (live !== null && swap.initiate_tx_hash !== "") return { onChain: liveTerms };

    const events = (await this.#history.events(address, asset.kind, asset.programId)).filter((e) =>
      eventMatches(e.event, terms, asset.mint),
    );
    const initiated = events.filter((e) => e.event.name === "Initiated").at(-1);
    if (initiated === undefined) return { onChain: liveTerms };
    const facts: SwapFacts = {
      onChain: liveTerms ?? {
        initiator: initiated.event.refundee.toBase58(),
        redeemer: initiated.event.redeemer.toBase58(),
        timelock: initiated.event.timelock,
        amount: initiated.event.swapAmount,
      },
    };
    if (swap.initiate_tx_hash === "") {
      facts.initiate = { ...txFact(initiated), filledAmount: initiated.event.swapAmount };
    }
    // Only what closed this initiation counts, never an earlier one's close.
    const closed = events.find(
      (e) => e.slot >= initiated.slot && e !== initiated && e.event.name !== "Initiated",
    );
    if (closed?.event.name === "Redeemed" && swap.redeem_tx_hash === "") {
      facts.redeem = { ...txFact(closed), secret: Buffer.from(closed.event.secret).toString("hex") };
    } else if (closed !== undefined && closed.event.name !== "Redeemed" && swap.refund_tx_hash === "") {
      facts.refund = txFact(closed);
    }
    return facts;
  }
}

function txFact(event: SwapEvent): TxFact {
  return {
    txHash: event.signature,
    blockNumber: event.slot,
    timestamp: event.blockTime === null ? null : new Date(event.blockTime * 1000).toISOString(),
  };
}
