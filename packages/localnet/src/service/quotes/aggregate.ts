/** Asks every registered solver at once and keeps the answers that are quotes, best first. */
import type { Logger } from "pino";
import type { QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalServiceSolverConfig } from "../config.js";
import { requestSolverQuote, type QuoteRequest } from "./solver-client.js";

export async function aggregateQuotes(
  solvers: LocalServiceSolverConfig[],
  request: QuoteRequest,
  timeoutMs: number,
  logger: Logger,
): Promise<QuoteItem[]> {
  const outcomes = await Promise.all(
    solvers.map(async (solver) => ({
      solver,
      outcome: await requestSolverQuote(solver, request, timeoutMs),
    })),
  );
  const quotes: QuoteItem[] = [];
  for (const { solver, outcome } of outcomes) {
    if (outcome.kind === "quote") quotes.push(outcome.quote);
    else
      logger.info({ solver: solver.id, kind: outcome.kind, reason: outcome.reason }, "solver gave no quote");
  }
  return quotes.sort(byDestinationAmountDesc);
}

function byDestinationAmountDesc(a: QuoteItem, b: QuoteItem): number {
  const left = BigInt(a.destination.amount);
  const right = BigInt(b.destination.amount);
  if (left !== right) return left > right ? -1 : 1;
  return a.solver_id < b.solver_id ? -1 : a.solver_id > b.solver_id ? 1 : 0;
}
