/**
 * The benchmark's users reach the local service as real clients do: over a few kept-alive connections
 * per origin (a browser keeps six), not one new connection per concurrent request, which is what
 * Node's `fetch` opens by default.
 *
 * Node accepts one connection per turn of its event loop (under strace: one `accept4` per
 * `epoll_wait`), and the local service shares the benchmark's busy loop. With every user's requests on
 * new connections, 1,000 opened at once sat in the service's accept queue and were taken at about ten
 * a second while the swaps ran: each new connection to the service, the solver's listing pages among
 * them, waited up to 17 s, and order creations up to 22 s. The queue holds no one's connections long
 * when the users share a bounded pool.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from "undici";

/** Connections one origin gets from everything in the benchmark's process that uses `fetch`. */
export const CONNECTIONS_PER_ORIGIN = 64;

/** Bounds `fetch`'s connections per origin in this process; returns a function that puts back the previous pool. */
export function poolFetchConnections(connections = CONNECTIONS_PER_ORIGIN): () => Promise<void> {
  const previous: Dispatcher = getGlobalDispatcher();
  const pool = new Agent({ connections });
  setGlobalDispatcher(pool);
  return async () => {
    setGlobalDispatcher(previous);
    await pool.close();
  };
}
