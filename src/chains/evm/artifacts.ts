/** Compiled EVM contracts (written by `npm run build:contracts` to contracts/evm/out). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

/** Deployable contracts: the two HTLCs, and the test-only token and EIP-1271 wallet. */
export type ContractName = "HTLC" | "NativeHTLC" | "TestToken" | "TestSmartWallet";

export interface ContractArtifact {
  /** Full compiled ABI, including custom errors so that viem can name a revert. */
  abi: Abi;
  bytecode: Hex;
}

export class ContractArtifactsMissingError extends Error {
  constructor(name: ContractName, path: string) {
    super(`contract artifacts missing: run npm run build:contracts (no ${name} artifact at ${path})`);
    this.name = "ContractArtifactsMissingError";
  }
}

const OUT_DIR = new URL("../../../contracts/evm/out/", import.meta.url);
const cache = new Map<ContractName, ContractArtifact>();

export function loadArtifact(name: ContractName): ContractArtifact {
  const cached = cache.get(name);
  if (cached) return cached;
  const path = fileURLToPath(new URL(`${name}.json`, OUT_DIR));
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new ContractArtifactsMissingError(name, path);
  }
  const parsed = JSON.parse(text) as Partial<ContractArtifact>;
  if (
    !Array.isArray(parsed.abi) ||
    typeof parsed.bytecode !== "string" ||
    !parsed.bytecode.startsWith("0x")
  ) {
    throw new Error(`contract artifact ${path} is malformed: run npm run build:contracts -- --force`);
  }
  const artifact = { abi: parsed.abi, bytecode: parsed.bytecode };
  cache.set(name, artifact);
  return artifact;
}
