/** The live prices a solver quotes from, for people: each asset's price and what each source last said. */
import type { AssetPriceView } from "../../pricing/live/price-book.js";
import { renderTable } from "./table.js";

function sourceText(source: AssetPriceView["sources"][number]): string {
  if (source.price === null) return `${source.label} (${source.error ?? "no answer yet"})`;
  return `${source.label} ${source.price}`;
}

export function formatPrices(views: readonly AssetPriceView[]): string {
  if (views.length === 0) return "prices: every asset on the fixed table (no live sources configured)";
  const rows = views.map((view) => [
    view.assetId,
    view.price ?? `refused: ${view.refusal ?? ""}`,
    view.sources.map(sourceText).join(", "),
  ]);
  return [
    "prices the solver quotes from (USD per unit; the median of each asset's fresh sources):",
    renderTable(["ASSET", "PRICE", "SOURCES"], rows)
      .split("\n")
      .map((line) => `  ${line}`)
      .join("\n"),
  ].join("\n");
}
