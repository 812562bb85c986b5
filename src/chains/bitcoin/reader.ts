/**
 * What the Bitcoin chain says about an HTLC. The address commits to every parameter, so reading the
 * outputs paying the address rebuilt from the order's fields is the check that the deposit is what
 * the order claims; spends are classified by the leaf they used (a redeem reveals the secret).
 */
import type {
  ChainReader,
  HtlcLock,
  HtlcParams,
  HtlcReadOptions,
  HtlcState,
  LockSpendKind,
} from "../chain.js";
import type { BitcoinBackend, FundingOutput, OutputSpend } from "./backend.js";
import { bitcoinHtlc, type BitcoinHtlc } from "./htlc.js";
import { classifyHtlcSpend } from "./htlc-witness.js";
import { hexToBytes } from "./bytes.js";
import { feeForWeight } from "./fee.js";
import { htlcInputWeight } from "./htlc-spend.js";
import type { BitcoinNetworkName } from "./network.js";

export interface BitcoinReaderOptions {
  chain: string;
  network: BitcoinNetworkName;
  backend: BitcoinBackend;
  /**
   * The highest fee rate the solver pays here (`feeRateCeilingSatVb`). An output worth less than
   * spending it at this rate costs more than it brings: it is never counted or spent.
   */
  feeRateCeilingSatVb: number;
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
  /** The redeem leaf checks only `OP_SHA256 <hash> OP_EQUALVERIFY`: a preimage of any length redeems. */
  readonly secretLength = null;
  /** Scripts hold x-only keys: the user's is the swap's `delegate`. */
  readonly userKeyIsDelegate = true;
  readonly chain: string;
  readonly network: BitcoinNetworkName;
  readonly backend: BitcoinBackend;
  readonly #feeRateCeiling: bigint;

  constructor(options: BitcoinReaderOptions) {
    this.chain = options.chain;
    this.network = options.network;
    this.backend = options.backend;
    this.#feeRateCeiling = BigInt(options.feeRateCeilingSatVb);
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
    options: HtlcReadOptions = {},
  ): Promise<{ htlc: BitcoinHtlc; outputs: FundingOutput[]; tip: number }> {
    const htlc = htlcOfParams(params, this.network);
    const activity = await this.backend.addressActivity(htlc.address, options);
    return { htlc, outputs: activity.outputs, tip: activity.tipHeight };
  }

  expectReads(params: readonly HtlcParams[]): void {
    const addresses: string[] = [];
    for (const p of params) {
      try {
        addresses.push(htlcOfParams(p, this.network).address);
      } catch {
        // Parameters no HTLC can take are refused when the order itself is read.
      }
    }
    this.backend.watch?.(addresses);
  }

  /** HTLC addresses (this family's swap ids) that blocks `from`..`to` paid or spent from. */
  async changedSwapIds(from: bigint, to: bigint): Promise<string[] | null> {
    return (await this.backend.changedAddresses?.(Number(from), Number(to))) ?? null;
  }

  async readHtlc(params: HtlcParams, options: HtlcReadOptions = {}): Promise<HtlcState> {
    const { htlc, outputs } = await this.fundingOutputs(params, options);
    return htlcStateOf(htlc, outputs, this.#feeRateCeiling);
  }
}

/**
 * One lock per output paying the HTLC, each with its own height, CSV refund height and spend. The
 * secret is taken from any redeem: whoever redeemed whichever output, the preimage is the order's.
 */
export function htlcStateOf(htlc: BitcoinHtlc, outputs: FundingOutput[], feeRateCeiling: bigint): HtlcState {
  // The dearest way the solver spends an HTLC output is its redeem leaf (a signature and a secret).
  const spendCost = feeForWeight(htlcInputWeight(htlc, "redeem"), feeRateCeiling);
  let secret: string | null = null;
  const locks = outputs.map((output): HtlcLock => {
    const spend = output.spentBy === null ? null : spendOf(htlc, output.spentBy);
    if (spend?.secret != null) secret = spend.secret;
    return {
      id: `${output.txid}:${output.vout}`,
      fundingTx: output.txid,
      value: output.value,
      height: output.height === null ? null : BigInt(output.height),
      // BIP-68: a refund spending it may be mined from height + timelock on.
      refundableAtHeight: output.height === null ? null : BigInt(output.height + htlc.timelock),
      worthSpending: output.value > spendCost,
      spend:
        spend === null
          ? null
          : {
              kind: spend.kind,
              txid: output.spentBy?.txid ?? null,
              height: output.spentBy?.height == null ? null : BigInt(output.spentBy.height),
            },
    };
  });
  return { locks, onChain: null, secret };
}

function spendOf(htlc: BitcoinHtlc, spentBy: OutputSpend): { kind: LockSpendKind; secret: string | null } {
  const spend = classifyHtlcSpend(
    spentBy.witness.map((item) => hexToBytes(item, "witness item")),
    htlc,
  );
  switch (spend.kind) {
    case "redeem":
      return { kind: "redeem", secret: spend.secret };
    case "refund":
      return { kind: "refund", secret: null };
    case "instantRefund":
      return { kind: "instant_refund", secret: null };
    default:
      return { kind: "unknown", secret: null };
  }
}
