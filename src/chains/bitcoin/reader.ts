/**
 * What the Bitcoin chain says about an HTLC. The address commits to every parameter, so reading the
 * outputs paying the address rebuilt from the order's fields is the check that the deposit is what
 * the order claims; spends are classified by the leaf they used (a redeem reveals the secret).
 */
import type { ChainReader, HtlcParams, HtlcState } from "../chain.js";
import type { BitcoinBackend, FundingOutput } from "./backend.js";
import { bitcoinHtlc, type BitcoinHtlc } from "./htlc.js";
import { classifyHtlcSpend } from "./htlc-witness.js";
import { hexToBytes } from "./bytes.js";
import type { BitcoinNetworkName } from "./network.js";

export interface BitcoinReaderOptions {
  chain: string;
  network: BitcoinNetworkName;
  backend: BitcoinBackend;
}

/** The HTLC of order-side parameters: initiator and redeemer are x-only keys (hex). */
export function htlcOfParams(params: HtlcParams, network: BitcoinNetworkName): BitcoinHtlc {
  return bitcoinHtlc({
    initiatorKey: params.initiator,
    redeemerKey: params.redeemer,
    secretHash: params.secretHash,
    timelock: params.timelock,
    network,
  });
}

export class BitcoinReader implements ChainReader {
  readonly family = "bitcoin" as const;
  readonly chain: string;
  readonly network: BitcoinNetworkName;
  readonly backend: BitcoinBackend;

  constructor(options: BitcoinReaderOptions) {
    this.chain = options.chain;
    this.network = options.network;
    this.backend = options.backend;
  }

  async tipHeight(): Promise<bigint> {
    return BigInt(await this.backend.tipHeight());
  }

  /** The HTLC address these parameters produce (the API's Bitcoin swap id). */
  computeSwapId(params: HtlcParams): string {
    return htlcOfParams(params, this.network).address;
  }

  htlcOf(params: HtlcParams): BitcoinHtlc {
    return htlcOfParams(params, this.network);
  }

  /** Every output paying the HTLC of these parameters, with its spend. */
  async fundingOutputs(
    params: HtlcParams,
  ): Promise<{ htlc: BitcoinHtlc; outputs: FundingOutput[]; tip: number }> {
    const htlc = htlcOfParams(params, this.network);
    const activity = await this.backend.addressActivity(htlc.address);
    return { htlc, outputs: activity.outputs, tip: activity.tipHeight };
  }

  async readHtlc(params: HtlcParams): Promise<HtlcState> {
    const { htlc, outputs, tip } = await this.fundingOutputs(params);
    return htlcStateOf(htlc, outputs, tip);
  }
}

/** Folds the funding outputs of one HTLC (and their spends) into the chain-neutral state. */
export function htlcStateOf(htlc: BitcoinHtlc, outputs: FundingOutput[], tip: number): HtlcState {
  const fundedAmount = outputs.reduce((sum, o) => sum + o.value, 0n);
  const heights = outputs.flatMap((o) => (o.height === null ? [] : [o.height]));
  const first = heights.length === 0 ? null : Math.min(...heights);
  let redeemed = false;
  let refunded = false;
  let secret: string | null = null;
  for (const output of outputs) {
    if (output.spentBy === null) continue;
    const spend = classifyHtlcSpend(
      output.spentBy.witness.map((item) => hexToBytes(item, "witness item")),
      htlc,
    );
    if (spend.kind === "redeem") {
      redeemed = true;
      secret = spend.secret;
    } else if (spend.kind === "refund" || spend.kind === "instantRefund") {
      refunded = true;
    }
  }
  return {
    initiated: outputs.length > 0,
    fundedAmount,
    onChain: null,
    initiatedAtHeight: first === null ? null : BigInt(first),
    confirmations: first === null ? 0 : Math.max(0, tip - first + 1),
    refundableAtHeight: first === null ? null : BigInt(first + htlc.timelock),
    redeemed,
    refunded,
    secret,
  };
}
