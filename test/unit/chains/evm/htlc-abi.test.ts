import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toEventSignature, toFunctionSelector, toFunctionSignature, type Abi, type AbiParameter } from "viem";
import { buildContracts } from "../../../../contracts/evm/compile.js";
import {
  ContractArtifactsMissingError,
  loadArtifact,
  loadArtifactFrom,
} from "../../../../src/chains/evm/artifacts.js";
import { htlcAbi } from "../../../../src/chains/evm/htlc-abi.js";

/** Declared by OpenZeppelin's IERC5267 and never emitted: the domain of these contracts is fixed. */
const INHERITED_UNUSED_EVENTS = new Set(["EIP712DomainChanged"]);

/** One line per function or event: signature, mutability and parameter names, independent of order. */
function describeAbi(abi: Abi): string[] {
  const params = (list: readonly AbiParameter[]): string =>
    list.map((p) => `${p.type} ${p.name ?? ""}${"indexed" in p && p.indexed ? " indexed" : ""}`).join(", ");
  const lines: string[] = [];
  for (const item of abi) {
    if (item.type === "function") {
      lines.push(
        `${toFunctionSignature(item)} ${item.stateMutability} (${params(item.inputs)}) -> (${params(item.outputs)})`,
      );
    } else if (item.type === "event" && !INHERITED_UNUSED_EVENTS.has(item.name)) {
      lines.push(
        `event ${toEventSignature(item)} (${params(item.inputs)})${item.anonymous ? " anonymous" : ""}`,
      );
    }
  }
  return lines.sort();
}

const ERC20_ONLY = new Set(["initiateWithSignature", "token"]);

describe("htlc-abi.ts against the compiled contracts", () => {
  beforeAll(() => {
    buildContracts();
  });

  it("equals the HTLC (ERC20) ABI: functions, events, mutability and names", () => {
    expect(describeAbi(loadArtifact("HTLC").abi)).toEqual(describeAbi(htlcAbi));
  });

  it("equals the NativeHTLC ABI minus the ERC20-only functions", () => {
    const expected = htlcAbi.filter((item) => item.type !== "function" || !ERC20_ONLY.has(item.name));
    expect(describeAbi(loadArtifact("NativeHTLC").abi)).toEqual(describeAbi(expected));
  });

  it("keeps the deployed selectors", () => {
    expect(toFunctionSelector("initiate(address,uint256,uint256,bytes32)")).toBe("0x97ffc7ae");
    const selectors = loadArtifact("HTLC")
      .abi.filter((item) => item.type === "function")
      .map((item) => toFunctionSelector(item));
    expect(selectors).toContain("0x97ffc7ae");
    // initiateOnBehalf(address,address,uint256,uint256,bytes32), as deployed.
    expect(selectors).toContain("0x13d4a787");
  });

  it("indexes amount in Initiated (v3), so its topic0 matches older deployments", () => {
    const initiated = loadArtifact("HTLC").abi.find((i) => i.type === "event" && i.name === "Initiated");
    expect(initiated).toBeDefined();
    if (initiated?.type !== "event") return;
    expect(initiated.inputs.map((i) => i.indexed)).toEqual([true, true, true]);
    expect(toEventSignature(initiated)).toBe("Initiated(bytes32,bytes32,uint256)");
  });
});

describe("contract artifacts", () => {
  it("rebuilds nothing when the sources are unchanged", () => {
    buildContracts();
    const started = Date.now();
    const again = buildContracts();
    expect(again.upToDate).toBe(true);
    expect(again.contracts.map((c) => c.name)).toEqual([
      "BatchExecutor",
      "HTLC",
      "Multicall",
      "NativeHTLC",
      "TestPriceFeed",
      "TestSmartWallet",
      "TestToken",
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("carries each contract's runtime code, the code its deployment leaves on chain", () => {
    const artifact = loadArtifact("BatchExecutor");
    expect(artifact.deployedBytecode).toMatch(/^0x[0-9a-f]+$/);
    // Creation code returns the runtime code, so it contains it and is longer.
    expect(artifact.bytecode.length).toBeGreaterThan(artifact.deployedBytecode.length);
    expect(artifact.bytecode).toContain(artifact.deployedBytecode.slice(2, 200));
  });

  it("tells to run the build when an artifact is missing or malformed", () => {
    const dir = mkdtempSync(join(tmpdir(), "artifacts-"));
    try {
      const url = pathToFileURL(`${dir}/`);
      expect(() => loadArtifactFrom(url, "HTLC")).toThrow(ContractArtifactsMissingError);
      expect(() => loadArtifactFrom(url, "HTLC")).toThrow(
        "contract artifacts missing: run npm run build:contracts",
      );
      writeFileSync(join(dir, "HTLC.json"), '{"abi": [], "byte');
      expect(() => loadArtifactFrom(url, "HTLC")).toThrow(/malformed: run npm run build:contracts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
