/**
 * Listening with a deep accept queue. Node asks the kernel for 511 pending connections; when a burst opens
 * more new connections than that at once (a service fanning a thousand quotes out), the kernel drops the
 * SYNs beyond it and each of those clients waits a full SYN retry (1 s, then 3 s) before it is heard, so
 * the tail of the burst misses a 3 s quote timeout although every answer takes milliseconds. The kernel
 * caps the queue at net.core.somaxconn.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:net";

export const LISTEN_BACKLOG = 4096;

/**
 * Above the 90 s idle timeout of common HTTP client pools: Node's own 5 s closes, between two bursts of
 * quotes, the connections the service would reuse, and a burst of new connections costs the solver more
 * CPU in accepting and closing them than in pricing.
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 95_000;

export function listen(server: Server, port: number, host: string, backlog = LISTEN_BACKLOG): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The kernel's cap on any accept queue (Linux), or null where it cannot be read. */
export function kernelListenQueueCap(path = "/proc/sys/net/core/somaxconn"): number | null {
  try {
    const cap = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isSafeInteger(cap) && cap > 0 ? cap : null;
  } catch {
    return null;
  }
}
