import {
  createPublicClient,
  createWalletClient,
  http,
  numberToHex,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import type { LocalnetAccount } from "../../accounts.js";
import { anvilRequest } from "./anvil.js";
import {
  deployBatchExecutor,
  deployHtlc,
  deployNativeHtlc,
  deployTestToken,
  placeMulticall3,
  type DeployerWallet,
} from "./deploy-evm.js";

export interface LocalTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Whole units minted to each funded account. */
  mintWholeUnits: bigint;
}

/** What a local EVM chain holds for the solver: its assets, and the batch executor fills delegate to. */
export interface LocalEvmContracts {
  assets: DeployedAsset[];
  batchExecutor: Address;
}

export interface DeployedAsset {
  symbol: string;
  name: string;
  decimals: number;
  /** ERC20 address, or `native`. */
  tokenAddress: string;
  htlcAddress: Address;
}

const mintAbi = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

export const LOCAL_TOKENS: LocalTokenSpec[] = [
  { symbol: "usdc", name: "USD Coin (local)", decimals: 6, mintWholeUnits: 1_000_000n },
  { symbol: "wbtc", name: "Wrapped Bitcoin (local)", decimals: 8, mintWholeUnits: 100n },
];

/** What an account anvil did not prefund is given of the coin (anvil's own prefund is 10,000). */
const UNFUNDED_ACCOUNT_COIN = 10_000n * 10n ** 18n;

/**
 * Deploys the test tokens with their HTLCs and the NativeHTLC, and mints tokens to every funded account.
 * The coin comes from anvil's prefunded balances; `coinless` accounts (past anvil's prefunded ones) get
 * the same amount set directly. Mints are sent back to back and awaited together: on a chain mining per
 * transaction that takes a moment, on one mining per interval a block or two, whatever the user count.
 */
export async function setUpEvmChain(options: {
  chainId: number;
  name: string;
  rpcUrl: string;
  deployer: LocalnetAccount;
  funded: Address[];
  coinless?: Address[];
}): Promise<LocalEvmContracts> {
  for (const address of options.coinless ?? []) {
    await anvilRequest(options.rpcUrl, "anvil_setBalance", [address, numberToHex(UNFUNDED_ACCOUNT_COIN)]);
  }
  const chain = evmChain(options.chainId, options.name, [options.rpcUrl]);
  const pub = createPublicClient({
    chain,
    transport: http(options.rpcUrl),
    pollingInterval: 100,
  }) as PublicClient;
  const wallet: DeployerWallet = createWalletClient({
    chain,
    transport: http(options.rpcUrl),
    account: privateKeyToAccount(options.deployer.privateKey),
  });
  const assets: DeployedAsset[] = [];
  for (const spec of LOCAL_TOKENS) {
    const token = await deployTestToken(wallet, pub, spec);
    const htlc = await deployHtlc(wallet, pub, token);
    const amount = spec.mintWholeUnits * 10n ** BigInt(spec.decimals);
    const sent: { to: Address; hash: Hex }[] = [];
    let nonce = await pub.getTransactionCount({ address: wallet.account.address, blockTag: "pending" });
    for (const to of options.funded) {
      const hash = await wallet.writeContract({
        address: token,
        abi: mintAbi,
        chain,
        functionName: "mint",
        args: [to, amount],
        nonce: nonce++,
      });
      sent.push({ to, hash });
    }
    const receipts = await Promise.all(sent.map(({ hash }) => pub.waitForTransactionReceipt({ hash })));
    receipts.forEach((receipt, i) => {
      if (receipt.status !== "success")
        throw new Error(`minting ${spec.symbol} to ${sent[i]?.to} on ${options.name} reverted`);
    });
    assets.push({
      symbol: spec.symbol,
      name: spec.name,
      decimals: spec.decimals,
      tokenAddress: token,
      htlcAddress: htlc,
    });
  }
  const nativeHtlc = await deployNativeHtlc(wallet, pub);
  assets.push({
    symbol: "eth",
    name: "Ether (local)",
    decimals: 18,
    tokenAddress: "native",
    htlcAddress: nativeHtlc,
  });
  // As on public chains: Multicall3 at its canonical address (batched redeems and refunds), and a
  // BatchExecutor the solver's account delegates to (batched fills).
  await placeMulticall3(options.rpcUrl);
  const batchExecutor = await deployBatchExecutor(wallet, pub);
  return { assets, batchExecutor };
}
