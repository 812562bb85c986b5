/** The Solana swap a swap record describes: its asset, terms and swap account (shared by watcher and redeem). */
import type { PublicKey } from "@solana/web3.js";
import {
  resolveSolanaAsset,
  type SolanaAsset,
  type SolanaAssetsConfig,
} from "htlc-solver/chains/solana/assets.js";
import { htlcInterfaceOf } from "htlc-solver/chains/solana/htlc-interface.js";
import { swapTermsOf } from "htlc-solver/chains/solana/swap-params.js";
import type { SwapTerms as SolanaSwapTerms } from "htlc-solver/chains/solana/swap-terms.js";
import { recordParams } from "htlc-solver/orderbook/record-params.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { LocalServiceSolanaChainConfig } from "./solana-config.js";

export interface RecordSwap {
  asset: SolanaAsset;
  terms: SolanaSwapTerms;
  address: PublicKey;
}

/** The chain in the shape the solver's Solana code reads its programs and assets from. */
export function solanaChainView(config: LocalServiceSolanaChainConfig): SolanaAssetsConfig {
  return {
    name: config.name,
    nativeProgramId: config.nativeProgramId,
    splProgramId: config.splProgramId,
    assets: config.assets.map((asset) => ({
      id: `${config.name}:${asset.symbol}`,
      chain: config.name,
      symbol: asset.symbol,
      decimals: asset.decimals,
      tokenAddress: asset.tokenAddress,
      htlcAddress: asset.tokenAddress === "native" ? config.nativeProgramId : config.splProgramId,
    })),
  };
}

export function swapOfRecord(config: LocalServiceSolanaChainConfig, swap: SwapRecord): RecordSwap {
  const asset = resolveSolanaAsset(solanaChainView(config), swap.asset);
  const terms = swapTermsOf(recordParams(swap));
  return { asset, terms, address: htlcInterfaceOf(config.programVersion).swapAddress(asset, terms) };
}
