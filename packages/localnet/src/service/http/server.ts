/**
 * The HTTP front of the local service: `service-app-id` authentication, JSON bodies, routing, and one
 * envelope for every answer (`{status: "Ok", result}` or `{status: "Error", error}`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { ApiError, badRequest, errorMessage, notFound, unauthorized } from "../errors.js";
import { matchRoute, type Route } from "./router.js";

const MAX_BODY_BYTES = 1 << 20;
export const APP_ID_HEADER = "service-app-id";

export function createApiServer(routes: Route[], appIds: string[], logger: Logger): Server {
  const accepted = new Set(appIds.map((id) => id.toLowerCase()));
  return createServer((req, res) => {
    handle(req, res, routes, accepted).catch((error: unknown) => {
      logger.error({ err: error, method: req.method, url: req.url }, "request failed");
      send(res, 500, { status: "Error", error: `internal error: ${errorMessage(error)}` });
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  routes: Route[],
  accepted: Set<string>,
): Promise<void> {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const appId = req.headers[APP_ID_HEADER];
    if (typeof appId !== "string" || !accepted.has(appId.toLowerCase())) {
      throw unauthorized(`missing or unknown ${APP_ID_HEADER} header`);
    }
    const match = matchRoute(routes, method, url.pathname);
    if (match.kind === "not-found") throw notFound(`unknown endpoint ${method} ${url.pathname}`);
    if (match.kind === "method-not-allowed") {
      res.setHeader("allow", match.allowed.join(", "));
      throw new ApiError(405, `method ${method} is not allowed on ${url.pathname}`);
    }
    const body = await readJsonBody(req);
    const result = await match.handler({
      method,
      path: url.pathname,
      params: match.params,
      query: url.searchParams,
      body,
    });
    send(res, 200, { status: "Ok", result });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    send(res, error.httpStatus, { status: "Error", error: error.message });
  }
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest("request body is not valid JSON");
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
