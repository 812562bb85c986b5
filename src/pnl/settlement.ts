/**
 * An order's realised result, from the journal's rows: what the solver received (its source redeem),
 * gave (its fill) and got back (its destination refund), and every network fee its mined transactions
 * paid. Pure, so each rule is testable without a journal.
 */
import type { ActionKind } from "../chains/chain.js";
import type { LegKind } from "../journal/pnl-store.js";

export interface SettlementAction {
  id: number;
  kind: ActionKind;
  /** Only `confirmed` actions moved money (mined, or seen done on chain). */
  confirmed: boolean;
  asset: string;
  amount: bigint;
}

export interface SettlementAttempt {
  id: number;
  chain: string;
  /** Every action the transaction carried, this order's and others' (a Bitcoin batch redeem). */
  actionIds: readonly number[];
  /** What it paid once mined (or reverted on chain); null when it never was. */
  feePaid: bigint | null;
}

export interface FeeAsset {
  id: string;
  decimals: number;
}

export interface UnpricedLeg {
  kind: LegKind;
  asset: string;
  decimals: number;
  /** Signed smallest units: positive received, negative given or paid. */
  amount: bigint;
  attemptId: number | null;
}

const ACTION_LEGS: Partial<Record<ActionKind, { kind: LegKind; sign: bigint }>> = {
  fill: { kind: "destination_given", sign: -1n },
  redeem: { kind: "source_received", sign: 1n },
  refund: { kind: "destination_refunded", sign: 1n },
};

/**
 * This order's share of a transaction's fee: split evenly over the actions it carried, the remainder to
 * the lowest action id, so that the shares of all orders add up to the fee exactly.
 */
export function feeShare(attempt: SettlementAttempt, ownActionIds: ReadonlySet<number>): bigint {
  if (attempt.feePaid === null || attempt.actionIds.length === 0) return 0n;
  const ids = [...attempt.actionIds].sort((a, b) => a - b);
  const count = BigInt(ids.length);
  const base = attempt.feePaid / count;
  const remainder = attempt.feePaid - base * count;
  return ids.reduce(
    (share, id, index) => (ownActionIds.has(id) ? share + base + (index === 0 ? remainder : 0n) : share),
    0n,
  );
}

export function settlementLegs(
  actions: readonly SettlementAction[],
  attempts: readonly SettlementAttempt[],
  decimalsOf: (assetId: string) => number,
  feeAssetOf: (chain: string) => FeeAsset,
): UnpricedLeg[] {
  const legs: UnpricedLeg[] = [];
  for (const action of actions) {
    const rule = ACTION_LEGS[action.kind];
    if (rule === undefined || !action.confirmed) continue;
    legs.push({
      kind: rule.kind,
      asset: action.asset,
      decimals: decimalsOf(action.asset),
      amount: rule.sign * action.amount,
      attemptId: null,
    });
  }
  const own = new Set(actions.map((a) => a.id));
  for (const attempt of attempts) {
    const share = feeShare(attempt, own);
    if (share === 0n) continue;
    const fee = feeAssetOf(attempt.chain);
    legs.push({
      kind: "network_fee",
      asset: fee.id,
      decimals: fee.decimals,
      amount: -share,
      attemptId: attempt.id,
    });
  }
  return legs;
}
