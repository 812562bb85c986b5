import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Ports handed out lie below the range the OS picks client ports from: a port chosen now is often bound
 * seconds later (a node, a server started after the chains), and in between any outgoing connection on
 * the machine could otherwise take it as its local port.
 */
const LOW_PORT = 20_000;
const TRIES = 50;
/**
 * Ports this process has handed out: a port is often bound seconds after it is chosen, and a random
 * choice could otherwise give it out again in between.
 */
const handedOut = new Set<number>();

/** First port of the OS's range for client (ephemeral) ports; 32768 where it cannot be read (Linux's default). */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > LOW_PORT + 1_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether a listener can take this port on loopback now (0: any port; the one taken is returned). */
function probe(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const taken = address !== null && typeof address !== "string" ? address.port : null;
      server.close(() => resolve(taken));
    });
  });
}

/**
 * Test runners start localnets in several processes at once. A solver killed and started again takes its
 * ports back, and in between another process choosing at random could take one; so each test worker
 * (`VITEST_POOL_ID`, 1 to the worker count) chooses in a slice of the range of its own.
 */
const WORKER_SLICES = 8;

function choiceRange(): { low: number; size: number } {
  const top = ephemeralStart();
  const worker = Number(process.env["VITEST_POOL_ID"]);
  if (!Number.isInteger(worker) || worker < 1) return { low: LOW_PORT, size: top - LOW_PORT };
  const size = Math.floor((top - LOW_PORT) / WORKER_SLICES);
  return { low: LOW_PORT + ((worker - 1) % WORKER_SLICES) * size, size };
}

/** A port free on loopback right now, chosen at random below the OS's client port range. */
export async function freePort(): Promise<number> {
  const { low, size } = choiceRange();
  for (let i = 0; i < TRIES; i++) {
    const candidate = low + Math.floor(Math.random() * size);
    if (handedOut.has(candidate)) continue;
    const port = await probe(candidate);
    if (port === null) continue;
    handedOut.add(port);
    return port;
  }
  const any = await probe(0);
  if (any === null) throw new Error("could not find a free port on loopback");
  handedOut.add(any);
  return any;
}
