import { Keypair } from "@solana/web3.js";
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519";
import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import { solanaSecretKeyText } from "htlc-solver/chains/solana/keypair.js";
import { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { QuoteItem } from "htlc-solver/orderbook/types.js";
import type { LocalnetDescriptor } from "../../src/descriptor.js";
import { demoSwaps } from "../../src/families/registry.js";
import { createLocalUser } from "../../src/user.js";

const EVM_KEY = `0x${"11".repeat(32)}` as const;
const BITCOIN_KEY = "22".repeat(32);
const solanaKeypair = Keypair.generate();
const HTLC = `0x${"aa".repeat(20)}` as const;
const TOKEN = `0x${"bb".repeat(20)}` as const;
const STARKNET_USER = `0x${"0c".repeat(31)}`;
const SUI_KEY = Ed25519Keypair.fromSecretKey(new Uint8Array(32).fill(5));
const SUI_USER = SUI_KEY.toSuiAddress();

/** A descriptor of one EVM chain, the Bitcoin, Solana, Starknet and Sui chains; nothing is called on them. */
function descriptor(): LocalnetDescriptor {
  const evm = privateKeyToAccount(EVM_KEY);
  const bitcoin = BitcoinKey.fromHex(BITCOIN_KEY);
  return {
    service: { url: "http://127.0.0.1:1", appId: "test" },
    solver: {
      id: "solver",
      quoteUrl: "http://127.0.0.1:1",
      opsUrl: "http://127.0.0.1:1",
      evmAddress: evm.address,
      bitcoinKey: bitcoin.xOnlyHex,
      bitcoinAddress: "bcrt1q",
      solanaAddress: solanaKeypair.publicKey.toBase58(),
      starknetAddress: `0x${"0d".repeat(31)}`,
      suiAddress: `0x${"5d".repeat(32)}`,
    },
    chains: [
      {
        name: "ethereum_localnet",
        family: "evm",
        chainId: 31337,
        rpcUrl: "http://127.0.0.1:1",
        htlc: { usdc: HTLC },
        nativeHtlc: HTLC,
        tokens: { usdc: TOKEN },
        assets: [
          {
            id: "ethereum_localnet:usdc",
            symbol: "usdc",
            decimals: 6,
            tokenAddress: TOKEN,
            htlcAddress: HTLC,
          },
        ],
      },
    ],
    bitcoin: {
      name: "bitcoin_regtest",
      family: "bitcoin",
      network: "regtest",
      rpcUrl: "http://127.0.0.1:1",
      rpcUser: "user",
      rpcPassword: "password",
      assets: [{ id: "bitcoin_regtest:btc", symbol: "btc", decimals: 8 }],
    },
    solana: {
      name: "solana_localnet",
      family: "solana",
      chainId: 1,
      rpcUrl: "http://127.0.0.1:1",
      nativeProgramId: Keypair.generate().publicKey.toBase58(),
      splProgramId: Keypair.generate().publicKey.toBase58(),
      programVersion: "current",
      assets: [
        {
          id: "solana_localnet:sol",
          symbol: "sol",
          decimals: 9,
          tokenAddress: "native",
          htlcAddress: "native",
        },
      ],
    },
    starknet: {
      name: "starknet_localnet",
      family: "starknet",
      chainId: "SN_LOCALNET",
      rpcUrl: "http://127.0.0.1:1",
      orderIdLayout: "deployed",
      feeTokenAddress: `0x${"0e".repeat(31)}`,
      assets: [
        {
          id: "starknet_localnet:wbtc",
          symbol: "wbtc",
          decimals: 8,
          tokenAddress: `0x${"0f".repeat(31)}`,
          htlcAddress: `0x${"01".repeat(32)}`,
        },
      ],
    },
    sui: {
      name: "sui_localnet",
      family: "sui",
      rpcUrl: "http://127.0.0.1:1",
      packageId: `0x${"5a".repeat(32)}`,
      assets: [
        {
          id: "sui_localnet:sui",
          symbol: "sui",
          decimals: 9,
          coinType: `0x${"0".repeat(63)}2::sui::SUI`,
          registryId: `0x${"5b".repeat(32)}`,
          registryInitialSharedVersion: "3",
        },
      ],
    },
    users: [
      {
        address: evm.address,
        privateKey: EVM_KEY,
        bitcoin: { privateKey: BITCOIN_KEY, xOnlyKey: bitcoin.xOnlyHex, address: "unused" },
        solana: {
          secretKey: solanaSecretKeyText(solanaKeypair),
          address: solanaKeypair.publicKey.toBase58(),
        },
        starknet: { privateKey: `0x${"03".repeat(32)}`, address: STARKNET_USER },
        sui: { privateKey: SUI_KEY.getSecretKey(), address: SUI_USER },
      },
    ],
    prices: { tickerUrl: "http://127.0.0.1:1", feeds: [] },
  };
}

function quote(from: string, to: string): QuoteItem {
  return {
    source: { asset: from, amount: "1000", display: "1000", value: "1000" },
    destination: { asset: to, amount: "990", display: "990", value: "990" },
    solver_id: "solver",
    estimated_time: 10,
    slippage: 0,
    fee: 10,
    fixed_fee: "0",
  };
}

const user = createLocalUser(
  descriptor(),
  EVM_KEY,
  new OrderbookClient({ baseUrl: "http://127.0.0.1:1", appId: "test" }),
);

describe("the local user's order requests", () => {
  it("names the user's address of each side's family as its owner", () => {
    const request = user.orderRequest(quote("bitcoin_regtest:btc", "solana_localnet:sol"));
    expect(request.source).toEqual({
      asset: "bitcoin_regtest:btc",
      amount: "1000",
      owner: user.bitcoin.address,
    });
    expect(request.destination).toEqual({
      asset: "solana_localnet:sol",
      amount: "990",
      owner: user.solana.address,
    });
    expect(user.orderRequest(quote("ethereum_localnet:usdc", "bitcoin_regtest:btc")).source.owner).toBe(
      user.address,
    );
    const starknet = user.orderRequest(quote("starknet_localnet:wbtc", "ethereum_localnet:usdc"));
    expect(starknet.source.owner).toBe(STARKNET_USER);
    expect(user.starknet.address).toBe(STARKNET_USER);
    const sui = user.orderRequest(quote("ethereum_localnet:usdc", "sui_localnet:sui"));
    expect(sui.destination.owner).toBe(SUI_USER);
    expect(user.sui.address).toBe(SUI_USER);
  });

  it("gives a Bitcoin destination the user's own redeem key when the user keeps the secret", () => {
    const kept = user.orderRequest(quote("ethereum_localnet:usdc", "bitcoin_regtest:btc"), {
      secretHash: "ab",
    });
    expect(kept.destination.delegate).toBe(user.bitcoin.xOnlyKey);
    expect(kept.secret_hash).toBe("ab");
    const given = user.orderRequest(quote("ethereum_localnet:usdc", "bitcoin_regtest:btc"));
    expect(given.destination.delegate).toBeUndefined();
  });

  it("leaves the source's owner out when asked", () => {
    const request = user.orderRequest(quote("bitcoin_regtest:btc", "ethereum_localnet:usdc"), {
      withoutSourceOwner: true,
    });
    expect(request.source.owner).toBe("");
    expect(request.destination.owner).toBe(user.address);
  });

  it("refuses an asset no family of the localnet holds, naming it", () => {
    expect(() => user.orderRequest(quote("ethereum_localnet:dai", "bitcoin_regtest:btc"))).toThrow(
      "asset ethereum_localnet:dai is not on this localnet",
    );
  });
});

describe("the demo's swaps", () => {
  it("come from every family in their positions, one swap each from 1 to 14", () => {
    const swaps = demoSwaps();
    expect(swaps.map((swap) => swap.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(swaps.map((swap) => `${swap.from} -> ${swap.to}`)).toEqual([
      "ethereum_localnet:usdc -> arbitrum_localnet:usdc",
      "ethereum_localnet:eth -> arbitrum_localnet:usdc",
      "arbitrum_localnet:usdc -> ethereum_localnet:usdc",
      "bitcoin_regtest:btc -> arbitrum_localnet:wbtc",
      "ethereum_localnet:wbtc -> bitcoin_regtest:btc",
      "solana_localnet:sol -> arbitrum_localnet:eth",
      "ethereum_localnet:usdc -> solana_localnet:usdc",
      "bitcoin_regtest:btc -> solana_localnet:sol",
      "starknet_localnet:wbtc -> arbitrum_localnet:wbtc",
      "ethereum_localnet:wbtc -> starknet_localnet:wbtc",
      "bitcoin_regtest:btc -> starknet_localnet:wbtc",
      "starknet_localnet:wbtc -> bitcoin_regtest:btc",
      "sui_localnet:sui -> bitcoin_regtest:btc",
      "arbitrum_localnet:usdc -> sui_localnet:sui",
    ]);
  });
});
