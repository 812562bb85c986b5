/**
 * Assets are written inside their chain; `id` and `chain` follow from it and may be omitted.
 * Native coins are normalised: EVM `native` becomes the 0xEeee… sentinel, Bitcoin's coin is `primary`,
 * Solana's is `native`. A Solana asset's HTLC is its program (native or SPL), set by the chain.
 */
import { solanaAddressProblem } from "../../chains/solana/address.js";
import { NATIVE_TOKEN_ADDRESS } from "../../chains/evm/htlc-abi.js";
import type { AssetConfig } from "../types.js";
import type { Problems } from "../errors.js";
import { describeValue } from "./checks.js";
import { checkEvmAddress, normalizeEvmAddress } from "./evm-address.js";
import { fieldsOf, type Fields } from "./fields.js";

export const ASSET_KEYS = ["id", "chain", "symbol", "decimals", "tokenAddress", "htlcAddress"] as const;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function evmTokenAddress(f: Fields): string {
  const value = f.string("tokenAddress");
  if (f.obj.tokenAddress === undefined) return value;
  if (value === "native" || value.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase())
    return NATIVE_TOKEN_ADDRESS;
  const problem = checkEvmAddress(value);
  if (problem !== null) {
    f.problem("tokenAddress", `${problem}, nor "native"`);
    return value;
  }
  return normalizeEvmAddress(value);
}

function evmHtlcAddress(f: Fields): string {
  const value = f.string("htlcAddress");
  if (f.obj.htlcAddress === undefined) return value;
  const problem = checkEvmAddress(value) ?? (/^0x0{40}$/.test(value) ? "is the zero address" : null);
  if (problem !== null) f.problem("htlcAddress", problem);
  return problem === null ? normalizeEvmAddress(value) : value;
}

function bitcoinAddresses(f: Fields): { tokenAddress: string; htlcAddress: string } {
  const token = f.string("tokenAddress", { default: "primary" });
  if (token !== "primary" && token !== "native") {
    f.problem("tokenAddress", `${describeValue(token)} must be "primary" (Bitcoin has one coin)`);
  }
  const htlc = f.string("htlcAddress", { default: "" });
  if (htlc !== "")
    f.problem("htlcAddress", "must be empty on Bitcoin (each swap has its own script address)");
  return { tokenAddress: "primary", htlcAddress: "" };
}

/** The HTLC programs of a Solana chain, as its config names them. */
export interface SolanaPrograms {
  native: string;
  spl: string;
}

export type AssetFamily =
  { family: "evm" } | { family: "bitcoin" } | { family: "solana"; programs: SolanaPrograms };

function solanaAddresses(f: Fields, programs: SolanaPrograms): { tokenAddress: string; htlcAddress: string } {
  const token = f.string("tokenAddress");
  const native = token === "native";
  if (!native && f.obj.tokenAddress !== undefined) {
    const problem = solanaAddressProblem(token);
    if (problem !== null)
      f.problem("tokenAddress", `${describeValue(token)} ${problem}; give the SPL mint or "native"`);
  }
  const program = native ? programs.native : programs.spl;
  const htlc = f.string("htlcAddress", { default: program });
  if (htlc !== program) {
    const which = native ? "nativeProgramId" : "splProgramId";
    f.problem(
      "htlcAddress",
      `${describeValue(htlc)} must be the chain's ${which} ${program}, or be left out`,
    );
  }
  return { tokenAddress: token, htlcAddress: program };
}

function readAsset(f: Fields, chain: string, kind: AssetFamily): AssetConfig {
  f.onlyKeys(ASSET_KEYS, "an asset");
  const symbol = f.string("symbol", { pattern: SYMBOL, hint: "must be letters, digits, '.', '_' or '-'" });
  const id = `${chain}:${symbol}`;
  if (f.obj.id !== undefined && f.obj.id !== id)
    f.problem("id", `${describeValue(f.obj.id)} must be "${id}"`);
  if (f.obj.chain !== undefined && f.obj.chain !== chain) {
    f.problem("chain", `${describeValue(f.obj.chain)} must be "${chain}", the chain it is listed under`);
  }
  const decimals = f.integer("decimals", 0, 36);
  const addresses =
    kind.family === "evm"
      ? { tokenAddress: evmTokenAddress(f), htlcAddress: evmHtlcAddress(f) }
      : kind.family === "solana"
        ? solanaAddresses(f, kind.programs)
        : bitcoinAddresses(f);
  return { id, chain, symbol, decimals, ...addresses };
}

export function readAssets(
  problems: Problems,
  raw: unknown[],
  path: string,
  chain: string,
  kind: AssetFamily,
): AssetConfig[] {
  const assets: AssetConfig[] = [];
  raw.forEach((value, index) => {
    const f = fieldsOf(problems, value, `${path}[${index}]`, "an asset");
    if (f === null) return;
    const asset = readAsset(f, chain, kind);
    if (assets.some((a) => a.symbol === asset.symbol))
      f.problem("symbol", `"${asset.symbol}" is listed twice`);
    assets.push(asset);
  });
  return assets;
}
