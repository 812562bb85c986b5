/**
 * Initiation by signature, as the live service offers it for a Starknet source: the create-order answer
 * carries the SNIP-12 `Initiate` typed data and the `initiate` call the user may send instead; the user's
 * signature (its wallet's felts) is checked with its account's `is_valid_signature`, then the relayer
 * sends `initiate_with_signature`, the HTLC taking the tokens from the user.
 */
import { hash } from "starknet";
import { feltHex, parseFelt } from "htlc-solver/chains/starknet/felt.js";
import { initiateCall } from "htlc-solver/chains/starknet/htlc-calls.js";
import type { StarknetRpc } from "htlc-solver/chains/starknet/rpc.js";
import { initiateTypedData, messageHash } from "htlc-solver/chains/starknet/snip12.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { SignedInitiate } from "../../../service/chains/service-chain.js";
import type { LocalServiceStarknetChainConfig } from "./starknet-config.js";
import { apiTransaction, initiateTermsOf, initiateWithSignatureCall } from "../starknet-calls.js";
import type { StarknetRelayer } from "./starknet-relayer.js";

const IS_VALID_SIGNATURE = hash.getSelectorFromName("is_valid_signature");
/** What an SRC-6 account answers for a valid signature: the short string `VALID` (older ones: 1). */
const VALID = [0x56414c4944n, 1n];
/** Felts of a wallet signature: `[r, s]` for a plain Stark account, more for multisig or guardians. */
const MAX_SIGNATURE_FELTS = 16;

export class StarknetSignedInitiate implements SignedInitiate {
  constructor(
    private readonly config: LocalServiceStarknetChainConfig,
    private readonly rpc: StarknetRpc,
    private readonly relayer: StarknetRelayer,
    private readonly htlcOf: (assetId: string) => string,
  ) {}

  typedData(swap: SwapRecord): Promise<unknown> {
    return Promise.resolve(this.#typedData(swap));
  }

  /** The published form: `initiate`'s selector and `[redeemer, timelock, amount.low, amount.high, 8 × u32]`. */
  transaction(swap: SwapRecord): ReturnType<typeof apiTransaction> {
    return apiTransaction(initiateCall(this.htlcOf(swap.asset), initiateTermsOf(swap)));
  }

  /** A wallet's signature: a JSON array of felts (hex, or decimal as starknet.js prints them). */
  signatureOf(value: unknown): { signature: string } | { problem: string } {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SIGNATURE_FELTS) {
      return {
        problem: `signature must be an array of 1 to ${MAX_SIGNATURE_FELTS} felts (a Starknet wallet's)`,
      };
    }
    const felts: string[] = [];
    for (const [i, item] of value.entries()) {
      const felt = feltOf(item);
      if (felt === null)
        return { problem: `signature[${i}] is not a felt (0x-hex or decimal below the prime)` };
      felts.push(feltHex(felt));
    }
    return { signature: felts.join(",") };
  }

  async verify(swap: SwapRecord, signature: string): Promise<string | null> {
    const data = this.#typedData(swap);
    const felts = splitSignature(signature);
    const digest = messageHash(data, swap.initiator);
    let answer: bigint[];
    try {
      answer = await this.rpc.call(swap.initiator, IS_VALID_SIGNATURE, [
        digest,
        BigInt(felts.length),
        ...felts,
      ]);
    } catch (error) {
      return `the source initiator's account ${swap.initiator} could not check the signature: ${(error as Error).message}`;
    }
    if (answer.length === 1 && VALID.includes(answer[0]!)) return null;
    return `signature is not accepted by the source initiator's account ${swap.initiator}`;
  }

  relay(swap: SwapRecord, signature: string): Promise<string> {
    const terms = { ...initiateTermsOf(swap), initiator: swap.initiator };
    const call = initiateWithSignatureCall(this.htlcOf(swap.asset), terms, splitSignature(signature));
    return this.relayer.send("initiate_with_signature", [call]);
  }

  #typedData(swap: SwapRecord) {
    return initiateTypedData({
      layout: this.config.orderIdLayout,
      chainId: this.config.chainId,
      redeemer: swap.redeemer,
      amount: BigInt(swap.amount),
      timelock: BigInt(swap.timelock),
      secretHash: swap.secret_hash,
      htlc: this.htlcOf(swap.asset),
    });
  }
}

function feltOf(item: unknown): bigint | null {
  if (typeof item !== "string") return null;
  try {
    return /^[0-9]{1,78}$/.test(item)
      ? parseFelt(`0x${BigInt(item).toString(16)}`, "felt")
      : parseFelt(item, "felt");
  } catch {
    return null;
  }
}

function splitSignature(signature: string): bigint[] {
  return signature.split(",").map((felt) => BigInt(felt));
}
