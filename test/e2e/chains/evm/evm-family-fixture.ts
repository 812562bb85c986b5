/**
 * One anvil with the real HTLC contracts, a token, a solver key and a user, configured the way the
 * solver sees an EVM chain. Each test file starts its own, so files run in parallel.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseEther, type Address, type Hex } from "viem";
import type {
  ActionKind,
  ActionRequest,
  HtlcParams,
  SignedTx,
  TxAttemptRef,
  TxStatus,
} from "../../../../src/chains/chain.js";
import { loadArtifact } from "../../../../src/chains/evm/artifacts.js";
import { erc20Abi, htlcAbi, NATIVE_TOKEN_ADDRESS } from "../../../../src/chains/evm/htlc-abi.js";
import type { EvmExecutor } from "../../../../src/chains/evm/executor.js";
import type { EvmReader } from "../../../../src/chains/evm/reader.js";
import {
  deployHtlc,
  deployNativeHtlc,
  deployTestToken,
} from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import type { MemoryJournal } from "../../../support/memory-journal.js";
import {
  newSecret,
  send,
  startChainFixture,
  type Actor,
  type ChainFixture,
} from "../../contracts/fixture.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";

export const TOKEN_ASSET = "anvil:TUSD";
export const NATIVE_ASSET = "anvil:ETH";
export const MINTED = 10n ** 15n;

export interface EvmFamilyFixture {
  fx: ChainFixture;
  config: EvmChainConfig;
  token: Address;
  tokenHtlc: Address;
  nativeHtlc: Address;
  solverKey: Hex;
  solver: Address;
  /** The user: initiates sources for the solver and redeems the solver's fills. */
  user: Actor;
  stop(): Promise<void>;
}

export async function startEvmFamilyFixture(chainId: number): Promise<EvmFamilyFixture> {
  const fx = await startChainFixture(chainId);
  try {
    const token = await deployTestToken(fx.deployer.wallet, fx.pub, {
      name: "Test USD",
      symbol: "TUSD",
      decimals: 6,
    });
    const tokenHtlc = await deployHtlc(fx.deployer.wallet, fx.pub, token);
    const nativeHtlc = await deployNativeHtlc(fx.deployer.wallet, fx.pub);
    const solverKey = generatePrivateKey();
    const solver = privateKeyToAccount(solverKey).address;
    await fx.testClient.setBalance({ address: solver, value: parseEther("1000") });
    const tokenAbi = loadArtifact("TestToken").abi;
    for (const to of [solver, fx.alice.address]) {
      await send(fx, fx.deployer, {
        address: token,
        abi: tokenAbi,
        functionName: "mint",
        args: [to, MINTED],
      });
    }
    await send(fx, fx.alice, {
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [tokenHtlc, MINTED],
    });
    const config: EvmChainConfig = {
      family: "evm",
      name: "anvil",
      chainId,
      rpcUrls: [fx.anvil.rpcUrl],
      minBlockTimeMs: 100,
      maxBlockTimeMs: 2_000,
      minConfirmations: 1,
      finalityDepth: 1,
      fillTimelockBlocks: 20,
      bumpAfterMs: 10_000,
      maxFeePerGasWei: parseEther("0.0001"),
      maxHeadLagBlocks: 3,
      rpcTimeoutMs: 15_000,
      assets: [
        {
          id: TOKEN_ASSET,
          chain: "anvil",
          symbol: "TUSD",
          decimals: 6,
          tokenAddress: token,
          htlcAddress: tokenHtlc,
        },
        {
          id: NATIVE_ASSET,
          chain: "anvil",
          symbol: "ETH",
          decimals: 18,
          tokenAddress: NATIVE_TOKEN_ADDRESS,
          htlcAddress: nativeHtlc,
        },
      ],
    };
    return {
      fx,
      config,
      token,
      tokenHtlc,
      nativeHtlc,
      solverKey,
      solver,
      user: fx.alice,
      stop: () => fx.stop(),
    };
  } catch (error) {
    await fx.stop();
    throw error;
  }
}

export interface Terms {
  params: HtlcParams;
  secret: Hex;
}

/** Order terms on one asset; `swapId` is left empty for the caller to compute. */
export function terms(
  asset: string,
  initiator: Address,
  redeemer: Address,
  amount: bigint,
  timelock: bigint,
): Terms {
  const { secret, secretHash } = newSecret();
  return {
    secret,
    params: {
      chain: "anvil",
      asset,
      swapId: "",
      initiator,
      redeemer,
      secretHash: secretHash.slice(2),
      timelock,
      amount,
    },
  };
}

/** The user locks a source for the solver, as the user's wallet would. */
export async function userInitiates(f: EvmFamilyFixture, params: HtlcParams): Promise<void> {
  const native = params.asset === NATIVE_ASSET;
  await send(f.fx, f.user, {
    address: native ? f.nativeHtlc : f.tokenHtlc,
    abi: htlcAbi,
    functionName: "initiate",
    args: [params.redeemer, params.timelock, params.amount, `0x${params.secretHash}`],
    ...(native ? { value: params.amount } : {}),
  });
}

/** The terms with the swap id the solver's reader computes for them. */
export function withSwapId(reader: EvmReader, t: Terms): Terms {
  t.params.swapId = reader.computeSwapId(t.params);
  return t;
}

/** An action of a test order named after its swap id. */
export function actionOf(kind: ActionKind, params: HtlcParams, secret?: string): ActionRequest {
  return { kind, orderId: `order-${params.swapId.slice(0, 8)}`, params, ...(secret ? { secret } : {}) };
}

/**
 * The runner's sequence: build, journal, broadcast, then follow the actions the transaction carries until
 * their status settles.
 */
export async function runActions(
  executor: EvmExecutor,
  journal: MemoryJournal,
  actions: ActionRequest[],
): Promise<{ signed: SignedTx; status: TxStatus }> {
  const signed = await executor.build(actions);
  const omitted = new Set((signed.omitted ?? []).map((o) => o.index));
  const attempt = journal.record(signed);
  await executor.broadcast(signed);
  const carried = actions.filter((_, i) => !omitted.has(i));
  return { signed, status: await settleActions(executor, attempt, carried) };
}

/** Follows a journaled attempt as the runner does (anvil mines an automined one just after accepting it). */
export async function settleActions(
  executor: EvmExecutor,
  attempt: TxAttemptRef,
  actions: ActionRequest[],
): Promise<TxStatus> {
  for (let i = 0; i < 50; i++) {
    const status = await executor.txStatus(attempt, actions);
    if (status.state !== "pending" && status.state !== "unknown") return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${attempt.txHash} did not settle in 2.5 s`);
}
