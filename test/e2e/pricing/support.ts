/** Reads of the localnet solver's prices, quotes and balances for the pricing tests. */
import type { TestLocalnet } from "../../support/localnet.js";

/** The price the solver's live sources give an asset now, or null when it is refused. */
export function priceOf(t: TestLocalnet, assetId: string): string | null {
  return t.net.solver!.pricing.describePrices().find((p) => p.assetId === assetId)?.price ?? null;
}

/** The solver's refusal of a quote as `reason: message`, or null when it quotes. */
export async function quoteRefusal(
  t: TestLocalnet,
  from: string,
  to: string,
  amount: bigint,
): Promise<string | null> {
  const answer = await t.net.solver!.pricing.quote({ from, to, fromAmount: amount });
  return "reason" in answer ? `${answer.reason}: ${answer.message}` : null;
}

/** The solver's balance of every configured asset on every chain, read from its own nodes. */
export async function solverBalances(t: TestLocalnet): Promise<Record<string, bigint>> {
  const app = t.net.solver!;
  const balances: Record<string, bigint> = {};
  for (const chain of t.net.solverConfig.chains) {
    const executor = app.chains.get(chain.name)!.executor;
    for (const asset of chain.assets) balances[asset.id] = await executor.balance(asset.id);
  }
  return balances;
}
