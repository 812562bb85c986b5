/** GET /v2/quote?from&to&from_amount[&slippage]: every solver's quote for the pair, best first. */
import type { QuoteItem } from "htlc-solver/orderbook/types.js";
import type { ServiceContext } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import type { ApiRequest } from "../http/router.js";
import { aggregateQuotes } from "../quotes/aggregate.js";
import { parseAmount, parseBps } from "../validate.js";

export async function getQuote(ctx: ServiceContext, request: ApiRequest): Promise<QuoteItem[]> {
  const from = requireParam(request, "from");
  const to = requireParam(request, "to");
  const fromAmount = parseAmount(request.query.get("from_amount") ?? undefined, "from_amount");
  const slippageText = request.query.get("slippage");
  const slippage = slippageText === null ? null : parseBps(slippageText, "slippage");
  const source = ctx.registry.asset(from);
  if (source === undefined) throw badRequest(`from ${from} is not a supported asset`);
  if (ctx.registry.asset(to) === undefined) throw badRequest(`to ${to} is not a supported asset`);
  if (from === to) throw badRequest(`from and to are both ${from}`);
  const { minAmount, maxAmount } = source.config;
  if (fromAmount < BigInt(minAmount) || fromAmount > BigInt(maxAmount)) {
    throw badRequest(`from_amount ${fromAmount} is outside ${minAmount}..${maxAmount} for ${from}`);
  }
  const quotes = await aggregateQuotes(
    ctx.registry.allSolvers(),
    { from, to, fromAmount, ...(slippage === null ? {} : { slippage }) },
    ctx.quoteTimeoutMs,
    ctx.logger,
  );
  if (quotes.length === 0) throw notFound(`no quote for ${from} -> ${to}`);
  return quotes;
}

function requireParam(request: ApiRequest, name: string): string {
  const value = request.query.get(name);
  if (value === null || value === "") throw badRequest(`query parameter ${name} is required`);
  return value;
}
