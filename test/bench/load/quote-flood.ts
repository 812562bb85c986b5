/**
 * A flood of quote requests against the solver's quote endpoint, as a misbehaving or hostile caller sends
 * them: `connections` kept-alive connections, each sending its next request as soon as the last is
 * answered, over the swap mix's pairs. Signed with the service's secret (a caller holding it: every
 * request passes the signature and meets the limits) or unsigned (anyone else: every request is a 401).
 * Counts the answers by status.
 */
import { Agent, get as httpGet } from "node:http";
import { signQuoteRequest } from "../../../src/pricing/quote-signature.js";
import { SWAP_KINDS, type SwapKind } from "./swap-mix.js";

export interface QuoteFloodSettings {
  /** The solver's quote URL, `http://host:port/quote`. */
  quoteUrl: string;
  /** Signs every request with it; null sends them unsigned. */
  secret: string | null;
  connections: number;
}

/** What the benchmark asks for: how many connections, signed or not. */
export interface QuoteFloodOptions {
  connections: number;
  /** Signed with the service's secret (it passes the signature and meets the limits), or unsigned (401). */
  signed: boolean;
}

export interface FloodCounts {
  /** Answers by HTTP status; `error` for requests that got none (a reset connection). */
  byStatus: Record<string, number>;
  sent: number;
  ms: number;
}

export class QuoteFlood {
  private readonly agent: Agent;
  private readonly counts: Record<string, number> = {};
  private sent = 0;
  private running = false;
  private startedAt = 0;
  private stoppedAt = 0;
  private loops: Promise<void>[] = [];
  private answered: () => void = () => undefined;
  /** Settles at the flood's first answer: from then on the solver is under it. */
  readonly firstAnswer = new Promise<void>((resolve) => (this.answered = resolve));

  constructor(private readonly settings: QuoteFloodSettings) {
    this.agent = new Agent({ keepAlive: true, maxSockets: settings.connections });
  }

  start(): void {
    this.running = true;
    this.startedAt = performance.now();
    this.loops = Array.from({ length: this.settings.connections }, (_, i) => this.loop(i));
  }

  /** Stops sending, waits for the requests under way, and returns what was answered. */
  async stop(): Promise<FloodCounts> {
    this.running = false;
    this.stoppedAt = performance.now();
    await Promise.all(this.loops);
    this.agent.destroy();
    return { byStatus: { ...this.counts }, sent: this.sent, ms: this.stoppedAt - this.startedAt };
  }

  private async loop(index: number): Promise<void> {
    for (let i = index; this.running; i += this.settings.connections) {
      const status = await this.ask(i);
      this.counts[status] = (this.counts[status] ?? 0) + 1;
      this.answered();
    }
  }

  private ask(i: number): Promise<string> {
    const kind = SWAP_KINDS[i % SWAP_KINDS.length] as SwapKind;
    const url = new URL(this.settings.quoteUrl);
    url.searchParams.set("from", kind.from);
    url.searchParams.set("to", kind.to);
    url.searchParams.set("from_amount", kind.amount.toString());
    const headers = this.settings.secret === null ? {} : signQuoteRequest(this.settings.secret, url);
    this.sent += 1;
    return new Promise((resolve) => {
      const request = httpGet(url, { agent: this.agent, headers }, (response) => {
        response.resume();
        response.on("end", () => resolve(String(response.statusCode ?? 0)));
        response.on("error", () => resolve("error"));
      });
      request.on("error", () => resolve("error"));
    });
  }
}
