/** Deploys the HTLC contracts and test tokens to a (local) EVM chain. */
import {
  BaseError,
  getAddress,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { loadArtifact, type ContractName } from "htlc-solver/chains/evm/artifacts.js";
import { MULTICALL3_ADDRESS } from "htlc-solver/chains/evm/batch/multicall3.js";
import { anvilRequest } from "./anvil.js";

/** A wallet client with an account attached (the deployer). */
export type DeployerWallet = WalletClient<Transport, Chain | undefined, Account>;

export interface TestTokenOptions {
  name: string;
  symbol: string;
  decimals: number;
}

export class EvmDeploymentError extends Error {
  constructor(contract: ContractName, reason: string, options?: { cause?: unknown }) {
    super(`deployment of ${contract} failed: ${reason}`, options);
    this.name = "EvmDeploymentError";
  }
}

export function deployTestToken(
  wallet: DeployerWallet,
  pub: PublicClient,
  options: TestTokenOptions,
): Promise<Address> {
  return deploy(wallet, pub, "TestToken", [options.name, options.symbol, options.decimals]);
}

/** ERC20 HTLC bound to `token`. */
export function deployHtlc(wallet: DeployerWallet, pub: PublicClient, token: Address): Promise<Address> {
  return deploy(wallet, pub, "HTLC", [token]);
}

export function deployNativeHtlc(wallet: DeployerWallet, pub: PublicClient): Promise<Address> {
  return deploy(wallet, pub, "NativeHTLC", []);
}

/** EIP-1271 wallet controlled by `owner`; for tests of contract-wallet signatures. */
export function deployTestSmartWallet(
  wallet: DeployerWallet,
  pub: PublicClient,
  owner: Address,
): Promise<Address> {
  return deploy(wallet, pub, "TestSmartWallet", [owner]);
}

/** An AggregatorV3-shaped feed answering `answer` (in units of 10^-decimals USD) until its owner sets another. */
export function deployTestPriceFeed(
  wallet: DeployerWallet,
  pub: PublicClient,
  options: { decimals: number; description: string; answer: bigint },
): Promise<Address> {
  return deploy(wallet, pub, "TestPriceFeed", [options.decimals, options.description, options.answer]);
}

/** The EIP-7702 batch executor an account delegates to so that one transaction carries many of its calls. */
export function deployBatchExecutor(wallet: DeployerWallet, pub: PublicClient): Promise<Address> {
  return deploy(wallet, pub, "BatchExecutor", []);
}

/**
 * Puts the project's Multicall3-compatible contract at Multicall3's canonical address, as every public
 * chain has it there; an anvil cannot fetch the deployed one. Returns the address.
 */
export async function placeMulticall3(rpcUrl: string): Promise<Address> {
  await anvilRequest(rpcUrl, "anvil_setCode", [
    MULTICALL3_ADDRESS,
    loadArtifact("Multicall").deployedBytecode,
  ]);
  return MULTICALL3_ADDRESS;
}

/** Far beyond any deploy on a local node, well inside the tests' start deadline. */
const DEPLOY_RECEIPT_TIMEOUT_MS = 60_000;

async function deploy(
  wallet: DeployerWallet,
  pub: PublicClient,
  name: ContractName,
  args: readonly unknown[],
): Promise<Address> {
  const { abi, bytecode } = loadArtifact(name);
  let hash: Hex;
  try {
    hash = await wallet.deployContract({
      abi,
      bytecode,
      args,
      account: wallet.account,
      chain: wallet.chain ?? null,
    });
  } catch (error) {
    throw new EvmDeploymentError(name, describe(error), { cause: error });
  }
  let receipt;
  try {
    receipt = await pub.waitForTransactionReceipt({ hash, timeout: DEPLOY_RECEIPT_TIMEOUT_MS });
  } catch (error) {
    // A node mines a deploy on arrival: one still unmined waits behind a nonce; say which.
    const account = wallet.account.address;
    const [mined, pending] = await Promise.all([
      pub.getTransactionCount({ address: account, blockTag: "latest" }),
      pub.getTransactionCount({ address: account, blockTag: "pending" }),
    ]).catch(() => [null, null]);
    throw new EvmDeploymentError(
      name,
      `transaction ${hash} was not mined within ${DEPLOY_RECEIPT_TIMEOUT_MS / 1000} s (${account}: nonce ${mined} mined, ${pending} pending): ${describe(error)}`,
      { cause: error },
    );
  }
  if (receipt.status !== "success") {
    throw new EvmDeploymentError(name, `transaction ${hash} reverted in block ${receipt.blockNumber}`);
  }
  if (!receipt.contractAddress) {
    throw new EvmDeploymentError(name, `receipt of ${hash} has no contract address`);
  }
  return getAddress(receipt.contractAddress);
}

function describe(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
