import { networks } from "bitcoinjs-lib";

/** Consensus and policy numbers of Bitcoin Core's regtest chain that the local node reproduces. */
export const REGTEST = {
  network: networks.regtest,
  chain: "regtest",
  /** Block subsidy halves every 150 blocks on regtest. */
  halvingInterval: 150,
  initialSubsidy: 50_00000000n,
  coinbaseMaturity: 100,
  maxMoney: 21_000_000_00000000n,
  /** Compact target of regtest blocks (anything below half of the hash space). */
  bits: 0x207fffff,
  blockVersion: 0x20000000,
  maxBlockWeight: 4_000_000,
  /** bitcoind's -minrelaytxfee and -incrementalrelayfee defaults, sat per 1000 vbytes. */
  minRelayFeeSatKvB: 1000n,
  incrementalRelayFeeSatKvB: 1000n,
  /** Dust is computed at 3 sat/vB (DUST_RELAY_TX_FEE). */
  dustRelayFeeSatKvB: 3000n,
  /** sendrawtransaction's default maxfeerate: 0.10 BTC/kvB. */
  defaultMaxFeeRateSatKvB: 10_000_000n,
  maxStandardTxWeight: 400_000,
  minStandardTxNonWitnessSize: 65,
  maxStandardTapscriptStackItemSize: 80,
  maxOpReturnRelay: 83,
  maxReplacementCandidates: 100,
  /** Locktime values below this are heights, at or above it unix times. */
  locktimeThreshold: 500_000_000,
} as const;

export function blockSubsidy(height: number): bigint {
  const halvings = Math.floor(height / REGTEST.halvingInterval);
  if (halvings >= 64) return 0n;
  return REGTEST.initialSubsidy >> BigInt(halvings);
}

/** The regtest genesis block, byte for byte as Bitcoin Core builds it (hash 0f9188f1...2206). */
export const REGTEST_GENESIS = {
  coinbaseScriptSig:
    "04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73",
  coinbaseOutputScript:
    "4104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac",
  time: 1296688602,
  nonce: 2,
  version: 1,
  hash: "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
} as const;
