import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import { startLocalnet, type Localnet, type LocalnetOptions } from "@htlc-solver/localnet/localnet.js";
import { createLocalUser, type LocalUser } from "@htlc-solver/localnet/user.js";
import { OrderbookClient } from "../../src/orderbook/client.js";

/** Log lines kept in memory, so a test can assert what the solver said and why. */
export class CapturedLog {
  readonly lines: Record<string, unknown>[] = [];
  readonly logger: Logger;

  constructor(level = process.env.TEST_LOG_LEVEL ?? "info") {
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        for (const line of chunk.toString().split("\n")) {
          if (line.trim() === "") continue;
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
          if (process.env.TEST_LOG_ECHO) process.stderr.write(`${line}\n`);
        }
        done();
      },
    });
    this.logger = pino({ level }, sink);
  }

  find(predicate: (line: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
    return this.lines.find(predicate);
  }

  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join("\n");
  }
}

export interface TestLocalnet {
  net: Localnet;
  log: CapturedLog;
  dir: string;
  user(index?: number): LocalUser;
  orderbook: OrderbookClient;
}

/** Below the hooks' timeout, so a start that hangs fails with what it last did rather than in silence. */
const START_DEADLINE_MS = 100_000;

function withStartDeadline<T>(starting: Promise<T>, log: CapturedLog): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const last = log.lines.slice(-25).map((line) => JSON.stringify(line));
      reject(
        new Error(
          `the localnet did not start within ${START_DEADLINE_MS / 1000} s; its last log lines:\n${last.join("\n")}`,
        ),
      );
    }, START_DEADLINE_MS);
  });
  return Promise.race([starting, deadline]).finally(() => clearTimeout(timer));
}

export async function startTestLocalnet(options: Partial<LocalnetOptions> = {}): Promise<TestLocalnet> {
  const dir = mkdtempSync(join(tmpdir(), "localnet-"));
  const log = new CapturedLog();
  const net = await withStartDeadline(startLocalnet({ dir, logger: log.logger, ...options }), log);
  // A loaded test machine can take seconds over a service call that builds and sends a transaction.
  const orderbook = new OrderbookClient({
    baseUrl: net.descriptor.service.url,
    appId: net.descriptor.service.appId,
    timeoutMs: 30_000,
  });
  return {
    net,
    log,
    dir,
    orderbook,
    user: (index = 0) => {
      const account = net.descriptor.users[index];
      if (!account) throw new Error(`localnet has no user ${index}`);
      return createLocalUser(net.descriptor, account.privateKey, orderbook);
    },
  };
}

/** One JSON-RPC call to an anvil, for its test methods (`anvil_mine`, `anvil_setBalance`, ...). */
export async function anvilCall(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    // A local node answers at once; one that does not is reported, not waited on forever.
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message}`);
  return body.result;
}

/** Mines `count` blocks at once on an anvil (time passes for timelocks). */
export async function mineBlocks(rpcUrl: string, count: number): Promise<void> {
  await anvilCall(rpcUrl, "anvil_mine", [`0x${count.toString(16)}`]);
}

/** Polls until `condition` holds, failing with what was awaited. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * What a wallet's default lets the destination amount move between quote and order. Quotes carry the
 * network fees and inventory of the moment: in a burst the solver's own fills raise the recent priority
 * fees and commit inventory, so a quote can move by a basis point or two before the next order is made,
 * and the service refuses an order above the live quote unless the user allowed this much.
 */
export const USER_SLIPPAGE_BPS = 50;
