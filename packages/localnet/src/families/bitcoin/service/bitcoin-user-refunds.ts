/**
 * The service's help with a Bitcoin source the user wants back: completing the solver's instant refund
 * with the per-order initiator key (the user broadcasts it), and the refund through the CSV leaf once
 * the lock has passed (the service broadcasts it). Refusals are ApiErrors naming the reason.
 */
import { address as btcAddress } from "bitcoinjs-lib";
import type { FundingOutput } from "htlc-solver/chains/bitcoin/backend.js";
import { BroadcastRejectedError } from "htlc-solver/chains/bitcoin/backend.js";
import type { BitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import { buildRefundTx, HtlcSpendError } from "htlc-solver/chains/bitcoin/htlc-spend.js";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import { badGateway, badRequest, conflict, errorMessage } from "../../../service/errors.js";
import type { UserRefunds } from "../../../service/chains/service-chain.js";
import { completeUserInstantRefund, InstantRefundMismatchError } from "./bitcoin-instant-refund.js";

/** What the refunds need from the chain they run on. */
export interface BitcoinSpendContext {
  readonly name: string;
  isValidAddress(address: string): boolean;
  htlcOf(swap: SwapRecord): BitcoinHtlc;
  /** Syncs with the node, then returns its tip. */
  syncedTip(): Promise<number>;
  fundingOutputs(swapId: string): Promise<FundingOutput[]>;
  /** The service's private key (hex) for the HTLC at this address, if it made one. */
  privateKeyOf(swapId: string): string | undefined;
  feeRateSatVb(): Promise<bigint>;
  readonly maxFeeRateSatVb: bigint;
  broadcast(rawHex: string): Promise<string>;
}

export class BitcoinUserRefunds implements UserRefunds {
  constructor(private readonly chain: BitcoinSpendContext) {}

  async completeInstantRefund(
    swap: SwapRecord,
    partialTxHex: string,
    refundAddress: string,
  ): Promise<{ txid: string; txHex: string }> {
    await this.chain.syncedTip();
    const funding = await this.fundingOf(swap, "instantly refunded");
    const spent = funding.find((o) => o.spentBy !== null);
    if (spent !== undefined) {
      throw conflict(`source swap ${swap.swap_id} is already spent by ${spent.spentBy?.txid ?? "?"}`);
    }
    try {
      return completeUserInstantRefund({
        partialTxHex,
        htlc: this.chain.htlcOf(swap),
        funding,
        refundAddress,
        initiatorKey: this.keyOf(swap),
        maxFeeRateSatVb: this.chain.maxFeeRateSatVb,
      });
    } catch (error) {
      if (error instanceof InstantRefundMismatchError) throw badRequest(error.message);
      throw error;
    }
  }

  async refund(swap: SwapRecord, refundAddress: string): Promise<string> {
    if (!this.chain.isValidAddress(refundAddress)) {
      throw badRequest(`refund_address ${refundAddress} is not a valid ${this.chain.name} address`);
    }
    const tip = await this.chain.syncedTip();
    const unspent = (await this.fundingOf(swap, "refunded")).filter((o) => o.spentBy === null);
    if (unspent.length === 0) throw conflict(`source swap ${swap.swap_id} is already redeemed or refunded`);
    const htlc = this.chain.htlcOf(swap);
    const heights = unspent.map((o) => o.height);
    if (heights.includes(null)) {
      throw conflict(
        `source swap ${swap.swap_id} has an unconfirmed funding output; wait for it to be mined`,
      );
    }
    // Every input carries nSequence = timelock, so the lock must have passed for the latest funding.
    const refundableAt = Math.max(...(heights as number[])) + htlc.timelock;
    if (tip < refundableAt) {
      throw conflict(
        `source swap ${swap.swap_id} can be refunded from block ${refundableAt}; the tip is ${tip}`,
      );
    }
    const inputs = unspent.map((o) => ({ htlc, txid: o.txid, vout: o.vout, value: o.value }));
    const script = btcAddress.toOutputScript(refundAddress, htlc.network);
    let raw: string;
    try {
      raw = buildRefundTx(inputs, this.keyOf(swap), script, await this.chain.feeRateSatVb()).tx.toHex();
    } catch (error) {
      if (error instanceof HtlcSpendError)
        throw conflict(`refund of ${swap.swap_id} impossible: ${error.message}`);
      throw error;
    }
    try {
      return await this.chain.broadcast(raw);
    } catch (error) {
      if (error instanceof BroadcastRejectedError)
        throw conflict(`the node rejected the refund: ${error.reason}`);
      throw badGateway(`broadcasting the refund of ${swap.swap_id} failed: ${errorMessage(error)}`);
    }
  }

  private async fundingOf(swap: SwapRecord, what: string): Promise<FundingOutput[]> {
    const funding = await this.chain.fundingOutputs(swap.swap_id);
    if (funding.length === 0)
      throw conflict(`source swap ${swap.swap_id} is not funded, nothing to be ${what}`);
    return funding;
  }

  private keyOf(swap: SwapRecord): BitcoinKey {
    const privateKey = this.chain.privateKeyOf(swap.swap_id);
    if (privateKey === undefined) throw conflict(`the service holds no initiator key for ${swap.swap_id}`);
    return BitcoinKey.fromHex(privateKey);
  }
}
