/**
 * The operator's HTTP surface: GET /health, /health/live and /health/ready (200, or 503 with reasons),
 * GET /metrics (Prometheus text) and GET /status (JSON). Read-only; bind it to loopback or a private
 * network.
 *
 * /health is unauthenticated and its reasons quote errors, which may quote an RPC URL with the
 * provider's API key: every answer passes through `redactUrlsInText` as it is written.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { redactUrlsInText } from "../config/redact-url.js";
import type { HealthReport } from "./health.js";
import { toJson } from "./json.js";
import { listen } from "../util/listen.js";

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port; read the chosen one from `url`/`port`. */
  port: number;
  health: () => HealthReport | Promise<HealthReport>;
  /** Whether the process works at all: a failure is worth a restart. */
  live: () => HealthReport | Promise<HealthReport>;
  /** Whether it can do its work now: a failure is worth sending it nothing, not a restart. */
  ready: () => HealthReport | Promise<HealthReport>;
  status: () => unknown;
  registry: Registry;
  logger: Logger;
}

export interface OpsServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type Route = (options: OpsServerOptions, res: ServerResponse) => Promise<void>;

function send(res: ServerResponse, code: number, contentType: string, body: string): void {
  res.writeHead(code, { "content-type": contentType, "cache-control": "no-store" });
  res.end(redactUrlsInText(body));
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  send(res, code, "application/json; charset=utf-8", toJson(body));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type HealthKind = "health" | "live" | "ready";

async function readHealth(options: OpsServerOptions, kind: HealthKind): Promise<HealthReport> {
  try {
    return await options[kind]();
  } catch (error) {
    options.logger.warn({ err: error, kind }, "health check threw");
    return { healthy: false, reasons: [`health check failed: ${errorText(error)}`] };
  }
}

const healthRoute =
  (kind: HealthKind): Route =>
  async (options, res) => {
    const report = await readHealth(options, kind);
    const body = {
      status: report.healthy ? "ok" : "unhealthy",
      reasons: report.reasons,
      checks: report.checks ?? {},
    };
    sendJson(res, report.healthy ? 200 : 503, body);
  };

const ROUTES: Record<string, Route> = {
  "/health": healthRoute("health"),
  "/health/live": healthRoute("live"),
  "/health/ready": healthRoute("ready"),
  "/metrics": async (options, res) => {
    send(res, 200, options.registry.contentType, await options.registry.metrics());
  },
  "/status": async (options, res) => {
    sendJson(res, 200, await options.status());
  },
};

/** Every path the ops server answers. */
export const OPS_PATHS: readonly string[] = Object.keys(ROUTES);

async function handle(options: OpsServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://ops.local").pathname;
  const route = ROUTES[path];
  if (route === undefined) {
    sendJson(res, 404, {
      error: `no route ${path}; the ops server serves ${Object.keys(ROUTES).join(", ")}`,
    });
    return;
  }
  if (req.method !== "GET") {
    res.setHeader("allow", "GET");
    sendJson(res, 405, { error: `${req.method ?? "?"} ${path} is not allowed; use GET` });
    return;
  }
  try {
    await route(options, res);
  } catch (error) {
    options.logger.error({ err: error, path }, "ops request failed");
    if (!res.headersSent) sendJson(res, 500, { error: `${path} failed: ${errorText(error)}` });
    else res.end();
  }
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((req, res) => void handle(options, req, res));
  await listen(server, options.port, options.host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(options.host)}:${port}`;
  options.logger.info({ url }, "ops server listening");
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
