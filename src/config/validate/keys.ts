/**
 * Private keys: EVM and Bitcoin 32 bytes of hex within the secp256k1 group order; Solana the 64-byte
 * secret key in base58 (or solana-keygen's JSON array). Messages never show a key.
 */
import { readSolanaSecretKey, solanaSecretKeyText } from "../../chains/solana/keypair.js";
import type { ChainConfig, SolverKeys } from "../types.js";
import type { Problems } from "../errors.js";

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

type KeyFamily = keyof SolverKeys;

const ENV_OF: Record<KeyFamily, string> = {
  evm: "SOLVER_EVM_PRIVATE_KEY",
  bitcoin: "SOLVER_BITCOIN_PRIVATE_KEY",
  solana: "SOLVER_SOLANA_PRIVATE_KEY",
};

/** Lower-case hex without 0x, or null when this is not a usable private key. */
function normalizeSecp256k1Key(value: string): string | null {
  const hex = value.trim().replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const scalar = BigInt(`0x${hex}`);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) return null;
  return hex.toLowerCase();
}

/** The key in its stored form, or the problem with it (never quoting it). */
function normalizeKey(family: KeyFamily, value: string): { key: string } | { problem: string } {
  if (family === "solana") {
    const reading = readSolanaSecretKey(value);
    if ("problem" in reading) {
      return { problem: `is not a Solana secret key: it ${reading.problem} (value not shown)` };
    }
    return { key: solanaSecretKeyText(reading.keypair) };
  }
  const key = normalizeSecp256k1Key(value);
  if (key === null) return { problem: "is not a 32-byte hex private key on secp256k1 (value not shown)" };
  return { key: family === "evm" ? `0x${key}` : key };
}

function resolveKey(problems: Problems, family: KeyFamily, value: string, needed: boolean): string {
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
  const normalized = normalizeKey(family, value);
  if ("problem" in normalized) {
    problems.add(path, normalized.problem);
    return "";
  }
  return normalized.key;
}

/**
 * EVM key as 0x-prefixed lower-case hex, Bitcoin key as lower-case hex, Solana key as base58 of its 64
 * bytes; each is required only when a chain of its family is configured, and is "" otherwise.
 */
export function resolveKeys(problems: Problems, raw: SolverKeys, chains: readonly ChainConfig[]): SolverKeys {
  const needed = (family: KeyFamily) => chains.some((c) => c.family === family);
  return {
    evm: resolveKey(problems, "evm", raw.evm, needed("evm")),
    bitcoin: resolveKey(problems, "bitcoin", raw.bitcoin, needed("bitcoin")),
    solana: resolveKey(problems, "solana", raw.solana, needed("solana")),
  };
}
