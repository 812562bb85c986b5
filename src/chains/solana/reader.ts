/**
 * What a Solana cluster says about one swap. The swap account is read at the program address of the
 * order's own terms: a program-owned SwapAccount there can only have been initiated with exactly those
 * terms (the programs check it), so a service that misstates a term points at an empty address. A live
 * account is one unspent lock; an absent one is read from its history (how it closed, the secret).
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChainConfig } from "../../config/types.js";
import { absentHtlc, type ChainReader, type HtlcParams, type HtlcState } from "../chain.js";
import { solanaAddress } from "./address.js";
import { resolveSolanaAsset, type SolanaAsset } from "./assets.js";
import { SolanaDecodeError } from "./errors.js";
import type { SolanaRpc, SolanaAccount } from "./rpc.js";
import { decodeNativeSwapAccount, decodeSplSwapAccount } from "./swap-account.js";
import { solanaSwapId } from "./swap-id.js";
import { eventMatches, SwapHistory } from "./swap-history.js";
import { hexBytes, swapAccountOf, swapTermsOf } from "./swap-params.js";
import { historicSwapState, liveSwapState, type LiveSwap } from "./swap-state.js";
import type { SwapTerms } from "./swap-terms.js";

export class SolanaReader implements ChainReader {
  readonly family = "solana" as const;
  /** Both programs take the secret as [u8; 32]. */
  readonly secretLength = 32;
  /** Orders name the parties by their own addresses, which are the keys in the swap. */
  readonly userKeyIsDelegate = false;
  readonly chain: string;
  readonly history: SwapHistory;
  readonly nativeProgram: PublicKey;
  readonly splProgram: PublicKey;

  constructor(
    readonly config: SolanaChainConfig,
    readonly rpc: SolanaRpc,
  ) {
    this.chain = config.name;
    this.history = new SwapHistory(rpc, { commitment: config.commitment });
    this.nativeProgram = solanaAddress(config.nativeProgramId, `nativeProgramId of ${config.name}`);
    this.splProgram = solanaAddress(config.splProgramId, `splProgramId of ${config.name}`);
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

  async readHtlc(params: HtlcParams): Promise<HtlcState> {
    const asset = resolveSolanaAsset(this.config, params.asset);
    const terms = swapTermsOf(params);
    const address = swapAccountOf(asset, terms);
    const live = await this.liveSwap(asset, address);
    if (live !== null) return liveSwapState(live);
    const events = await this.history.events(address, asset.kind, asset.programId);
    const ours = events.filter((e) => eventMatches(e.event, terms, asset.mint));
    return ours.length === 0 ? absentHtlc() : historicSwapState(address, ours);
  }

  /** The swap stored at `address` now, or null when no swap of the asset's program lives there. */
  async liveSwap(asset: SolanaAsset, address: PublicKey): Promise<LiveSwap | null> {
    const { account } = await this.rpc.getAccount(address, this.config.commitment);
    return account === null ? null : decodeLiveSwap(asset, address, account);
  }

  /** The swap account of an order side. */
  swapAccount(params: HtlcParams): { asset: SolanaAsset; terms: SwapTerms; address: PublicKey } {
    const asset = resolveSolanaAsset(this.config, params.asset);
    const terms = swapTermsOf(params);
    return { asset, terms, address: swapAccountOf(asset, terms) };
  }
}

/**
 * A swap account of the asset's program, or null for anything else at the address: lamports someone
 * sent there (a System account), or a closed account. A program-owned account that does not decode, or
 * of another mint, is an error: the programs never leave one.
 */
export function decodeLiveSwap(
  asset: SolanaAsset,
  address: PublicKey,
  account: SolanaAccount,
): LiveSwap | null {
  if (!account.owner.equals(asset.programId) || account.data.length === 0) return null;
  if (asset.mint === null) return { address, ...decodeNativeSwapAccount(account.data) };
  const swap = decodeSplSwapAccount(account.data);
  if (!swap.mint.equals(asset.mint)) {
    throw new SolanaDecodeError(
      `swap data ${address.toBase58()} holds mint ${swap.mint.toBase58()}, not ${asset.id}'s`,
    );
  }
  return { address, ...swap };
}
