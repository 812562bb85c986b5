/**
 * `config check --online` for a Solana chain: every endpoint serves the cluster the chain's name is (its
 * genesis hash, for the live clusters), both HTLC programs are executable accounts there, and every SPL
 * asset's mint is a mint of the configured decimals.
 */
import type { OnlineProblem } from "../family-module.js";
import { failureText, jsonRpcCall } from "../online-rpc.js";
import type { SolanaChainConfig } from "./config.js";
import { KNOWN_SOLANA_CLUSTERS } from "./known-mints.js";
import { decodeMint } from "./spl-token.js";

interface AccountInfo {
  executable: boolean;
  owner: string;
  data: [string, string];
}

async function account(config: SolanaChainConfig, url: string, address: string): Promise<AccountInfo | null> {
  const answer = (await jsonRpcCall(url, "getAccountInfo", [address, { encoding: "base64" }], {
    timeoutMs: config.rpcTimeoutMs,
  })) as { value: AccountInfo | null } | null;
  return answer?.value ?? null;
}

async function endpointProblem(
  config: SolanaChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  let genesis: unknown;
  try {
    genesis = await jsonRpcCall(url, "getGenesisHash", [], { timeoutMs: config.rpcTimeoutMs });
  } catch (error) {
    return { key: `rpcUrls[${index}]`, message: `does not answer getGenesisHash (${failureText(error)})` };
  }
  const known = KNOWN_SOLANA_CLUSTERS[config.name];
  if (known === undefined || genesis === known.genesisHash) return null;
  const message = `${config.name} is the cluster of genesis ${known.genesisHash}; rpcUrls[${index}] serves ${JSON.stringify(genesis)}`;
  return { key: "chainId", message };
}

async function programProblem(
  config: SolanaChainConfig,
  url: string,
  key: "nativeProgramId" | "splProgramId",
) {
  const info = await account(config, url, config[key]);
  if (info === null) return { key, message: `${config[key]} has no account on this cluster` };
  if (!info.executable) return { key, message: `${config[key]} is not an executable program` };
  return null;
}

async function mintProblem(
  config: SolanaChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  const asset = config.assets[index];
  if (asset === undefined || asset.tokenAddress === "native") return null;
  const info = await account(config, url, asset.tokenAddress);
  const key = `assets[${index}].tokenAddress`;
  if (info === null) return { key, message: `${asset.tokenAddress} has no account on this cluster` };
  let decimals: number;
  try {
    decimals = decodeMint(Buffer.from(info.data[0], "base64")).decimals;
  } catch (error) {
    return { key, message: `${asset.tokenAddress} is not an SPL mint (${failureText(error)})` };
  }
  if (decimals === asset.decimals) return null;
  return {
    key: `assets[${index}].decimals`,
    message: `${asset.decimals} differs from mint ${asset.tokenAddress}'s ${decimals}`,
  };
}

export async function checkSolanaChainOnline(config: SolanaChainConfig): Promise<OnlineProblem[]> {
  const problems = (
    await Promise.all(config.rpcUrls.map((url, index) => endpointProblem(config, url, index)))
  ).filter((p): p is OnlineProblem => p !== null);
  const good = config.rpcUrls.find((_, index) => !problems.some((p) => p.key === `rpcUrls[${index}]`));
  if (good === undefined || problems.some((p) => p.key === "chainId")) return problems;
  try {
    const found = await Promise.all([
      programProblem(config, good, "nativeProgramId"),
      programProblem(config, good, "splProgramId"),
      ...config.assets.map((_, index) => mintProblem(config, good, index)),
    ]);
    problems.push(...found.filter((p): p is OnlineProblem => p !== null));
  } catch (error) {
    problems.push({ key: "rpcUrls[0]", message: `accounts could not be read (${failureText(error)})` });
  }
  return problems;
}
