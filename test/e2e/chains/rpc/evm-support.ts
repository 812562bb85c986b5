/**
 * Shared setup of the EVM endpoint-fault tests: one anvil, proxies in front of it, a chain config over
 * the proxies, and transfers signed here so that sends need nothing of the solver but its RPC client.
 */
import {
  createPublicClient,
  http,
  parseEther,
  parseGwei,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { evmChain } from "../../../../src/chains/evm/client.js";
import { startAnvil, type AnvilInstance } from "@htlc-solver/localnet/families/evm/anvil.js";
import { anvilAccount } from "../../../support/evm-accounts.js";
import { FaultProxy, type FaultConfig } from "../../../support/fault-proxy.js";
import type { EvmChainConfig } from "../../../../src/chains/evm/config.js";

export interface EvmRpcFixture {
  anvil: AnvilInstance;
  /** Straight to anvil, for the truth. */
  direct: PublicClient;
  proxies: FaultProxy[];
  proxy(config: Partial<FaultConfig>, seed: number): Promise<FaultProxy>;
  config(urls: string[]): EvmChainConfig;
  stop(): Promise<void>;
}

export async function startEvmRpcFixture(chainId: number): Promise<EvmRpcFixture> {
  const anvil = await startAnvil({ chainId });
  const proxies: FaultProxy[] = [];
  return {
    anvil,
    direct: createPublicClient({
      chain: evmChain(chainId, "anvil", [anvil.rpcUrl]),
      transport: http(anvil.rpcUrl),
    }),
    proxies,
    proxy: async (config, seed) => {
      const proxy = new FaultProxy(anvil.rpcUrl, { seed, config });
      await proxy.start();
      proxies.push(proxy);
      return proxy;
    },
    config: (urls) => ({
      family: "evm",
      name: "anvil",
      chainId,
      rpcUrls: urls,
      minBlockTimeMs: 100,
      maxBlockTimeMs: 2_000,
      minConfirmations: 1,
      finalityDepth: 1,
      fillTimelockBlocks: 20,
      bumpAfterMs: 10_000,
      maxFeePerGasWei: parseEther("0.0001"),
      maxHeadLagBlocks: 3,
      rpcTimeoutMs: 1_000,
      assets: [],
    }),
    stop: async () => {
      await Promise.all(proxies.map((p) => p.stop()));
      await anvil.stop();
    },
  };
}

/** A signed transfer of `value` wei from anvil account `from` to `to`, at its next nonce. */
export async function signedTransfer(
  fx: EvmRpcFixture,
  from: number,
  to: Address,
  value: bigint,
): Promise<Hex> {
  const account = anvilAccount(from);
  const nonce = await fx.direct.getTransactionCount({ address: account.address, blockTag: "pending" });
  return account.signTransaction({
    chainId: fx.anvil.chainId,
    type: "eip1559",
    to,
    value,
    nonce,
    gas: 21_000n,
    maxFeePerGas: parseGwei("100"),
    maxPriorityFeePerGas: parseGwei("1"),
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
