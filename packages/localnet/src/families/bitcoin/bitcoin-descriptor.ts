/** The Bitcoin chain's part of `localnet.json` (README, "Local system"). */
export interface LocalnetBitcoinChainDescriptor {
  name: string;
  family: "bitcoin";
  network: "regtest";
  /** JSON-RPC of the regtest node (bitcoind's subset), with basic auth. */
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  assets: { id: string; symbol: string; decimals: number }[];
}

/** A user's Bitcoin key; like every localnet key, derived from a public label: regtest only. */
export interface LocalnetBitcoinUserKey {
  /** 32-byte private key, hex. */
  privateKey: string;
  /** x-only public key, hex (the key in HTLC scripts). */
  xOnlyKey: string;
  /** Key-path P2TR address holding the user's coinbases. */
  address: string;
}

export interface LocalnetBitcoinDescriptor {
  bitcoin: LocalnetBitcoinChainDescriptor;
}

export interface LocalnetBitcoinSolverDescriptor {
  /** The solver's x-only key in Bitcoin HTLCs, and its wallet's address. */
  bitcoinKey: string;
  bitcoinAddress: string;
}

export interface LocalnetBitcoinUserDescriptor {
  bitcoin: LocalnetBitcoinUserKey;
}
