import type { Abi } from "viem";
import { ContractArtifactsMissingError, loadArtifact } from "./artifacts.js";

let cached: Abi | null = null;

/**
 * The custom errors of both compiled HTLCs, read from the build output so a revert is named exactly
 * as the deployed contract defines it. Empty when the contracts have not been built.
 */
export function htlcErrorAbi(): Abi {
  if (cached !== null) return cached;
  try {
    const items = [...loadArtifact("HTLC").abi, ...loadArtifact("NativeHTLC").abi];
    cached = items.filter((item) => item.type === "error");
  } catch (error) {
    if (!(error instanceof ContractArtifactsMissingError)) throw error;
    cached = [];
  }
  return cached;
}
