/**
 * EVM networks of the live service, by the chain name the service gives them: the EIP-155 chain id, and
 * the tokens whose address the service publishes, with their decimals. docs/live-networks.md cites the
 * source of every entry. A profile chain of one of these names is checked against it offline.
 */
import { getAddress } from "viem";
import { FROM_SERVICE, type AssetConfig } from "../../config/common-chain.js";
import { isNativeToken } from "./assets.js";

interface KnownToken {
  /** The token contract; null for the chain's own coin. */
  address: string | null;
  decimals: number;
}

interface KnownEvmNetwork {
  chainId: number;
  /** By asset symbol, lower-case; only tokens whose address is published. */
  tokens: Record<string, KnownToken>;
}

const coin: KnownToken = { address: null, decimals: 18 };
const token = (address: string, decimals: number): KnownToken => ({ address, decimals });
const CBBTC = "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf";

export const KNOWN_EVM_NETWORKS: Record<string, KnownEvmNetwork> = {
  ethereum: {
    chainId: 1,
    tokens: {
      eth: coin,
      wbtc: token("0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", 8),
      usdc: token("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6),
      cbbtc: token(CBBTC, 8),
    },
  },
  arbitrum: {
    chainId: 42161,
    tokens: {
      eth: coin,
      wbtc: token("0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f", 8),
      usdc: token("0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6),
      ibtc: token("0x050C24dBf1eEc17babE5fc585F06116A259CC77A", 8),
    },
  },
  base: {
    chainId: 8453,
    tokens: {
      eth: coin,
      cbbtc: token(CBBTC, 8),
      usdc: token("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6),
    },
  },
  bera: { chainId: 80094, tokens: { lbtc: token("0xecAc9C5F704e954931349Da37F60E39f515c11c1", 8) } },
  hyperliquid: { chainId: 999, tokens: { ubtc: token("0x9FDBdA0A5e284c32744D2f17Ee5c74B284993463", 8) } },
  unichain: { chainId: 130, tokens: { usdc: token("0x078D782b760474a361dDA0AF3839290b0EF57AD6", 6) } },
  corn: { chainId: 21000000, tokens: { btcn: coin } },
  botanix: { chainId: 3637, tokens: { btc: coin } },
  bnbchain: {
    chainId: 56,
    tokens: {
      btcb: token("0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c", 18),
      usdc: token("0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
    },
  },
  ethereum_sepolia: { chainId: 11155111, tokens: { eth: coin } },
  arbitrum_sepolia: { chainId: 421614, tokens: { eth: coin } },
  base_sepolia: { chainId: 84532, tokens: { eth: coin } },
  citrea_testnet: { chainId: 5115, tokens: { cbtc: coin } },
  monad_testnet: { chainId: 10143, tokens: {} },
  bnbchain_testnet: { chainId: 97, tokens: {} },
};

/** Problems of a chain named like a known network: its chain id, and each known token's address and decimals. */
export function knownNetworkProblems(
  chain: { name: string; chainId: number; assets: readonly AssetConfig[] },
  report: (key: string, message: string) => void,
): void {
  const known = KNOWN_EVM_NETWORKS[chain.name];
  if (known === undefined) return;
  if (chain.chainId !== known.chainId)
    report("chainId", `${chain.chainId} is not ${chain.name}'s chain id ${known.chainId}`);
  chain.assets.forEach((asset, index) => {
    const expected = known.tokens[asset.symbol.toLowerCase()];
    if (expected === undefined) return;
    const at = `assets[${index}]`;
    if (asset.decimals !== expected.decimals)
      report(`${at}.decimals`, `${asset.decimals} differs from ${asset.id}'s ${expected.decimals}`);
    if (asset.tokenAddress === FROM_SERVICE) return;
    const given = isNativeToken(asset.tokenAddress) ? null : getAddress(asset.tokenAddress);
    const wanted = expected.address === null ? null : getAddress(expected.address);
    if (given !== wanted)
      report(
        `${at}.tokenAddress`,
        `${given ?? "native"} is not ${asset.id}'s published token ${wanted ?? "native"}`,
      );
  });
}
