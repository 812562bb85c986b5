/**
 * `config check --online` for an EVM chain: every endpoint answers the configured chain id, and every
 * asset's HTLC and token are the expected contracts (src/chains/evm/deployment-check.ts). Assets left to
 * the service are checked at start instead, once their addresses are known.
 */
import { createPublicClient, http } from "viem";
import { FROM_SERVICE } from "../../config/common-chain.js";
import type { OnlineProblem } from "../family-module.js";
import { failureText, jsonRpcCall } from "../online-rpc.js";
import { evmChainDefinition } from "./client.js";
import type { EvmChainConfig } from "./config.js";
import { htlcProblems, tokenProblems } from "./deployment-check.js";

async function endpointProblems(
  config: EvmChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem[]> {
  let answered: unknown;
  try {
    answered = await jsonRpcCall(url, "eth_chainId", [], { timeoutMs: config.rpcTimeoutMs });
  } catch (error) {
    return [{ key: `rpcUrls[${index}]`, message: `does not answer eth_chainId (${failureText(error)})` }];
  }
  const chainId = typeof answered === "string" && /^0x[0-9a-f]+$/i.test(answered) ? Number(answered) : null;
  if (chainId === config.chainId) return [];
  const what = chainId === null ? `answers ${JSON.stringify(answered)}` : `answers chain id ${chainId}`;
  return [{ key: "chainId", message: `${config.chainId} differs from rpcUrls[${index}], which ${what}` }];
}

export async function checkEvmChainOnline(config: EvmChainConfig): Promise<OnlineProblem[]> {
  const problems: OnlineProblem[] = [];
  for (const [index, url] of config.rpcUrls.entries())
    problems.push(...(await endpointProblems(config, url, index)));
  // Contracts are read through an endpoint on the right chain; without one there is nothing to read.
  const good = config.rpcUrls.find((_, index) => !problems.some((p) => p.key === `rpcUrls[${index}]`));
  if (good === undefined || problems.some((p) => p.key === "chainId")) return problems;
  const client = createPublicClient({
    chain: evmChainDefinition(config),
    transport: http(good, { timeout: config.rpcTimeoutMs, retryCount: 1 }),
  });
  for (const [index, asset] of config.assets.entries()) {
    if (asset.htlcAddress === FROM_SERVICE || asset.tokenAddress === FROM_SERVICE) continue;
    try {
      const found = [
        ...(await tokenProblems(client, asset)),
        ...(await htlcProblems(client, config.chainId, asset)),
      ];
      problems.push(...found.map((p) => ({ key: `assets[${index}].${p.key}`, message: p.message })));
    } catch (error) {
      problems.push({ key: `assets[${index}]`, message: `could not be read (${failureText(error)})` });
    }
  }
  return problems;
}
