/** Why the solver will not quote or fill: a stable machine reason plus a message for people. */
export type RefusalReason =
  | "no_strategy"
  | "unknown_asset"
  | "price_unavailable"
  | "price_stale"
  | "price_sources_disagree"
  | "price_depegged"
  | "pair_disabled"
  | "below_min"
  | "above_max"
  | "above_order_limit"
  | "nothing_after_fees"
  | "insufficient_inventory"
  | "insufficient_gas"
  | "inventory_unavailable"
  | "exposure_limit"
  | "price_moved"
  | "secret_length_unenforced";

/**
 * Whether a refusal is a verdict on the order (`refuse`: it will not become fillable, so a declined
 * Bitcoin source may be handed its instant refund) or on the solver's own state of the moment (`wait`:
 * inventory, exposure or a price feed that may recover; the order stays open). A refund handed out on a
 * passing condition would let the user refund the source and still take the later fill. Every reason is
 * classified here, once, so a new reason cannot be added without deciding which it is.
 */
const REFUSAL_OUTCOME: Record<RefusalReason, "refuse" | "wait"> = {
  no_strategy: "refuse",
  unknown_asset: "refuse",
  below_min: "refuse",
  above_max: "refuse",
  above_order_limit: "refuse",
  nothing_after_fees: "refuse",
  price_moved: "refuse",
  secret_length_unenforced: "refuse",
  price_unavailable: "wait",
  // Prices that are old, disagree or show a de-peg say nothing about the order; the market may recover.
  price_stale: "wait",
  price_sources_disagree: "wait",
  price_depegged: "wait",
  // The operator can switch a pair back on by a reload: refunding now would let the user take both sides.
  pair_disabled: "wait",
  insufficient_inventory: "wait",
  insufficient_gas: "wait",
  inventory_unavailable: "wait",
  exposure_limit: "wait",
};

export function refusalOutcome(reason: RefusalReason): "refuse" | "wait" {
  return REFUSAL_OUTCOME[reason];
}

export interface QuoteRefusal {
  ok: false;
  reason: RefusalReason;
  message: string;
}

export function refuse(reason: RefusalReason, message: string): QuoteRefusal {
  return { ok: false, reason, message };
}

export function isRefusal(value: unknown): value is QuoteRefusal {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { ok?: unknown }).ok === false &&
    typeof (value as { reason?: unknown }).reason === "string"
  );
}
