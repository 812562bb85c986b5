/** The token balances of a transaction's accounts, as RPC meta's pre/postTokenBalances report them. */
import type { PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "htlc-solver/chains/solana/program-ids.js";
import {
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  decodeMint,
  decodeTokenAccount,
} from "htlc-solver/chains/solana/spl-token.js";
import type { LocalSvm } from "./svm.js";

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  amount: bigint;
  decimals: number;
}

export function tokenBalances(svm: LocalSvm, keys: readonly PublicKey[]): TokenBalance[] {
  const balances: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const account = svm.account(key);
    if (
      account === undefined ||
      !account.owner.equals(TOKEN_PROGRAM_ID) ||
      account.data.length !== TOKEN_ACCOUNT_SIZE
    ) {
      return;
    }
    const state = decodeTokenAccount(account.data);
    const mint = svm.account(state.mint);
    const decimals =
      mint !== undefined && mint.data.length === MINT_SIZE ? decodeMint(mint.data).decimals : 0;
    balances.push({
      accountIndex,
      mint: state.mint.toBase58(),
      owner: state.owner.toBase58(),
      programId: TOKEN_PROGRAM_ID.toBase58(),
      amount: state.amount,
      decimals,
    });
  });
  return balances;
}

/** Decimals of a mint (0 when the account is no mint, as a real node reports for a broken mint). */
export function mintDecimals(svm: LocalSvm, mint: PublicKey): number {
  const account = svm.account(mint);
  return account !== undefined && account.data.length === MINT_SIZE ? decodeMint(account.data).decimals : 0;
}

/** The RPC's uiTokenAmount for a raw amount. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const text = amount.toString().padStart(decimals + 1, "0");
  const whole = text.slice(0, text.length - decimals);
  const fraction = decimals > 0 ? text.slice(text.length - decimals).replace(/0+$/, "") : "";
  const uiAmountString = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}
