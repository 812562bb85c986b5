/**
 * What the solver holds of each asset, read from the chains themselves (not through the solver's code):
 * EVM tokens and coin, the mined outputs of its Bitcoin wallet address, its lamports and its SPL token
 * account, its Starknet account's token balances, and its Sui account's coins.
 */
import { createPublicClient, http, type Address } from "viem";
import { erc20Abi } from "../../src/chains/evm/htlc-abi.js";
import type { TestLocalnet } from "../support/localnet.js";
import { solverBitcoin, solverSolana } from "../e2e/swaps/solana-support.js";
import { chainOf, type Family } from "./pairs.js";

export async function solverHoldings(
  t: TestLocalnet,
  assetIds: readonly string[],
  familyOf: (chain: string) => Family,
): Promise<Map<string, bigint>> {
  const result = new Map<string, bigint>();
  for (const assetId of assetIds) {
    const family = familyOf(chainOf(assetId));
    if (family === "bitcoin") result.set(assetId, await solverBitcoin(t));
    else if (family === "solana") result.set(assetId, await solverSolana(t, assetId));
    else if (family === "starknet") result.set(assetId, starknetHolding(t, assetId));
    else if (family === "sui") result.set(assetId, suiHolding(t, assetId));
    else result.set(assetId, await evmHolding(t, assetId));
  }
  return result;
}

/** The local Starknet chain's own balance of the solver's account (its state, as `balance_of` answers). */
function starknetHolding(t: TestLocalnet, assetId: string): bigint {
  // The solver's assets, not the service's: STRK pays the fees and is one, though the service offers none.
  const asset = t.net.solverConfig.chains.flatMap((c) => c.assets).find((a) => a.id === assetId);
  if (asset === undefined) throw new Error(`asset ${assetId} is not the solver's on the localnet`);
  return t.net.starknet.local.balanceOf(asset.tokenAddress, t.net.descriptor.solver.starknetAddress);
}

/** The local Sui chain's own sum of the solver's coins of the asset's type. */
function suiHolding(t: TestLocalnet, assetId: string): bigint {
  const asset = t.net.descriptor.sui.assets.find((a) => a.id === assetId);
  if (asset === undefined) throw new Error(`asset ${assetId} is not on the localnet's Sui chain`);
  return t.net.sui.local.balanceOf(asset.coinType, t.net.descriptor.solver.suiAddress);
}

async function evmHolding(t: TestLocalnet, assetId: string): Promise<bigint> {
  const chain = t.net.descriptor.chains.find((c) => c.name === chainOf(assetId));
  const asset = chain?.assets.find((a) => a.id === assetId);
  if (chain === undefined || asset === undefined) throw new Error(`asset ${assetId} is not on the localnet`);
  const owner = t.net.descriptor.solver.evmAddress as Address;
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  if (asset.tokenAddress === "native") return client.getBalance({ address: owner });
  return client.readContract({
    address: asset.tokenAddress as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}
