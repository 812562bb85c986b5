/**
 * What the solver may take out of its wallet on one chain without touching what live fills need: the
 * one rule the operator's commands share (`solver balances` shows it, `solver withdraw` checks it again
 * right before it signs).
 *
 * - on chain: the executor's balance, the one the runner reads (src/chains/chain.ts `balance`): the
 *   chain's, less what the journal's live transactions still spend once they land;
 * - committed: fills claimed but not signed yet, still in the wallet and already promised;
 * - fee reserve: for the chain's own coin, its inventory floor (`limits.inventoryFloor`), which the fill
 *   rule keeps for the fees of fills, redeems and refunds (src/pricing/capacity.ts); none for a token;
 * - free = on chain − committed − fee reserve.
 * A token's floor stops fills below it, but holds nothing back from a withdrawal; a target is shown only.
 */
import { coinOf } from "../chains/coins.js";
import type { PreparedChain } from "../chains/family-module.js";
import type { AssetConfig, SolverConfig } from "../config/types.js";
import type { Journal } from "../journal/journal.js";
import { formatUnits } from "../pricing/decimal.js";

export interface AssetInventory {
  chain: string;
  asset: AssetConfig;
  /** The chain's coin (its fees are paid in it). */
  isCoin: boolean;
  onChain: bigint;
  committed: bigint;
  /** Every fill of an open order not refunded (signed, mined or only claimed): the exposure, for the record. */
  inFlight: bigint;
  feeReserve: bigint;
  free: bigint;
  floor: bigint;
  /** The inventory curve's target, null when the asset has none. */
  target: bigint | null;
}

/** Reads the journal before the chain, as the executors do: a fill signed in between counts once. */
export async function assetInventory(
  config: SolverConfig,
  journal: Journal,
  chain: PreparedChain,
  asset: AssetConfig,
): Promise<AssetInventory> {
  const committed = journal.plannedFillsByAsset().get(asset.id) ?? 0n;
  const inFlight = journal.inFlightByAsset().get(asset.id) ?? 0n;
  const onChain = await chain.executor.balance(asset.id);
  const isCoin = coinOf(chain.config)?.id === asset.id;
  const floor = config.limits.inventoryFloor[asset.id] ?? 0n;
  const feeReserve = isCoin ? floor : 0n;
  return {
    chain: chain.config.name,
    asset,
    isCoin,
    onChain,
    committed,
    inFlight,
    feeReserve,
    free: onChain - committed - feeReserve,
    floor,
    target: config.inventoryCurves[asset.id]?.target ?? null,
  };
}

/** Every configured asset of every chain, chain by chain in configuration order. */
export async function allInventories(
  config: SolverConfig,
  journal: Journal,
  chains: ReadonlyMap<string, PreparedChain>,
): Promise<AssetInventory[]> {
  const result: AssetInventory[] = [];
  for (const chain of chains.values()) {
    const assets = await Promise.all(
      chain.config.assets.map((asset) => assetInventory(config, journal, chain, asset)),
    );
    result.push(...assets);
  }
  return result;
}

function show(amount: bigint, asset: AssetConfig): string {
  return `${formatUnits(amount, asset.decimals)} ${asset.symbol}`;
}

/**
 * Why a withdrawal of `amount` of `of` is refused, naming the numbers; null when it may go. `coin` is the
 * chain's coin, which pays the transaction's fee (at most `maxFee`); null when the chain lists none.
 */
export function withdrawalRefusal(
  of: AssetInventory,
  coin: AssetInventory | null,
  amount: bigint,
  maxFee: bigint,
): string | null {
  const asset = of.asset;
  if (amount > of.free) {
    const parts = `on chain ${show(of.onChain, asset)} - committed to live fills ${show(of.committed, asset)} - fee reserve ${show(of.feeReserve, asset)}`;
    return `${show(amount, asset)} exceeds the free ${show(of.free < 0n ? 0n : of.free, asset)} of ${asset.id} (${parts})`;
  }
  if (coin === null) return `${of.chain} lists no asset for its coin: the withdrawal's fee cannot be checked`;
  const coinLeft = coin.free - (coin.asset.id === asset.id ? amount : 0n);
  if (coinLeft < maxFee)
    return `the withdrawal's fee, up to ${show(maxFee, coin.asset)}, exceeds the ${show(coinLeft < 0n ? 0n : coinLeft, coin.asset)} of free ${coin.asset.id} left beside it (fee reserve ${show(coin.feeReserve, coin.asset)} kept)`;
  return null;
}
