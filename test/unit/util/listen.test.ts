import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kernelListenQueueCap, listen, LISTEN_BACKLOG } from "../../../src/util/listen.js";
import { acceptQueueOf } from "../../support/accept-queue.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function started(): Server {
  const server = createServer();
  servers.push(server);
  return server;
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server is not listening on TCP");
  return address.port;
}

describe("listen", () => {
  it("asks the kernel for the given accept queue, not Node's 511", async () => {
    const server = started();
    await listen(server, 0, "127.0.0.1", 1234);
    const cap = kernelListenQueueCap();
    expect(acceptQueueOf(portOf(server))).toBe(Math.min(1234, cap ?? 1234));
  });

  it("asks for a deep queue by default", async () => {
    const server = started();
    await listen(server, 0, "127.0.0.1");
    const cap = kernelListenQueueCap() ?? LISTEN_BACKLOG;
    expect(acceptQueueOf(portOf(server))).toBe(Math.min(LISTEN_BACKLOG, cap));
    expect(acceptQueueOf(portOf(server))).toBeGreaterThan(511);
  });

  it("rejects naming the port when it is taken", async () => {
    const first = started();
    await listen(first, 0, "127.0.0.1");
    const port = portOf(first);
    await expect(listen(started(), port, "127.0.0.1")).rejects.toThrow(new RegExp(`EADDRINUSE.*${port}`));
  });
});

describe("kernelListenQueueCap", () => {
  const dir = mkdtempSync(join(tmpdir(), "somaxconn-"));

  it("reads the kernel's cap", () => {
    const file = join(dir, "somaxconn");
    writeFileSync(file, "4096\n");
    expect(kernelListenQueueCap(file)).toBe(4096);
  });

  it("is null where the cap is missing or not a positive number", () => {
    const garbage = join(dir, "garbage");
    writeFileSync(garbage, "lots\n");
    expect(kernelListenQueueCap(garbage)).toBeNull();
    expect(kernelListenQueueCap(join(dir, "absent"))).toBeNull();
  });
});
