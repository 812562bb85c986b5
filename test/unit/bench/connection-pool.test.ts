import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { poolFetchConnections } from "../../bench/load/connection-pool.js";

let server: Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** 100 concurrent fetches, each answered after 50 ms; returns the connections the server accepted. */
async function connectionsForBurst(): Promise<number> {
  let connections = 0;
  server = createServer((_request, response) => {
    setTimeout(() => response.end("ok"), 50);
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) => fetch(`http://127.0.0.1:${port}/${i}`).then((r) => r.text())),
  );
  expect(answers.every((text) => text === "ok")).toBe(true);
  return connections;
}

describe("load benchmark: fetch's connections per origin", () => {
  it("opens one connection per concurrent request without the pool", async () => {
    expect(await connectionsForBurst()).toBeGreaterThan(50);
  });

  it("reuses at most the pool's connections, and gives back the previous pool", async () => {
    const unpool = poolFetchConnections(8);
    try {
      expect(await connectionsForBurst()).toBeLessThanOrEqual(8);
    } finally {
      await unpool();
    }
    expect(await connectionsForBurst()).toBeGreaterThan(50);
  });
});
