/** Why the solver will not quote or fill: a stable machine reason plus a message for people. */
export type RefusalReason =
  | "no_strategy"
  | "unknown_asset"
  | "price_unavailable"
  | "below_min"
  | "above_max"
  | "above_order_limit"
  | "nothing_after_fees"
  | "insufficient_inventory"
  | "inventory_unavailable"
  | "exposure_limit"
  | "price_moved";

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
