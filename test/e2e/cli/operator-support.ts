/**
 * The operator's commands against a localnet whose solver is not running: the localnet's profile and key
 * file written as `solver localnet` writes them, each command run through the CLI, and the chains' own
 * balances read apart from the solver's code.
 */
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { createPublicClient, erc20Abi, http, type Address } from "viem";
import { runCli } from "../../../src/cli.js";
import { coinOf } from "../../../src/chains/coins.js";
import { resolveSolanaAsset } from "../../../src/chains/solana/assets.js";
import { associatedTokenAddress } from "../../../src/chains/solana/spl-token.js";
import { isNativeToken } from "../../../src/chains/evm/assets.js";
import { writeKeyFile, writeSolverProfile } from "../../../src/cli/solver-profile.js";
import type { AssetConfig } from "../../../src/config/types.js";
import { tokenBalance } from "@htlc-solver/localnet/families/solana/user-solana.js";
import type { TestLocalnet } from "../../support/localnet.js";
import { recordingIo } from "../../unit/cli/io.js";

/**
 * Writes `<dir>/solver.json` with `<dir>/solver-keys.json`; returns the profile's path. Each chain's coin
 * gets a floor of a tenth of a coin, the reserve kept for fees.
 */
export function writeProfile(t: TestLocalnet): string {
  const config = t.net.solverConfig;
  const coinFloors = Object.fromEntries(
    config.chains.flatMap((chain) => {
      const coin = coinOf(chain);
      return coin === undefined ? [] : [[coin.id, 10n ** BigInt(coin.decimals - 1)]];
    }),
  );
  config.limits.inventoryFloor = { ...config.limits.inventoryFloor, ...coinFloors };
  const keyFile = join(t.dir, "solver-keys.json");
  writeKeyFile(keyFile, config.solver.keys);
  const profile = join(t.dir, "solver.json");
  writeSolverProfile(profile, config, { keyFile });
  return profile;
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function solver(profile: string, ...args: string[]): Promise<CliRun> {
  const io = recordingIo({});
  const code = await runCli([...args, "--config", profile], { io });
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

export function assetOf(t: TestLocalnet, id: string): AssetConfig {
  const asset = t.net.solverConfig.chains.flatMap((c) => c.assets).find((a) => a.id === id);
  if (asset === undefined) throw new Error(`the localnet has no asset ${id}`);
  return asset;
}

/** An address's holding of an asset, smallest units, read from the chain's node directly. */
export async function chainBalance(t: TestLocalnet, assetId: string, owner: string): Promise<bigint> {
  const asset = assetOf(t, assetId);
  const chain = t.net.solverConfig.chains.find((c) => c.name === asset.chain)!;
  if (chain.family === "evm") {
    const client = createPublicClient({ transport: http(chain.rpcUrls[0]) });
    if (isNativeToken(asset.tokenAddress)) return client.getBalance({ address: owner as Address });
    return client.readContract({
      address: asset.tokenAddress as Address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner as Address],
    });
  }
  if (chain.family === "bitcoin") {
    const scan = (await t.net.bitcoin.rpc.call("scantxoutset", ["start", [`addr(${owner})`]])) as {
      unspents: { amount: number | string }[];
    };
    // The node answers in BTC with 8 decimals; read as text, never through a float.
    return scan.unspents.reduce((sum, u) => sum + satoshis(String(u.amount)), 0n);
  }
  // The local Starknet chain answers from its state, as a balance_of call would.
  if (chain.family === "starknet") return t.net.starknet.local.balanceOf(asset.tokenAddress, owner);
  // The local Sui chain's own sum of the owner's coins of the type, as suix_getBalance answers.
  if (chain.family === "sui") return t.net.sui.local.balanceOf(asset.tokenAddress, owner);
  const rpc = t.user(0).solana.rpc;
  const resolved = resolveSolanaAsset(chain, assetId);
  const key = new PublicKey(owner);
  if (resolved.mint === null) return (await rpc.getBalance(key, "processed")).lamports;
  return tokenBalance(rpc, associatedTokenAddress(key, resolved.mint));
}

function satoshis(btc: string): bigint {
  const [whole = "0", fraction = ""] = btc.split(".");
  return BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, "0").slice(0, 8));
}
