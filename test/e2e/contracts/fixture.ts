/** A real anvil with funded actors, and helpers that send transactions and check their outcome. */
import { randomBytes } from "node:crypto";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  sha256,
  toHex,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
} from "viem";
import { evmChain } from "../../../src/chains/evm/client.js";
import type { HDAccount } from "viem/accounts";
import { expect } from "vitest";
import { buildContracts } from "../../../contracts/evm/compile.js";
import { startAnvil, type AnvilInstance } from "@htlc-solver/localnet/families/evm/anvil.js";
import { anvilAccount } from "../../support/evm-accounts.js";

export type ActorWallet = WalletClient<HttpTransport, Chain, HDAccount>;

export interface Actor {
  address: Address;
  account: HDAccount;
  wallet: ActorWallet;
}

export interface ChainFixture {
  chainId: number;
  anvil: AnvilInstance;
  pub: PublicClient;
  testClient: TestClient;
  /** deployer, alice (initiator), bob (redeemer), carol (funder / relayer), mallory (stranger). */
  deployer: Actor;
  alice: Actor;
  bob: Actor;
  carol: Actor;
  mallory: Actor;
  stop(): Promise<void>;
}

export interface ContractCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
  value?: bigint;
}

export async function startChainFixture(chainId: number): Promise<ChainFixture> {
  // Cheap when contracts/evm/out is up to date; compiles once otherwise.
  buildContracts();
  const anvil = await startAnvil({ chainId });
  const chain = evmChain(chainId, `anvil-${chainId}`, [anvil.rpcUrl]);
  const transport = http(anvil.rpcUrl);
  const actor = (index: number): Actor => {
    const account = anvilAccount(index);
    return { address: account.address, account, wallet: createWalletClient({ account, chain, transport }) };
  };
  return {
    chainId,
    anvil,
    pub: createPublicClient({ chain, transport }),
    testClient: createTestClient({ mode: "anvil", chain, transport }),
    deployer: actor(0),
    alice: actor(1),
    bob: actor(2),
    carol: actor(3),
    mallory: actor(4),
    stop: () => anvil.stop(),
  };
}

/** Sends `call` from `actor`, waits, and fails the test unless the transaction succeeded. */
export async function send(fx: ChainFixture, actor: Actor, call: ContractCall): Promise<TransactionReceipt> {
  const hash = await actor.wallet.writeContract({
    ...call,
    account: actor.account,
    chain: actor.wallet.chain,
  });
  const receipt = await fx.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status, `${call.functionName} should succeed`).toBe("success");
  return receipt;
}

/**
 * Mines `call` as a real transaction (fixed gas, no pre-flight estimate, so it runs in the block it lands
 * in), checks that it reverted, then replays it on that block to read the custom error's name and args.
 */
export async function expectRevert(
  fx: ChainFixture,
  actor: Actor,
  call: ContractCall,
  errorName: string,
): Promise<readonly unknown[]> {
  const hash = await actor.wallet.writeContract({
    ...call,
    account: actor.account,
    chain: actor.wallet.chain,
    gas: 1_000_000n,
  });
  const receipt = await fx.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status, `${call.functionName} should revert with ${errorName}`).toBe("reverted");
  const reverted = await replayRevert(fx, actor, call, receipt.blockNumber);
  expect(reverted.data?.errorName).toBe(errorName);
  return reverted.data?.args ?? [];
}

async function replayRevert(
  fx: ChainFixture,
  actor: Actor,
  call: ContractCall,
  blockNumber: bigint,
): Promise<ContractFunctionRevertedError> {
  try {
    await fx.pub.simulateContract({ ...call, account: actor.account, blockNumber });
  } catch (error) {
    const reverted =
      error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return reverted;
    throw error;
  }
  throw new Error(
    `${call.functionName} reverted on chain but succeeds when replayed on block ${blockNumber}`,
  );
}

export function newSecret(): { secret: Hex; secretHash: Hex } {
  const secret = toHex(randomBytes(32));
  return { secret, secretHash: sha256(secret) };
}

/** Mines `blocks` empty blocks. */
export async function mine(fx: ChainFixture, blocks: number): Promise<void> {
  await fx.testClient.mine({ blocks });
}
