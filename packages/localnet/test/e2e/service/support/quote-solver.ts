/**
 * A tiny stand-in for a solver's quote endpoint (the solver quote protocol, not a chain): answers
 * `GET /quote?from&to&from_amount` with a QuoteItem at a fixed rate, or refuses when told to.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { QuoteItem } from "htlc-solver/orderbook/types.js";

export interface QuoteSolver {
  id: string;
  url: string;
  /** Requests seen, newest last. */
  calls: URLSearchParams[];
  /** Destination amount = from_amount * rateBps / 10000. */
  rateBps: bigint;
  /** When set, every quote is refused with this reason. */
  refuse: string | null;
  stop(): Promise<void>;
}

export async function startQuoteSolver(id: string, rateBps: bigint): Promise<QuoteSolver> {
  const solver: Omit<QuoteSolver, "url" | "stop"> = { id, calls: [], rateBps, refuse: null };
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    solver.calls.push(query);
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (solver.refuse !== null) return reply(422, { status: "Error", error: solver.refuse });
    const amount = BigInt(query.get("from_amount") ?? "0");
    const destination = (amount * solver.rateBps) / 10_000n;
    const quote: QuoteItem = {
      source: { asset: query.get("from") ?? "", amount: amount.toString(), display: "0", value: "0" },
      destination: { asset: query.get("to") ?? "", amount: destination.toString(), display: "0", value: "0" },
      solver_id: id,
      estimated_time: 30,
      slippage: 0,
      fee: 30,
      fixed_fee: "0",
    };
    reply(200, { status: "Ok", result: quote });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(solver, { url: `http://127.0.0.1:${port}/quote`, stop: () => closeServer(server) });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
