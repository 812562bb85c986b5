/** Base58 for signatures and wire transactions (the RPC's "base58" encoding). */
export { base58Decode, base58Encode } from "htlc-solver/chains/solana/base58.js";
