import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PooledGetError, pooledGetText } from "../../../src/service/quotes/pooled-get.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: URL; connections: () => number }> {
  let connections = 0;
  const server = createServer(handle);
  server.on("connection", () => (connections += 1));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/quote?from=a`), connections: () => connections };
}

async function failureOf(promise: Promise<unknown>): Promise<PooledGetError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PooledGetError)) throw new Error(`expected a PooledGetError, got ${String(error)}`);
  return error;
}

describe("pooledGetText", () => {
  it("answers each request of a burst, and the next burst over the connections the first opened", async () => {
    const solver = await serve((request, response) => {
      setTimeout(() => response.end(request.url ?? ""), 2);
    });
    const burst = async (tag: string): Promise<void> => {
      const urls = Array.from({ length: 400 }, (_, i) => new URL(`${solver.url.href}&burst=${tag}&n=${i}`));
      const answers = await Promise.all(urls.map((url) => pooledGetText(url, 10_000)));
      expect(answers).toEqual(urls.map((url) => `${url.pathname}${url.search}`));
    };
    await burst("first");
    const opened = solver.connections();
    expect(opened).toBeGreaterThan(1);
    expect(opened).toBeLessThanOrEqual(400);
    // More than Node's default of 256 kept: the second burst opens none.
    await burst("second");
    expect(solver.connections()).toBe(opened);
  });

  it("reads the body whatever the status", async () => {
    const solver = await serve((_, response) => {
      response.writeHead(422, { "content-type": "application/json" });
      response.end('{"status":"Error","error":"no_strategy"}');
    });
    expect(await pooledGetText(solver.url, 5_000)).toBe('{"status":"Error","error":"no_strategy"}');
  });

  it("gives up after its time, naming it", async () => {
    const silent = await serve(() => undefined);
    const error = await failureOf(pooledGetText(silent.url, 150));
    expect(error).toMatchObject({ kind: "timeout", message: "no answer within 150 ms" });
  });

  it("refuses an answer far larger than a quote", async () => {
    const flood = await serve((_, response) => response.end("x".repeat(200_000)));
    expect(await failureOf(pooledGetText(flood.url, 5_000))).toMatchObject({ kind: "too_large" });
  });

  it("names a solver that is not listening", async () => {
    const gone = await serve(() => undefined);
    const url = gone.url;
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    expect(await failureOf(pooledGetText(url, 5_000))).toMatchObject({
      kind: "network",
      message: "ECONNREFUSED",
    });
  });

  it("asks again once when a kept connection was closed by the solver as it was reused", async () => {
    const seen = new WeakSet<object>();
    let dropped = 0;
    const solver = await serve((request, response) => {
      // The second request on a kept connection finds it closed, as when an idle timeout races it.
      if (seen.has(request.socket) && dropped === 0) {
        dropped += 1;
        request.socket.destroy();
        return;
      }
      seen.add(request.socket);
      response.end("quoted");
    });
    expect(await pooledGetText(solver.url, 5_000)).toBe("quoted");
    expect(await pooledGetText(solver.url, 5_000)).toBe("quoted");
    expect(dropped).toBe(1);
    expect(solver.connections()).toBe(2);
  });

  it("asks again over a new connection when every kept one was closed together", async () => {
    const seen = new WeakSet<object>();
    const solver = await serve((request, response) => {
      if (seen.has(request.socket)) {
        request.socket.destroy();
        return;
      }
      seen.add(request.socket);
      response.end("quoted");
    });
    // Two kept connections, both then closed under each request that reuses them.
    await Promise.all([pooledGetText(solver.url, 5_000), pooledGetText(solver.url, 5_000)]);
    expect(solver.connections()).toBe(2);
    expect(await pooledGetText(solver.url, 5_000)).toBe("quoted");
    expect(solver.connections()).toBe(3);
  });

  it("does not ask a third time", async () => {
    let served = 0;
    const solver = await serve((request, response) => {
      // The first request is answered; every later one finds its connection closed.
      if (served++ > 0) {
        request.socket.destroy();
        return;
      }
      response.end("quoted");
    });
    expect(await pooledGetText(solver.url, 5_000)).toBe("quoted");
    expect(await failureOf(pooledGetText(solver.url, 5_000))).toMatchObject({ kind: "network" });
    expect(served).toBe(3);
  });
});
