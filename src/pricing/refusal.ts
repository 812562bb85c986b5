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
  | "network_fee_unavailable"
  | "network_fees"
  | "secret_length_unenforced"
  | "state_stale";

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
  // The quote thread's copy of prices and inventory is old: the main thread is busy or stuck, not the order.
  state_stale: "wait",
  // A chain's fees are read again in the background; a fee estimate that fails now may be read later.
  network_fee_unavailable: "wait",
  // Network fees fall as well as rise: the order may pay for them later, until its deadline refuses it.
  network_fees: "wait",
};

export function refusalOutcome(reason: RefusalReason): "refuse" | "wait" {
  return REFUSAL_OUTCOME[reason];
}

/**
 * What the quote endpoint tells its caller about each refusal, beside the reason: fixed text that names
 * no balance, inventory, exposure, floor or limit of the solver. The refusal's own message carries those
 * figures for the solver's log and journal; sent out, they would tell anyone who asks how much the solver
 * holds and how much it has at stake.
 */
const PUBLIC_MESSAGE: Record<RefusalReason, string> = {
  no_strategy: "this solver does not quote this pair in this direction",
  unknown_asset: "this solver cannot price one of the assets",
  price_unavailable: "no usable price for one of the assets now",
  price_stale: "the prices of one of the assets are not fresh enough now",
  price_sources_disagree: "the price sources of one of the assets disagree now",
  price_depegged: "a pegged asset is too far from its peg now",
  pair_disabled: "this pair is switched off",
  below_min: "the amount is below this pair's minimum",
  above_max: "the amount is above this pair's maximum",
  above_order_limit: "the amount is above this solver's per-order limit",
  nothing_after_fees: "the amount leaves nothing after fees",
  insufficient_inventory: "this solver cannot fill this amount now",
  insufficient_gas: "this solver cannot pay the destination chain's fees now",
  inventory_unavailable: "this solver cannot read its inventory now",
  exposure_limit: "this solver takes on no more open fills now",
  price_moved: "the price moved beyond this solver's tolerance",
  secret_length_unenforced:
    "the destination accepts secrets of a length the source refuses; this solver does not fill the pair",
  state_stale: "this solver's prices and inventory are not fresh enough to quote now",
  network_fee_unavailable: "this solver has no fresh network fee estimate of one of the chains now",
  network_fees: "the amount does not cover the network fees of the swap now",
};

/** The refusal as the quote endpoint sends it: `<reason>: <fixed text>`, never the detailed message. */
export function publicRefusalText(refusal: QuoteRefusal): string {
  return `${refusal.reason}: ${PUBLIC_MESSAGE[refusal.reason]}`;
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
