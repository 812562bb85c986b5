import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../../../src/chains/rpc/retry-after.js";
import { endpointLabels } from "../../../../src/chains/rpc/endpoint-labels.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["1.5", 1_500],
    ["Wed, 01 Jan 2025 00:00:30 GMT", 30_000],
    // A date already past means "now".
    ["Tue, 31 Dec 2024 23:59:00 GMT", 0],
  ])("%j -> %d ms", (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it.each([null, undefined, "", "soon", "-5"])("%j is no answer", (header) => {
    expect(parseRetryAfter(header, now)).toBeNull();
  });
});

describe("endpointLabels", () => {
  it("names endpoints by redacted URL, unique even when two keys redact alike", () => {
    expect(
      endpointLabels([
        "https://mainnet.example/v3/0123456789abcdef0123456789abcdef",
        "https://mainnet.example/v3/fedcba9876543210fedcba9876543210",
        "http://127.0.0.1:8545",
      ]),
    ).toEqual(["https://mainnet.example", "https://mainnet.example (2)", "http://127.0.0.1:8545"]);
  });
});
