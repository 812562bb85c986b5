/**
 * The localnet's solver answers signed quote requests only: the local service signs with the secret the
 * localnet gave both, and gets its quotes; a request without the signature, or signed with another secret,
 * is refused 401 and counted; a signed request is answered once; and a refusal names no figure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuoteItem } from "htlc-solver/orderbook/types.js";
import { signQuoteRequest } from "htlc-solver/pricing/quote-signature.js";
import { startTestLocalnet, type TestLocalnet } from "../../../../../test/support/localnet.js";

const FROM = "arbitrum_localnet:usdc";
const TO = "ethereum_localnet:usdc";

let t: TestLocalnet;

beforeAll(async () => {
  t = await startTestLocalnet();
}, 120_000);

afterAll(async () => {
  await t?.net.stop();
});

function solverQuoteUrl(amount: bigint): URL {
  return new URL(`${t.net.descriptor.solver.quoteUrl}?from=${FROM}&to=${TO}&from_amount=${amount}`);
}

async function solverAnswer(url: URL, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as { status: string; error?: string } };
}

async function metrics(): Promise<string> {
  return (await fetch(`${t.net.descriptor.solver.opsUrl}/metrics`)).text();
}

describe("signed quotes on the localnet", () => {
  it("turns signatures on for the localnet's solver and registers the secret with the service", () => {
    const secret = t.net.solverConfig.quote.auth.secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(t.net.serviceConfig.solvers[0]?.quoteSecret).toBe(secret);
  });

  it("gives the service its signed quotes", async () => {
    const quotes = await t.orderbook.quote(FROM, TO, 30_000_000n);
    expect(quotes.map((quote: QuoteItem) => quote.solver_id)).toEqual([t.net.descriptor.solver.id]);
    expect(await metrics()).toMatch(/solver_quote_duration_seconds_count\{outcome="given"\} [1-9]/);
    const unanswered = t.log.lines.filter((line) => line.msg === "solver gave no quote");
    expect(unanswered).toEqual([]);
  });

  it("refuses an unsigned request and one signed with another secret, 401 with the reason, and counts them", async () => {
    const url = solverQuoteUrl(30_000_000n);
    const unsigned = await solverAnswer(url);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toMatch(/^missing_signature: /);
    const forged = await solverAnswer(url, signQuoteRequest("f0".repeat(32), url));
    expect(forged.status).toBe(401);
    expect(forged.body.error).toMatch(/^bad_signature: /);
    const text = await metrics();
    expect(text).toContain(
      'solver_quote_rejections_total{outcome="unauthorized",reason="missing_signature"} 1',
    );
    expect(text).toContain('solver_quote_rejections_total{outcome="unauthorized",reason="bad_signature"} 1');
  });

  it("answers a signed request once, and a refusal with its reason but no figure", async () => {
    const secret = t.net.solverConfig.quote.auth.secret;
    // Above the pair's maximum: refused, and the answer must not say what the maximum is.
    const url = solverQuoteUrl(10n ** 13n);
    const headers = signQuoteRequest(secret, url);
    const refused = await solverAnswer(url, headers);
    expect(refused).toEqual({
      status: 422,
      body: { status: "Error", error: "above_max: the amount is above this pair's maximum" },
    });
    const replayed = await solverAnswer(url, headers);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error).toMatch(/^replayed_nonce: /);
  });
});
