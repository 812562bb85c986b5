import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../../../src/service/context.js";
import { WatchLoop } from "../../../src/service/watch-loop.js";

describe("WatchLoop", () => {
  it("logs a pass that fails as a whole and passes again at the next interval", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    let passes = 0;
    const ctx = {
      config: { pollIntervalMs: 20 },
      logger,
      orders: {
        unsettled: () => {
          passes++;
          if (passes === 1) throw new Error("database is locked");
          return [];
        },
      },
    } as unknown as ServiceContext;
    const loop = new WatchLoop(ctx);
    loop.start();
    const deadline = Date.now() + 2_000;
    while (passes < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await loop.stop();
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.msg === "watch pass failed")).toEqual([
      expect.objectContaining({ level: 50, reason: "database is locked" }),
    ]);
    const stoppedAt = passes;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(passes).toBe(stoppedAt);
  });
});
