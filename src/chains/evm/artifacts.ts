/** Compiled EVM contracts (written by `npm run build:contracts` to contracts/evm/out). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

/**
 * Deployable contracts: the two HTLCs, the batching contracts (a Multicall3-compatible one for the local
 * chains and the EIP-7702 batch executor), and the test-only token, EIP-1271 wallet and price feed.
 */
export type ContractName =
  "HTLC" | "NativeHTLC" | "Multicall" | "BatchExecutor" | "TestToken" | "TestSmartWallet" | "TestPriceFeed";

export interface ContractArtifact {
  /** Full compiled ABI, including custom errors so that viem can name a revert. */
  abi: Abi;
  bytecode: Hex;
  /** The code a deployment leaves at its address (what `eth_getCode` returns). */
  deployedBytecode: Hex;
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
  const artifact = loadArtifactFrom(OUT_DIR, name);
  cache.set(name, artifact);
  return artifact;
}

/** Reads `<dir>/<name>.json` (`dir` ends with a slash) uncached; `loadArtifact` reads contracts/evm/out. */
export function loadArtifactFrom(dir: URL, name: ContractName): ContractArtifact {
  const path = fileURLToPath(new URL(`${name}.json`, dir));
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new ContractArtifactsMissingError(name, path);
  }
  const parsed = parseArtifact(text);
  if (!parsed)
    throw new Error(`contract artifact ${path} is malformed: run npm run build:contracts -- --force`);
  return parsed;
}

function parseArtifact(text: string): ContractArtifact | null {
  let parsed: Partial<ContractArtifact>;
  try {
    parsed = JSON.parse(text) as Partial<ContractArtifact>;
  } catch {
    return null;
  }
  const { abi, bytecode, deployedBytecode } = parsed;
  const hex = (value: unknown): value is Hex => typeof value === "string" && /^0x[0-9a-f]+$/i.test(value);
  if (!Array.isArray(abi) || !hex(bytecode) || !hex(deployedBytecode)) return null;
  return { abi, bytecode, deployedBytecode };
}
