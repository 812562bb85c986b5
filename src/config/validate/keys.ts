/** Private keys: 32 bytes of hex within the secp256k1 group order. Messages never show a key. */
import type { ChainConfig, SolverKeys } from "../types.js";
import type { Problems } from "../errors.js";

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const ENV_OF = { evm: "SOLVER_EVM_PRIVATE_KEY", bitcoin: "SOLVER_BITCOIN_PRIVATE_KEY" } as const;

/** Lower-case hex without 0x, or null when this is not a usable private key. */
function normalizeKey(value: string): string | null {
  const hex = value.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const scalar = BigInt(`0x${hex}`);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) return null;
  return hex.toLowerCase();
}

function resolveKey(problems: Problems, family: "evm" | "bitcoin", value: string, needed: boolean): string {
  const path = `solver.keys.${family}`;
  if (value === "") {
    if (needed) {
      problems.add(
        path,
        `is required for the ${family} chains; set ${ENV_OF[family]} or put it in the key file (SOLVER_KEY_FILE)`,
      );
    }
    return "";
  }
  const key = normalizeKey(value);
  if (key === null) {
    problems.add(path, "is not a 32-byte hex private key on secp256k1 (value not shown)");
    return "";
  }
  return family === "evm" ? `0x${key}` : key;
}

/**
 * EVM key as 0x-prefixed lower-case hex, Bitcoin key as lower-case hex; each is required only when a
 * chain of its family is configured, and is "" otherwise.
 */
export function resolveKeys(
  problems: Problems,
  raw: { evm: string; bitcoin: string },
  chains: readonly ChainConfig[],
): SolverKeys {
  return {
    evm: resolveKey(
      problems,
      "evm",
      raw.evm,
      chains.some((c) => c.family === "evm"),
    ),
    bitcoin: resolveKey(
      problems,
      "bitcoin",
      raw.bitcoin,
      chains.some((c) => c.family === "bitcoin"),
    ),
  };
}
