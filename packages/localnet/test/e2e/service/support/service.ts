/** Starts the local service on test chains and talks to it over HTTP as a client would. */
import { pino } from "pino";
import { toHex } from "viem";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalServiceConfig } from "../../../../src/service/config.js";
import { startLocalService, type LocalService } from "../../../../src/service/service.js";
import { anvilAccount } from "../../../../../../test/support/evm-accounts.js";
import { ROLES, USDC_DECIMALS, type TestChain } from "./chains.js";
import type { QuoteSolver } from "./quote-solver.js";

export const APP_ID = "ab".repeat(32);

/** The relayer's key: an anvil default account, a public test key that guards nothing. */
function relayerKey(): string {
  const key = anvilAccount(ROLES.relayer).getHdKey().privateKey;
  if (key === null) throw new Error("anvil relayer account has no private key");
  return toHex(key);
}

export interface ChainOptions {
  requiredConfirmations?: number;
  sourceTimelock?: number;
}

export function serviceConfig(
  chains: { chain: TestChain; options?: ChainOptions }[],
  solvers: QuoteSolver[],
  extra: Partial<LocalServiceConfig> = {},
): LocalServiceConfig {
  return {
    host: "127.0.0.1",
    port: 0,
    dbPath: ":memory:",
    appIds: [APP_ID],
    relayerPrivateKey: relayerKey(),
    pollIntervalMs: 200,
    chains: chains.map(({ chain, options }) => ({
      name: chain.name,
      family: "evm",
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      requiredConfirmations: options?.requiredConfirmations ?? 1,
      sourceTimelock: options?.sourceTimelock ?? 100,
      destinationTimelock: 50,
      blockTimeMs: 1000,
      explorerUrl: `https://explorer.invalid/${chain.name}`,
      assets: [
        {
          symbol: "usdc",
          name: "USD Coin",
          decimals: USDC_DECIMALS,
          tokenAddress: chain.token,
          htlcAddress: chain.htlc,
          priceUsd: "1",
          minAmount: "1000",
          maxAmount: "1000000000000",
        },
        {
          symbol: "eth",
          name: "Ether",
          decimals: 18,
          tokenAddress: "native",
          htlcAddress: chain.nativeHtlc,
          priceUsd: "3000.5",
          minAmount: "1000",
          maxAmount: "100000000000000000000",
        },
      ],
    })),
    solvers: solvers.map((solver) => ({
      id: solver.id,
      quoteUrl: solver.url,
      addresses: { evm: anvilAccount(ROLES.solver).address },
    })),
    ...extra,
  };
}

export function startService(config: LocalServiceConfig): Promise<LocalService> {
  return startLocalService(config, pino({ level: process.env.SERVICE_LOG_LEVEL ?? "silent" }));
}

export interface ApiAnswer {
  status: number;
  body: { status: string; result?: unknown; error?: string };
}

export async function api(
  service: LocalService,
  method: string,
  path: string,
  body?: unknown,
  appId: string | null = APP_ID,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (appId !== null) headers["service-app-id"] = appId;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer["body"] };
}

/** The result of an Ok answer; fails the test with the error otherwise. */
export async function ok<T>(service: LocalService, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await api(service, method, path, body);
  if (answer.status !== 200 || answer.body.status !== "Ok") {
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body.result as T;
}

export async function waitForOrder(
  service: LocalService,
  orderId: string,
  done: (order: Order) => boolean,
  timeoutMs = 20_000,
): Promise<Order> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const order = await ok<Order>(service, "GET", `/v2/orders/${orderId}`);
    if (done(order)) return order;
    if (Date.now() > until)
      throw new Error(`order ${orderId} stuck at ${order.status}: ${JSON.stringify(order)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
