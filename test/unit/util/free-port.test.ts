import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../../../src/util/free-port.js";

describe("freePort", () => {
  it("hands out ports below the OS's client port range that a server can then take", async () => {
    const first = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    // Never the same port twice, though none of them is bound yet.
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(first);
    }
    const server = createServer();
    const port = ports[0] ?? 0;
    await new Promise<void>((resolve, reject) => {
      server.on("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    // A port in use is never handed out again while it is taken.
    const again = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(again).not.toContain(port);
    await new Promise((resolve) => server.close(resolve));
  });

  it("keeps each test worker to a slice of the range of its own, so workers never take each other's ports", async () => {
    const saved = process.env["VITEST_POOL_ID"];
    try {
      const slice = async (worker: string) => {
        process.env["VITEST_POOL_ID"] = worker;
        return Promise.all(Array.from({ length: 20 }, () => freePort()));
      };
      const [first, second] = [await slice("1"), await slice("2")];
      expect(Math.max(...first)).toBeLessThan(Math.min(...second));
    } finally {
      if (saved === undefined) delete process.env["VITEST_POOL_ID"];
      else process.env["VITEST_POOL_ID"] = saved;
    }
  });
});
