/**
 * `config check --online` for a Starknet chain: every endpoint speaks JSON-RPC spec 0.9 on the configured
 * chain id, the solver's account is a contract there, each asset's HTLC holds the configured token
 * (`token()`), and each token has the configured decimals. Never moves funds.
 */
import type { OnlineProblem } from "../family-module.js";
import { failureText, jsonRpcCall } from "../online-rpc.js";
import type { StarknetChainConfig } from "./config.js";
import { feltHex } from "./felt.js";
import { chainIdFelt } from "./order-id.js";
import { hash } from "starknet";

async function endpointProblem(
  config: StarknetChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  const key = `rpcUrls[${index}]`;
  try {
    const version = await jsonRpcCall(url, "starknet_specVersion", [], { timeoutMs: config.rpcTimeoutMs });
    if (typeof version !== "string" || !version.startsWith("0.9"))
      return { key, message: `speaks JSON-RPC spec ${JSON.stringify(version)}, not 0.9` };
    const chainId = await jsonRpcCall(url, "starknet_chainId", [], { timeoutMs: config.rpcTimeoutMs });
    if (
      typeof chainId === "string" &&
      /^0x[0-9a-fA-F]+$/.test(chainId) &&
      BigInt(chainId) === chainIdFelt(config.chainId)
    )
      return null;
    return {
      key: "chainId",
      message: `${config.chainId}; ${key} serves chain id ${JSON.stringify(chainId)}`,
    };
  } catch (error) {
    return { key, message: `does not answer (${failureText(error)})` };
  }
}

async function view(
  config: StarknetChainConfig,
  url: string,
  contract: string,
  name: string,
): Promise<bigint[]> {
  const request = {
    contract_address: contract,
    entry_point_selector: hash.getSelectorFromName(name),
    calldata: [],
  };
  const answer = await jsonRpcCall(url, "starknet_call", [request, "latest"], {
    timeoutMs: config.rpcTimeoutMs,
  });
  if (
    !Array.isArray(answer) ||
    !answer.every((f) => typeof f === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(f))
  )
    throw new Error(`${name}() answered ${JSON.stringify(answer).slice(0, 80)}, not felts`);
  return answer.map((f: string) => BigInt(f));
}

async function assetProblems(
  config: StarknetChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem[]> {
  const asset = config.assets[index];
  if (asset === undefined) return [];
  const problems: OnlineProblem[] = [];
  try {
    const [token] = await view(config, url, asset.htlcAddress, "token");
    if (token !== BigInt(asset.tokenAddress))
      problems.push({
        key: `assets[${index}].htlcAddress`,
        message: `${asset.htlcAddress} holds token ${token === undefined ? "none" : feltHex(token)}, not ${asset.tokenAddress}`,
      });
  } catch (error) {
    problems.push({
      key: `assets[${index}].htlcAddress`,
      message: `${asset.htlcAddress} is no HTLC here (${failureText(error)})`,
    });
  }
  try {
    const [decimals] = await view(config, url, asset.tokenAddress, "decimals");
    if (decimals !== BigInt(asset.decimals))
      problems.push({
        key: `assets[${index}].decimals`,
        message: `${asset.decimals} differs from the token's ${String(decimals)}`,
      });
  } catch (error) {
    problems.push({
      key: `assets[${index}].tokenAddress`,
      message: `${asset.tokenAddress} is no ERC20 here (${failureText(error)})`,
    });
  }
  return problems;
}

export async function checkStarknetChainOnline(config: StarknetChainConfig): Promise<OnlineProblem[]> {
  const problems = (
    await Promise.all(config.rpcUrls.map((url, index) => endpointProblem(config, url, index)))
  ).filter((p): p is OnlineProblem => p !== null);
  const good = config.rpcUrls.find((_, index) => !problems.some((p) => p.key === `rpcUrls[${index}]`));
  if (good === undefined || problems.some((p) => p.key === "chainId")) return problems;
  try {
    await jsonRpcCall(good, "starknet_getNonce", ["latest", config.accountAddress], {
      timeoutMs: config.rpcTimeoutMs,
    });
  } catch (error) {
    problems.push({
      key: "accountAddress",
      message: `${config.accountAddress} is no account here (${failureText(error)})`,
    });
  }
  for (const found of await Promise.all(config.assets.map((_, index) => assetProblems(config, good, index))))
    problems.push(...found);
  return problems;
}
