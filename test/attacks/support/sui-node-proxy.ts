/**
 * A Sui node in front of the local chain that goes wrong when told. Stuck: it answers the head (the
 * latest checkpoint's number, the clock object's time) as they were when it froze, while the chain
 * behind it moves on. Lying about an order's initiation: every transaction that emitted the AtomicSwap
 * `Initiated` of the order id is reported failed (out of gas, no events). A hook runs after a dry run's
 * answer comes and before it is passed on: what the test does there happens between the sender's reads
 * and its send. Everything else is forwarded.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { normalizeSuiAddress } from "@mysten/sui/utils";
import { suiRpc } from "@htlc-solver/localnet/families/sui/chain/index.js";
import { listen } from "../../../src/util/listen.js";
import { startAttackNet, type AttackNet } from "./attack-net.js";

interface RpcRequest {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

interface ClockAnswer {
  data?: { content?: { fields?: { timestamp_ms?: string } } };
}

interface TransactionAnswer {
  effects?: { status: { status: string; error?: string } };
  events?: { type: string; parsedJson?: { order_id?: number[] } }[];
}

const CLOCK = normalizeSuiAddress("0x6");

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export class SuiNodeProxy {
  #server: Server | undefined;
  #frozen: { checkpoint: string; clockMs: string } | null = null;
  #afterDryRun: ((txBytes: string) => Promise<void>) | null = null;
  readonly #hiddenInitiations = new Set<string>();
  /** Head reads answered from the frozen head. */
  frozenAnswers = 0;
  /** Transaction reads answered as failed. */
  liedFailed = 0;

  constructor(readonly upstream: string) {}

  get url(): string {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    if (address == null) throw new Error("the Sui node proxy is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      void (async () => {
        const request = JSON.parse(await bodyOf(req)) as RpcRequest;
        const answer = await this.#answer(request);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
    await listen(this.#server, 0, "127.0.0.1");
  }

  /** Sticks at the chain's latest checkpoint and clock as they are now; returns the checkpoint. */
  async freeze(): Promise<bigint> {
    const checkpoint = await suiRpc<string>(this.upstream, "sui_getLatestCheckpointSequenceNumber", []);
    const clock = await suiRpc<ClockAnswer>(this.upstream, "sui_getObject", [CLOCK, { showContent: true }]);
    const clockMs = clock.data?.content?.fields?.timestamp_ms;
    if (clockMs === undefined) throw new Error("the chain's clock object has no timestamp_ms");
    this.#frozen = { checkpoint, clockMs };
    return BigInt(checkpoint);
  }

  thaw(): void {
    this.#frozen = null;
  }

  /** From now on reports every transaction that initiated the order id (hex) as failed. */
  sayInitiationsOfFailed(orderId: string): void {
    this.#hiddenInitiations.add(orderId);
  }

  /** Runs `act` once, after the next dry run's answer comes and before it is passed on. */
  afterNextDryRun(act: (txBytes: string) => Promise<void>): void {
    this.#afterDryRun = act;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #initiatesHidden(tx: TransactionAnswer): boolean {
    return (tx.events ?? []).some(
      (event) =>
        event.type.endsWith("::AtomicSwap::Initiated") &&
        this.#hiddenInitiations.has(Buffer.from(event.parsedJson?.order_id ?? []).toString("hex")),
    );
  }

  async #answer(request: RpcRequest): Promise<unknown> {
    const params = request.params ?? [];
    const upstream = await fetch(this.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const answer = (await upstream.json()) as { result?: unknown; error?: unknown };
    if (answer.result === undefined) return answer;
    if (request.method === "sui_dryRunTransactionBlock" && this.#afterDryRun !== null) {
      const act = this.#afterDryRun;
      this.#afterDryRun = null;
      await act(String(params[0]));
    }
    const frozen = this.#frozen;
    if (frozen !== null && request.method === "sui_getLatestCheckpointSequenceNumber") {
      this.frozenAnswers += 1;
      return { ...answer, result: frozen.checkpoint };
    }
    if (
      frozen !== null &&
      request.method === "sui_getObject" &&
      normalizeSuiAddress(String(params[0])) === CLOCK
    ) {
      this.frozenAnswers += 1;
      const fields = (answer.result as ClockAnswer).data?.content?.fields;
      if (fields !== undefined) fields.timestamp_ms = frozen.clockMs;
      return answer;
    }
    if (request.method === "sui_getTransactionBlock" || request.method === "sui_executeTransactionBlock") {
      const tx = answer.result as TransactionAnswer;
      if (tx.effects !== undefined && this.#initiatesHidden(tx)) {
        this.liedFailed += 1;
        tx.effects.status = { status: "failure", error: "InsufficientGas" };
        tx.events = [];
      }
    }
    return answer;
  }
}

/** An attack net whose solver reads the localnet's Sui chain only through a node proxy in front of it. */
export async function startThroughSuiNode(): Promise<{ t: AttackNet; node: SuiNodeProxy }> {
  let node: SuiNodeProxy | undefined;
  const t = await startAttackNet({}, async (config) => {
    const sui = config.chains.find((c) => c.family === "sui");
    if (sui === undefined) throw new Error("the localnet's solver has no Sui chain");
    node = new SuiNodeProxy(sui.rpcUrls[0]!);
    await node.start();
    const url = node.url;
    return { ...config, chains: config.chains.map((c) => (c === sui ? { ...c, rpcUrls: [url] } : c)) };
  });
  return { t, node: node! };
}
