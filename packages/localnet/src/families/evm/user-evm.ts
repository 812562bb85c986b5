/**
 * A localnet user's EVM account: locks an EVM source with an EIP-712 signature the service relays or by
 * calling the HTLC itself, redeems a destination with its own secret, and reads its balances.
 */
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  formatUnits,
  http,
  maxUint256,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import {
  erc20Abi,
  htlcAbi,
  htlcTypedDataTypes,
  HTLC_EIP712_NAME,
  HTLC_EIP712_VERSION,
} from "htlc-solver/chains/evm/htlc-abi.js";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalUserContext, LocalUserFamily, LocalUserPart } from "../local-user-family.js";
import { EVM_DEMO_SWAPS } from "./evm-demo-swaps.js";
import type { LocalnetAssetDescriptor, LocalnetEvmChainDescriptor } from "./evm-descriptor.js";
import { gasWithMargin } from "./gas-margin.js";

export interface EvmUserMembers {
  readonly account: PrivateKeyAccount;
  /** The user's EVM address: the owner of its EVM order sides. */
  readonly address: Address;
  assetOf(assetId: string): { chain: LocalnetEvmChainDescriptor; asset: LocalnetAssetDescriptor };
  /** ERC20 source without paying gas for the lock: approve, sign EIP-712 `Initiate`, let the service relay it. */
  initiateWithSignature(order: Order): Promise<string>;
  /** The user's EIP-712 `Initiate` signature of the order's source terms, for its HTLC to take the tokens. */
  signInitiate(order: Order): Promise<Hex>;
  /** Locks the source by calling the HTLC directly (the only way for the native coin). */
  initiateOnChain(order: Order): Promise<Hex>;
  /** Redeems an EVM destination with the user's own secret. */
  redeemDestination(order: Order, secret: Hex): Promise<Hex>;
}

export function evmUserPart(context: LocalUserContext): LocalUserPart<EvmUserMembers> {
  const { descriptor, orderbook } = context;
  const account = privateKeyToAccount(context.keys.privateKey);
  const address = account.address;

  const holds = (assetId: string) => descriptor.chains.some((c) => c.assets.some((a) => a.id === assetId));

  function assetOf(assetId: string) {
    for (const chain of descriptor.chains) {
      const asset = chain.assets.find((a) => a.id === assetId);
      if (asset) return { chain, asset };
    }
    throw new Error(`asset ${assetId} is not on this localnet`);
  }

  function clients(chain: LocalnetEvmChainDescriptor) {
    const viemChain = evmChain(chain.chainId, chain.name, [chain.rpcUrl]);
    const pub = createPublicClient({
      chain: viemChain,
      transport: http(chain.rpcUrl),
      pollingInterval: 250,
    }) as PublicClient;
    const wallet = createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl), account });
    return { pub, wallet };
  }

  async function expectSuccess(pub: PublicClient, hash: Hex, what: string): Promise<void> {
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what} transaction ${hash} reverted`);
  }

  async function approve(chain: LocalnetEvmChainDescriptor, asset: LocalnetAssetDescriptor): Promise<void> {
    const { wallet, pub } = clients(chain);
    const token = asset.tokenAddress as Address;
    const allowance = await pub.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [address, asset.htlcAddress],
    });
    if (allowance > maxUint256 / 2n) return;
    const hash = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [asset.htlcAddress, maxUint256],
    });
    await expectSuccess(pub, hash, "approve");
  }

  function signInitiate(order: Order): Promise<Hex> {
    const { chain, asset } = assetOf(order.source_swap.asset);
    const swap = order.source_swap;
    return account.signTypedData({
      domain: {
        name: HTLC_EIP712_NAME,
        version: HTLC_EIP712_VERSION,
        chainId: chain.chainId,
        verifyingContract: asset.htlcAddress,
      },
      types: htlcTypedDataTypes,
      primaryType: "Initiate",
      message: {
        redeemer: swap.redeemer as Address,
        timelock: BigInt(swap.timelock),
        amount: BigInt(swap.amount),
        secretHash: `0x${swap.secret_hash}`,
      },
    });
  }

  const members: EvmUserMembers = {
    account,
    address,
    assetOf,
    signInitiate,

    async initiateWithSignature(order) {
      const { chain, asset } = assetOf(order.source_swap.asset);
      await approve(chain, asset);
      return orderbook.initiate(order.order_id, await signInitiate(order));
    },

    async initiateOnChain(order) {
      const { chain, asset } = assetOf(order.source_swap.asset);
      const swap = order.source_swap;
      const native = asset.tokenAddress === "native";
      if (!native) await approve(chain, asset);
      const { wallet, pub } = clients(chain);
      const data = encodeFunctionData({
        abi: htlcAbi,
        functionName: "initiate",
        args: [swap.redeemer as Address, BigInt(swap.timelock), BigInt(swap.amount), `0x${swap.secret_hash}`],
      });
      const value = native ? BigInt(swap.amount) : 0n;
      const to = asset.htlcAddress;
      const gas = await gasWithMargin(pub, { account: address, to, data, value });
      const hash = await wallet.sendTransaction({ to, data, value, gas });
      await expectSuccess(pub, hash, "initiate");
      return hash;
    },

    async redeemDestination(order, secret) {
      const { chain, asset } = assetOf(order.destination_swap.asset);
      const { wallet, pub } = clients(chain);
      const hash = await wallet.writeContract({
        address: asset.htlcAddress,
        abi: htlcAbi,
        functionName: "redeem",
        args: [`0x${order.destination_swap.swap_id}`, secret],
      });
      await expectSuccess(pub, hash, "redeem");
      return hash;
    },
  };

  return {
    members,
    wallet: {
      holds,
      orderParty: () => ({ owner: address }),
      async balance(assetId) {
        const { chain, asset } = assetOf(assetId);
        const { pub } = clients(chain);
        if (asset.tokenAddress === "native") return pub.getBalance({ address });
        return pub.readContract({
          address: asset.tokenAddress as Address,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [address],
        });
      },
      describeAmount(assetId, amount) {
        const { chain, asset } = assetOf(assetId);
        return `${formatUnits(amount, asset.decimals)} ${asset.symbol} on ${chain.name}`;
      },
    },
  };
}

export const evmUserFamily: LocalUserFamily<EvmUserMembers> = {
  user: evmUserPart,
  demoSwaps: EVM_DEMO_SWAPS,
};
