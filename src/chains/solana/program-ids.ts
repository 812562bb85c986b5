/** Program ids the Solana HTLC code refers to. The HTLC ids are defaults only: configure them per chain. */
import { PublicKey } from "@solana/web3.js";

/** The live native-SOL HTLC program (Anchor, seeds [redeemer, refundee, secret_hash, amount, timelock]). */
export const DEFAULT_NATIVE_HTLC_PROGRAM_ID = new PublicKey("6eksgdCnSjUaGQWZ6iYvauv1qzvYPF33RTGTM1ZuyENx");
/** The live SPL-token HTLC program (seeds prefixed by the mint). */
export const DEFAULT_SPL_HTLC_PROGRAM_ID = new PublicKey("2WXpY8havGjfRxme9LUxtjFHTh1EfU3ur4v6wiK4KdNC");

export const SYSTEM_PROGRAM_ID = new PublicKey("11111111111111111111111111111111");
export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

/** The older native-SOL HTLC program the service's SDK still names for mainnet (IDL v0.3.0). */
export const LEGACY_NATIVE_HTLC_PROGRAM_ID = new PublicKey("2bag6xpshpvPe7SJ9nSDLHpxqhEAoHPGpEkjNSv7gxoF");
/** The older SPL-token HTLC program the service's SDK still names for mainnet (IDL v0.4.0). */
export const LEGACY_SPL_HTLC_PROGRAM_ID = new PublicKey("gdnvdMCHJgnidtU7SL8RkRshHPvDJU1pdfZEpoLvqdU");
