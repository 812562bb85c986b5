import { describe, expect, it } from "vitest";
import { QuoteAuthenticator } from "../../../src/pricing/quote-auth.js";
import { signQuoteRequest } from "../../../src/pricing/quote-signature.js";

const SECRET = "k7".repeat(16);
const SKEW_MS = 10_000;
const URL_OF_QUOTE = new URL("http://127.0.0.1/quote?from=a:b&to=c:d&from_amount=1");

function setup() {
  let clock = 1_900_000_000_000;
  const auth = new QuoteAuthenticator({ secret: SECRET, maxClockSkewMs: SKEW_MS }, () => clock);
  const signedNow = () => signQuoteRequest(SECRET, URL_OF_QUOTE, { nowMs: clock });
  const verify = (headers: Record<string, string>) =>
    auth.verify("GET", "/quote?from=a:b&to=c:d&from_amount=1", headers);
  return { auth, signedNow, verify, advance: (ms: number) => (clock += ms) };
}

describe("QuoteAuthenticator", () => {
  it("takes a nonce only when the request is admitted", () => {
    const { auth, signedNow, verify } = setup();
    const headers = signedNow();
    const first = verify(headers);
    expect(first.ok).toBe(true);
    // Verified but not admitted (turned away by a limit, say): the same request may come again.
    expect(verify(headers).ok).toBe(true);
    if (first.ok) auth.admit(first.nonce);
    expect(verify(headers)).toMatchObject({ ok: false, reason: "replayed_nonce" });
  });

  it("forgets nonces once their requests would be stale, so its memory stays bounded", () => {
    const { auth, signedNow, verify, advance } = setup();
    for (let i = 0; i < 100; i++) {
      const verdict = verify(signedNow());
      if (verdict.ok) auth.admit(verdict.nonce);
      advance(100);
    }
    expect(auth.remembered).toBe(100);
    // Twice the skew and a margin after the last: every earlier nonce goes at the next admission.
    advance(2 * SKEW_MS + 1_000);
    const verdict = verify(signedNow());
    if (verdict.ok) auth.admit(verdict.nonce);
    expect(auth.remembered).toBe(1);
  });

  it("checks the signature before the clock, so a caller without the secret learns nothing else", () => {
    const { verify } = setup();
    // Another secret and a timestamp long past: the answer names the signature only.
    const headers = signQuoteRequest("w8".repeat(16), URL_OF_QUOTE, { nowMs: 0 });
    expect(verify(headers)).toMatchObject({ ok: false, reason: "bad_signature" });
  });
});
