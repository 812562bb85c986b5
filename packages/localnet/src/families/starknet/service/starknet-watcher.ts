/**
 * Watches swaps on one Starknet chain: `get_order(order_id)` on the side's HTLC for the terms (at the
 * poll's tip), and the `Initiated` / `Redeemed` / `Refunded` events keyed by that order id (one filtered,
 * paged query) for hashes, blocks and the secret. An order id names one order for ever (the contract
 * refuses a duplicate), so every event under it belongs to this swap.
 */
import { feltHex } from "htlc-solver/chains/starknet/felt.js";
import { decodeOrder, EVENT_KEYS, SELECTORS } from "htlc-solver/chains/starknet/htlc-calls.js";
import { revealedSecret } from "htlc-solver/chains/starknet/reader.js";
import type { StarknetRpc } from "htlc-solver/chains/starknet/rpc.js";
import type { EventsPage } from "htlc-solver/chains/starknet/rpc-schemas.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { ChainWatcher, OnChainTerms, SwapFacts, TxFact } from "../../../service/chains/service-chain.js";

/** Events per page; a swap has at most three, so one page is the usual read. */
const CHUNK_SIZE = 100;

type Event = EventsPage["events"][number];

export interface StarknetOrderState {
  terms: OnChainTerms;
  fulfilled: boolean;
}

/** `get_order(order_id)` of an HTLC at `block` (latest when absent); null when never initiated. */
export async function readStarknetOrder(
  rpc: StarknetRpc,
  htlc: string,
  orderId: bigint,
  block?: bigint,
): Promise<StarknetOrderState | null> {
  const felts = await rpc.call(
    htlc,
    SELECTORS.getOrder,
    [orderId],
    block === undefined ? "latest" : { block_number: Number(block) },
  );
  const order = decodeOrder(felts);
  if (order === null) return null;
  const { initiator, redeemer, timelock, amount } = order;
  return { terms: { initiator, redeemer, timelock, amount }, fulfilled: order.isFulfilled };
}

export class StarknetWatcher implements ChainWatcher {
  constructor(
    private readonly rpc: StarknetRpc,
    /** HTLC contract of an asset id `<chain>:<symbol>`. */
    private readonly htlcOf: (assetId: string) => string,
  ) {}

  async tipHeight(): Promise<bigint> {
    return BigInt(await this.rpc.blockNumber());
  }

  headHeight(): Promise<bigint> {
    return this.tipHeight();
  }

  async observe(swap: SwapRecord, fromBlock: bigint, tip: bigint): Promise<SwapFacts> {
    const htlc = this.htlcOf(swap.asset);
    const orderId = BigInt(`0x${swap.swap_id}`);
    const order = await readStarknetOrder(this.rpc, htlc, orderId, tip);
    if (order === null) return { onChain: null };

    const facts: SwapFacts = { onChain: order.terms };
    const needInitiate = swap.initiate_tx_hash === "";
    const needOutcome = order.fulfilled && swap.redeem_tx_hash === "" && swap.refund_tx_hash === "";
    if (!needInitiate && !needOutcome) return facts;

    for (const event of await this.orderEvents(htlc, orderId, fromBlock, tip)) {
      const name = event.keys[0];
      if (name === EVENT_KEYS.initiated && needInitiate && facts.initiate === undefined) {
        facts.initiate = { ...(await this.txFact(event)), filledAmount: order.terms.amount };
      } else if (name === EVENT_KEYS.redeemed && needOutcome && facts.redeem === undefined) {
        // The HTLC emits a redeem only for a preimage of the order's secret hash; check it all the same.
        const secret = revealedSecret(event.data, swap.secret_hash);
        if (secret !== null) facts.redeem = { ...(await this.txFact(event)), secret };
      } else if (name === EVENT_KEYS.refunded && needOutcome && facts.refund === undefined) {
        facts.refund = await this.txFact(event);
      }
    }
    return facts;
  }

  /** Every event of the order id from `fromBlock` to `toBlock`, following continuation tokens. */
  private async orderEvents(
    htlc: string,
    orderId: bigint,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<Event[]> {
    const events: Event[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.rpc.getEvents({
        fromBlock: Number(fromBlock),
        toBlock: { block_number: Number(toBlock) },
        address: htlc,
        keys: [Object.values(EVENT_KEYS).map(feltHex), [feltHex(orderId)]],
        chunkSize: CHUNK_SIZE,
        ...(continuationToken === undefined ? {} : { continuationToken }),
      });
      events.push(...page.events.filter((e) => e.from_address === BigInt(htlc) && e.keys[1] === orderId));
      continuationToken = page.continuation_token;
    } while (continuationToken !== undefined);
    return events;
  }

  private async txFact(event: Event): Promise<TxFact> {
    if (event.block_number === undefined)
      throw new Error(`event of ${feltHex(event.transaction_hash)} has no block yet`);
    const block = await this.rpc.getBlock({ block_number: event.block_number });
    return {
      txHash: feltHex(event.transaction_hash),
      blockNumber: BigInt(event.block_number),
      timestamp: new Date(block.timestamp * 1000).toISOString(),
    };
  }
}
