/**
 * What the solver checks of an EVM asset's contracts before it trusts them: the HTLC has code and is the
 * v3 HTLC of this chain for this token (its EIP-5267 domain and `token()`), and the token has code and
 * the configured decimals. Used at start for addresses taken from the service and by
 * `solver config check --online` for every asset. Each problem names the asset setting it is about.
 */
import { getAddress, type Address, type PublicClient } from "viem";
import type { AssetConfig } from "../../config/common-chain.js";
import { erc20Abi, HTLC_EIP712_NAME, HTLC_EIP712_VERSION, htlcAbi } from "./htlc-abi.js";
import { isNativeToken } from "./assets.js";

export interface DeploymentProblem {
  /** The asset setting the problem is about: `htlcAddress`, `tokenAddress` or `decimals`. */
  key: "htlcAddress" | "tokenAddress" | "decimals";
  message: string;
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}

async function hasCode(client: PublicClient, address: Address): Promise<boolean> {
  const code = await client.getCode({ address });
  return code !== undefined && code !== "0x";
}

/** Problems of one asset's HTLC on a chain whose id is `chainId`; none when it is the expected v3 HTLC. */
export async function htlcProblems(
  client: PublicClient,
  chainId: number,
  asset: Pick<AssetConfig, "htlcAddress" | "tokenAddress">,
): Promise<DeploymentProblem[]> {
  const htlc = getAddress(asset.htlcAddress);
  const problem = (message: string): DeploymentProblem[] => [{ key: "htlcAddress", message }];
  if (!(await hasCode(client, htlc))) return problem(`${htlc} has no code on chain ${chainId}`);
  const domain = await client
    .readContract({ address: htlc, abi: htlcAbi, functionName: "eip712Domain" })
    .catch((error: unknown) => new Error(reason(error)));
  if (domain instanceof Error)
    return problem(`${htlc} does not answer eip712Domain() as an HTLC does (${domain.message})`);
  const [, name, version, domainChainId, verifyingContract] = domain;
  const differences: string[] = [];
  if (name !== HTLC_EIP712_NAME) differences.push(`name "${name}", expected "${HTLC_EIP712_NAME}"`);
  if (version !== HTLC_EIP712_VERSION)
    differences.push(
      `version "${version}", expected "${HTLC_EIP712_VERSION}" (the solver computes v3 order ids only)`,
    );
  if (domainChainId !== BigInt(chainId)) differences.push(`chain id ${domainChainId}, expected ${chainId}`);
  if (getAddress(verifyingContract) !== htlc)
    differences.push(`verifying contract ${verifyingContract}, expected the HTLC itself`);
  if (differences.length > 0) return problem(`${htlc}'s EIP-712 domain has ${differences.join("; ")}`);
  if (isNativeToken(asset.tokenAddress)) return [];
  const token = await client
    .readContract({ address: htlc, abi: htlcAbi, functionName: "token" })
    .catch((error: unknown) => new Error(reason(error)));
  if (token instanceof Error)
    return problem(`${htlc} does not answer token() as an ERC20 HTLC does (${token.message})`);
  const expected = getAddress(asset.tokenAddress);
  if (getAddress(token) !== expected) return problem(`${htlc} holds token ${token}, not ${expected}`);
  return [];
}

/** Problems of one asset's token: it has code and the configured decimals. The native coin has none. */
export async function tokenProblems(
  client: PublicClient,
  asset: Pick<AssetConfig, "tokenAddress" | "decimals">,
): Promise<DeploymentProblem[]> {
  if (isNativeToken(asset.tokenAddress)) return [];
  const token = getAddress(asset.tokenAddress);
  if (!(await hasCode(client, token)))
    return [{ key: "tokenAddress", message: `${token} has no code on this chain` }];
  const decimals = await client
    .readContract({ address: token, abi: erc20Abi, functionName: "decimals" })
    .catch((error: unknown) => new Error(reason(error)));
  if (decimals instanceof Error)
    return [{ key: "tokenAddress", message: `${token} does not answer decimals() (${decimals.message})` }];
  if (decimals !== asset.decimals)
    return [{ key: "decimals", message: `${asset.decimals} differs from ${token}'s decimals() ${decimals}` }];
  return [];
}
