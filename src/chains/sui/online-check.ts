/**
 * `config check --online` for a Sui chain: every endpoint holds the configured AtomicSwap package (an
 * endpoint of another network has no such object), each asset's registry there is the package's shared
 * `OrdersRegistry` of the configured coin type (at the configured initial shared version, where one is
 * set), and a coin other than SUI has the configured decimals. Never moves funds.
 */
import type { OnlineProblem } from "../family-module.js";
import { failureText, jsonRpcCall } from "../online-rpc.js";
import { checkedAnswer } from "../rpc/rpc-shape-error.js";
import { sameMoveType, SUI_COIN_TYPE } from "./address.js";
import { objectResponseSchema } from "./rpc-schemas.js";
import type { SuiChainConfig } from "./config.js";

async function objectOn(config: SuiChainConfig, url: string, id: string) {
  const answer = await jsonRpcCall(url, "sui_getObject", [id, { showType: true, showOwner: true }], {
    timeoutMs: config.rpcTimeoutMs,
  });
  return checkedAnswer(config.name, "sui_getObject", answer, objectResponseSchema);
}

async function endpointProblem(
  config: SuiChainConfig,
  url: string,
  index: number,
): Promise<OnlineProblem | null> {
  const key = `rpcUrls[${index}]`;
  try {
    const answer = await objectOn(config, url, config.packageId);
    if ("data" in answer && answer.data.type === "package") return null;
    return {
      key,
      message: `holds no package ${config.packageId}: not this network, or the package id is wrong`,
    };
  } catch (error) {
    return { key, message: `does not answer (${failureText(error)})` };
  }
}

async function assetProblems(config: SuiChainConfig, url: string, index: number): Promise<OnlineProblem[]> {
  const asset = config.assets[index];
  if (asset === undefined) return [];
  const problems: OnlineProblem[] = [];
  const key = `assets[${index}].htlcAddress`;
  try {
    const answer = await objectOn(config, url, asset.htlcAddress);
    const expected = `${config.packageId}::AtomicSwap::OrdersRegistry<${asset.tokenAddress}>`;
    const owner = "data" in answer ? answer.data.owner : undefined;
    const configured = config.registryInitialSharedVersions[asset.symbol.toLowerCase()];
    if (!("data" in answer) || !sameMoveType(answer.data.type, expected))
      problems.push({ key, message: `${asset.htlcAddress} is not a ${expected} here` });
    else if (owner === undefined || owner === "Immutable" || !("Shared" in owner))
      problems.push({ key, message: `${asset.htlcAddress} is not a shared object` });
    else if (configured !== undefined && BigInt(owner.Shared.initial_shared_version) !== configured)
      problems.push({
        key: `registryInitialSharedVersions.${asset.symbol.toLowerCase()}`,
        message: `${configured} differs from the registry's initial shared version ${owner.Shared.initial_shared_version}`,
      });
  } catch (error) {
    problems.push({ key, message: `${asset.htlcAddress} cannot be read here (${failureText(error)})` });
  }
  if (asset.tokenAddress === SUI_COIN_TYPE) return problems;
  try {
    const metadata = await jsonRpcCall(url, "suix_getCoinMetadata", [asset.tokenAddress], {
      timeoutMs: config.rpcTimeoutMs,
    });
    const decimals = (metadata as { decimals?: unknown } | null)?.decimals;
    if (decimals !== asset.decimals)
      problems.push({
        key: `assets[${index}].decimals`,
        message: `${asset.decimals} differs from the coin's ${JSON.stringify(decimals)}`,
      });
  } catch (error) {
    problems.push({
      key: `assets[${index}].tokenAddress`,
      message: `${asset.tokenAddress} has no coin metadata here (${failureText(error)})`,
    });
  }
  return problems;
}

export async function checkSuiChainOnline(config: SuiChainConfig): Promise<OnlineProblem[]> {
  const problems = (
    await Promise.all(config.rpcUrls.map((url, index) => endpointProblem(config, url, index)))
  ).filter((p): p is OnlineProblem => p !== null);
  const good = config.rpcUrls.find((_, index) => !problems.some((p) => p.key === `rpcUrls[${index}]`));
  if (good === undefined) return problems;
  for (const found of await Promise.all(config.assets.map((_, index) => assetProblems(config, good, index))))
    problems.push(...found);
  return problems;
}
