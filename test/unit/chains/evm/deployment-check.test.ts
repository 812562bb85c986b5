/** The HTLC domain check's verdicts on domains a deployment may answer, with the chain reads stubbed. */
import { describe, expect, it } from "vitest";
import type { PublicClient } from "viem";
import { htlcProblems } from "../../../../src/chains/evm/deployment-check.js";

const HTLC = "0x1111111111111111111111111111111111111111";
const TOKEN = "0x2222222222222222222222222222222222222222";

function client(domain: readonly unknown[], token: string = TOKEN): PublicClient {
  const reads: Record<string, unknown> = { eip712Domain: domain, token };
  return {
    getCode: () => Promise.resolve("0x6000"),
    readContract: ({ functionName }: { functionName: string }) => Promise.resolve(reads[functionName]),
  } as unknown as PublicClient;
}

const domain = (name: string, version: string, chainId: bigint, contract: string) =>
  ["0x0f", name, version, chainId, contract, `0x${"0".repeat(64)}`, []] as const;

describe("htlcProblems", () => {
  const asset = { htlcAddress: HTLC, tokenAddress: TOKEN };

  it("accepts the v3 HTLC of this chain and token", async () => {
    expect(await htlcProblems(client(domain("HTLC", "3", 1n, HTLC)), 1, asset)).toEqual([]);
  });

  it("refuses an older deployment (version 2), whose order ids the solver does not compute", async () => {
    const [problem] = await htlcProblems(client(domain("HTLC", "2", 1n, HTLC)), 1, asset);
    expect(problem?.key).toBe("htlcAddress");
    expect(problem?.message).toMatch(/version "2", expected "3"/);
  });

  it("names every field of the domain that differs", async () => {
    const other = "0x3333333333333333333333333333333333333333";
    const [problem] = await htlcProblems(client(domain("Swap", "3", 5n, other)), 1, asset);
    expect(problem?.message).toMatch(/name "Swap".*chain id 5, expected 1.*verifying contract 0x3+/);
  });

  it("refuses an HTLC of another token", async () => {
    const other = "0x4444444444444444444444444444444444444444";
    const [problem] = await htlcProblems(client(domain("HTLC", "3", 1n, HTLC), other), 1, asset);
    expect(problem?.message).toMatch(/holds token 0x4+, not 0x2+/);
  });
});
