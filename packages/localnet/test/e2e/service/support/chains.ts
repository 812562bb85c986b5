/** Two real anvil chains, each with a test USDC token, its HTLC and a NativeHTLC, and funded actors. */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  http,
  maxUint256,
  parseAbi,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from "viem";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import type { HDAccount } from "viem/accounts";
import { buildContracts } from "htlc-solver/contracts/evm/compile.js";
import { htlcAbi } from "htlc-solver/chains/evm/htlc-abi.js";
import { startAnvil, type AnvilInstance } from "../../../../src/families/evm/anvil.js";
import { deployHtlc, deployNativeHtlc, deployTestToken } from "../../../../src/families/evm/deploy-evm.js";
import { anvilAccount } from "../../../../../../test/support/evm-accounts.js";

/** Account indexes of anvil's default mnemonic. */
export const ROLES = { deployer: 0, relayer: 1, solver: 2, user: 3, otherUser: 4 } as const;
export const USDC_DECIMALS = 6;
const MINT = 1_000_000_000_000n;

export type Wallet = WalletClient<HttpTransport, Chain, HDAccount>;

export interface TestChain {
  name: string;
  chainId: number;
  rpcUrl: string;
  anvil: AnvilInstance;
  pub: PublicClient<HttpTransport, Chain>;
  test: TestClient;
  token: Address;
  htlc: Address;
  nativeHtlc: Address;
  wallet(role: keyof typeof ROLES): Wallet;
}

const mintAbi = parseAbi(["function mint(address to, uint256 amount)"]);

export async function startTestChain(name: string, chainId: number): Promise<TestChain> {
  buildContracts();
  const anvil = await startAnvil({ chainId });
  try {
    const chain = evmChain(chainId, name, [anvil.rpcUrl]);
    const transport = http(anvil.rpcUrl);
    const pub = createPublicClient({ chain, transport, cacheTime: 0 });
    const wallet = (role: keyof typeof ROLES): Wallet =>
      createWalletClient({ account: anvilAccount(ROLES[role]), chain, transport });
    const deployer = wallet("deployer");
    const token = await deployTestToken(deployer, pub, {
      name: "USD Coin",
      symbol: "USDC",
      decimals: USDC_DECIMALS,
    });
    const htlc = await deployHtlc(deployer, pub, token);
    const nativeHtlc = await deployNativeHtlc(deployer, pub);
    for (const role of ["solver", "user", "otherUser"] as const) {
      const account = anvilAccount(ROLES[role]).address;
      await confirm(
        pub,
        await deployer.writeContract({
          address: token,
          abi: mintAbi,
          functionName: "mint",
          args: [account, MINT],
        }),
      );
      await confirm(
        pub,
        await wallet(role).writeContract({
          address: token,
          abi: erc20Abi,
          functionName: "approve",
          args: [htlc, maxUint256],
        }),
      );
    }
    const test = createTestClient({ mode: "anvil", chain, transport });
    return { name, chainId, rpcUrl: anvil.rpcUrl, anvil, pub, test, token, htlc, nativeHtlc, wallet };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

export async function confirm(pub: PublicClient, hash: Hex): Promise<void> {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
}

export async function tokenBalance(chain: TestChain, owner: Address): Promise<bigint> {
  return chain.pub.readContract({
    address: chain.token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/** The solver's side of a swap: lock the destination exactly as the order states it. */
export async function initiateAs(
  chain: TestChain,
  role: keyof typeof ROLES,
  htlc: Address,
  terms: { redeemer: string; timelock: number; amount: string; secretHash: string },
  value = 0n,
): Promise<Hex> {
  const hash = await chain.wallet(role).writeContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "initiate",
    args: [terms.redeemer as Address, BigInt(terms.timelock), BigInt(terms.amount), `0x${terms.secretHash}`],
    value,
  });
  await confirm(chain.pub, hash);
  return hash;
}

export async function redeemAs(
  chain: TestChain,
  role: keyof typeof ROLES,
  htlc: Address,
  swapId: string,
  secret: string,
): Promise<Hex> {
  const hash = await chain.wallet(role).writeContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "redeem",
    args: [`0x${swapId}`, `0x${secret}`],
  });
  await confirm(chain.pub, hash);
  return hash;
}

export async function refundAs(
  chain: TestChain,
  role: keyof typeof ROLES,
  htlc: Address,
  swapId: string,
): Promise<Hex> {
  const hash = await chain.wallet(role).writeContract({
    address: htlc,
    abi: htlcAbi,
    functionName: "refund",
    args: [`0x${swapId}`],
  });
  await confirm(chain.pub, hash);
  return hash;
}
