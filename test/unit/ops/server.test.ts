import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { healthFromChecks, type HealthReport } from "../../../src/ops/health.js";
import { SolverMetrics } from "../../../src/ops/metrics.js";
import { startOpsServer, type OpsServer } from "../../../src/ops/server.js";
import { createLogger } from "../../../src/util/logger.js";

const logger = createLogger({
  level: "silent",
  destination: new Writable({ write: (_c, _e, done) => done() }),
});
const servers: OpsServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

type Check = () => HealthReport | Promise<HealthReport>;
const fine: Check = () => ({ healthy: true, reasons: [] });

async function start(
  health: Check,
  status: () => unknown = () => ({}),
  probes: { live?: Check; ready?: Check } = {},
) {
  const metrics = new SolverMetrics({ processMetrics: false });
  const server = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    health,
    live: probes.live ?? fine,
    ready: probes.ready ?? fine,
    status,
    registry: metrics.registry,
    logger,
  });
  servers.push(server);
  return { server, metrics };
}

describe("ops server", () => {
  it("answers /health with 200 when healthy", async () => {
    const { server } = await start(() => ({
      healthy: true,
      reasons: [],
      checks: { ethereum: { tip: 12n } },
    }));
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", reasons: [], checks: { ethereum: { tip: "12" } } });
  });

  it("answers /health with 503 and the reasons when not", async () => {
    const { server } = await start(async () =>
      healthFromChecks({ service: "last poll 300 s ago", ethereum: null, journal: "database locked" }),
    );
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: "unhealthy",
      reasons: ["service: last poll 300 s ago", "journal: database locked"],
      checks: {},
    });
  });

  it("turns a throwing health check into 503", async () => {
    const { server } = await start(() => {
      throw new Error("tip unknown");
    });
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { reasons: string[] }).reasons).toEqual([
      "health check failed: tip unknown",
    ]);
  });

  it("answers /health/live and /health/ready each from its own check", async () => {
    const { server } = await start(fine, undefined, {
      live: fine,
      ready: () => healthFromChecks({ "journal lease": "no lease is held", "chain ethereum": null }),
    });
    const live = await fetch(`${server.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok", reasons: [], checks: {} });
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reasons: string[] }).reasons).toEqual([
      "journal lease: no lease is held",
    ]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("serves Prometheus text on /metrics", async () => {
    const { server, metrics } = await start(() => ({ healthy: true, reasons: [] }));
    metrics.ordersSeen.inc(3);
    metrics.recordAction("ethereum", "fill", "confirmed", 12);
    metrics.refusals.inc({ reason: "timelock_margin" });
    metrics.txAttempts.inc({ chain: "bitcoin", state: "broadcast" });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain("solver_orders_seen_total 3");
    expect(text).toContain('solver_actions_total{chain="ethereum",kind="fill",outcome="confirmed"} 1');
    expect(text).toContain('solver_refusals_total{reason="timelock_margin"} 1');
    expect(text).toContain('solver_tx_attempts_total{chain="bitcoin",state="broadcast"} 1');
    expect(text).toContain('solver_action_duration_seconds_bucket{le="15",kind="fill"} 1');
  });

  it("serves the status as JSON, bigints as strings", async () => {
    const { server } = await start(
      () => ({ healthy: true, reasons: [] }),
      () => ({ orders: { open: 2 }, inventory: { "bitcoin:btc": 150000000n } }),
    );
    const res = await fetch(`${server.url}/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ orders: { open: 2 }, inventory: { "bitcoin:btc": "150000000" } });
  });

  it("reports a failing status provider as 500 naming the route", async () => {
    const { server } = await start(
      () => ({ healthy: true, reasons: [] }),
      () => Promise.reject(new Error("journal closed")),
    );
    const res = await fetch(`${server.url}/status`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "/status failed: journal closed" });
  });

  it("answers unknown paths with 404 and other methods with 405", async () => {
    const { server } = await start(() => ({ healthy: true, reasons: [] }));
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toContain(
      "/health, /health/live, /health/ready, /metrics, /status",
    );
    const post = await fetch(`${server.url}/health`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("stops even with a keep-alive connection open", async () => {
    const { server } = await start(() => ({ healthy: true, reasons: [] }));
    await fetch(`${server.url}/health`, { keepalive: true });
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});

describe("ops server and URL credentials", () => {
  const URL_WITH_KEYS = "https://user:pass@rpc.example/v3/0123456789abcdefABCDEF?apikey=SECRET";
  const URL_SECRETS = ["pass", "0123456789abcdefABCDEF", "SECRET"];

  it("never answers a URL credential on /health, /status or /metrics", async () => {
    const failure = `tip read failed: HTTP request failed. URL: ${URL_WITH_KEYS}`;
    const { server, metrics } = await start(
      () => healthFromChecks({ ethereum: failure }),
      () => ({ endpoints: [URL_WITH_KEYS], lastError: failure }),
    );
    metrics.refusals.inc({ reason: `node ${URL_WITH_KEYS} is behind` });
    for (const path of ["/health", "/status", "/metrics"]) {
      const text = await (await fetch(`${server.url}${path}`)).text();
      for (const secret of URL_SECRETS) expect(text, path).not.toContain(secret);
      expect(text, path).toContain("https://rpc.example");
      expect(text, path).not.toContain("rpc.example/v3");
    }
    const health = (await (await fetch(`${server.url}/health`)).json()) as { reasons: string[] };
    expect(health.reasons).toEqual([
      "ethereum: tip read failed: HTTP request failed. URL: https://rpc.example",
    ]);
  });
});
