/** A valid configuration used across the config, CLI and redaction tests, with recognisable secrets. */
export const SECRETS = {
  evmKey: `0x${"a1".repeat(32)}`,
  bitcoinKey: "b2".repeat(32),
  /** A fixed Solana secret key (seed 0xd4…, then its public key), base58. */
  solanaKey: "5FoRqouCkN1sMnCn1RktkrU89rFyMMPy37sokSbKHVuZzT1VTr4WJJuemSgkuZkd4fZUtJuGEdbfpZ6zVzjXpeYL",
  /** A Stark private key below the curve's order. */
  starknetKey: `0x${"02".repeat(32)}`,
  /** An Ed25519 key (32 bytes of 0x03) in its suiprivkey form. */
  suiKey: "suiprivkey1qqpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsx4892pj",
  appId: "c3".repeat(32),
  rpcPassword: "pw-s3cr3t-value",
  urlPassword: "url-s3cr3t",
  apiKey: "k3yK3yK3yK3yK3yK3yK3y0",
  quoteSecret: "q5-shared-quote-secret-q5-shared-quote-secret",
} as const;

export const TEST_ENV: NodeJS.ProcessEnv = {
  SOLVER_EVM_PRIVATE_KEY: SECRETS.evmKey,
  SOLVER_BITCOIN_PRIVATE_KEY: SECRETS.bitcoinKey,
  SOLVER_APP_ID: SECRETS.appId,
  SOLVER_QUOTE_AUTH_SECRET: SECRETS.quoteSecret,
};

export const HTLC = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
export const NATIVE_HTLC = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
export const TOKEN = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** Settings as a profile file would hold them (no keys: those come from the environment). */
export function validSettings(): Record<string, unknown> {
  return {
    service: { url: `https://solver:${SECRETS.urlPassword}@api.example.org` },
    solver: { id: "0a1b2c" },
    chains: [
      {
        family: "evm",
        name: "ethereum_localnet",
        chainId: 31337,
        rpcUrls: ["http://127.0.0.1:8545", `https://rpc.example.org/v2/${SECRETS.apiKey}`],
        minBlockTimeMs: 1000,
        maxBlockTimeMs: 2000,
        minConfirmations: 1,
        fillTimelockBlocks: 300,
        assets: [
          { symbol: "eth", decimals: 18, tokenAddress: "native", htlcAddress: NATIVE_HTLC },
          { symbol: "wbtc", decimals: 8, tokenAddress: TOKEN.toLowerCase(), htlcAddress: HTLC },
        ],
      },
      {
        family: "bitcoin",
        name: "bitcoin_regtest",
        network: "regtest",
        rpcUrl: "http://127.0.0.1:18443",
        rpcUser: "solver",
        rpcPassword: SECRETS.rpcPassword,
        minBlockTimeMs: 1000,
        maxBlockTimeMs: 10000,
        minConfirmations: 1,
        fillTimelockBlocks: 12,
        assets: [{ symbol: "btc", decimals: 8 }],
      },
    ],
    fixedPrices: { "bitcoin_regtest:btc": "60000", "ethereum_localnet:wbtc": "60000.5" },
    strategies: [
      {
        from: "bitcoin_regtest:btc",
        to: "ethereum_localnet:wbtc",
        minAmount: "10000",
        maxAmount: "100000000",
        feeBps: 30,
        estimatedTimeSeconds: 600,
      },
    ],
    limits: {
      maxOrderAmount: { "bitcoin_regtest:btc": "100000000" },
      inventoryFloor: { "ethereum_localnet:wbtc": 5000 },
    },
  };
}
