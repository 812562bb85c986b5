/** Account methods: account data (base64/base58), balances, token accounts, airdrops. */
import { PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "htlc-solver/chains/solana/program-ids.js";
import { TOKEN_ACCOUNT_SIZE, decodeTokenAccount } from "htlc-solver/chains/solana/spl-token.js";
import { base58Encode } from "./base58.js";
import { invalidParam, invalidParams } from "./errors.js";
import type { RpcMethod } from "./rpc-method.js";
import { contextSlot, parsePubkey, type Config, type Params, withContext } from "./rpc-params.js";
import type { LocalSvm, SvmAccount } from "./svm.js";
import { mintDecimals, uiTokenAmount } from "./token-balances.js";

/** What the RPC reports as rentEpoch of rent-exempt accounts (u64::MAX). */
const RENT_EXEMPT_EPOCH = (1n << 64n) - 1n;

function encodeData(data: Uint8Array, config: Config): [string, string] {
  let bytes = data;
  const slice = config.dataSlice as { offset?: unknown; length?: unknown } | undefined;
  if (slice !== undefined) {
    if (typeof slice.offset !== "number" || typeof slice.length !== "number") {
      throw invalidParams("dataSlice needs a numeric offset and length");
    }
    bytes = data.subarray(slice.offset, slice.offset + slice.length);
  }
  const encoding = config.encoding ?? "base64";
  if (encoding === "base58") {
    if (bytes.length > 128) {
      throw invalidParams(
        "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
      );
    }
    return [base58Encode(bytes), "base58"];
  }
  // jsonParsed falls back to base64 for accounts without a parser, as real nodes do; none is parsed here.
  if (encoding === "base64" || encoding === "jsonParsed")
    return [Buffer.from(bytes).toString("base64"), "base64"];
  throw invalidParams(
    `unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64, jsonParsed`,
  );
}

export function accountJson(account: SvmAccount, config: Config) {
  return {
    data: encodeData(account.data, config),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner.toBase58(),
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}

function tokenAccountOrThrow(svm: LocalSvm, address: PublicKey) {
  const account = svm.account(address);
  if (
    account === undefined ||
    !account.owner.equals(TOKEN_PROGRAM_ID) ||
    account.data.length !== TOKEN_ACCOUNT_SIZE
  ) {
    throw invalidParam("could not find account");
  }
  const state = decodeTokenAccount(account.data);
  return { state, decimals: mintDecimals(svm, state.mint) };
}

function filterOf(p: Params): { mint?: PublicKey; programId?: PublicKey } {
  const filter = p.raw(1) as { mint?: unknown; programId?: unknown } | undefined;
  if (typeof filter?.mint === "string") return { mint: parsePubkey(filter.mint) };
  if (typeof filter?.programId === "string") return { programId: parsePubkey(filter.programId) };
  throw invalidParams("a filter with mint or programId is required");
}

export const ACCOUNT_METHODS: Record<string, RpcMethod> = {
  getAccountInfo: (chain, p) => {
    const address = p.pubkey(0);
    const config = p.config(1);
    const account = chain.svm.account(address);
    return withContext(
      contextSlot(chain, config),
      account === undefined ? null : accountJson(account, config),
    );
  },

  getMultipleAccounts: (chain, p) => {
    const addresses = p.stringArray(0, "addresses").map(parsePubkey);
    if (addresses.length > 100) throw invalidParams("Too many inputs provided; max 100");
    const config = p.config(1);
    const value = addresses.map((a) => {
      const account = chain.svm.account(a);
      return account === undefined ? null : accountJson(account, config);
    });
    return withContext(contextSlot(chain, config), value);
  },

  getBalance: (chain, p) => withContext(contextSlot(chain, p.config(1)), chain.svm.balance(p.pubkey(0))),

  getTokenAccountBalance: (chain, p) => {
    const { state, decimals } = tokenAccountOrThrow(chain.svm, p.pubkey(0));
    return withContext(contextSlot(chain, p.config(1)), uiTokenAmount(state.amount, decimals));
  },

  getTokenAccountsByOwner: (chain, p) => {
    const owner = p.pubkey(0, "owner");
    const filter = filterOf(p);
    const config = p.config(2);
    if (filter.programId !== undefined && !filter.programId.equals(TOKEN_PROGRAM_ID)) {
      throw invalidParams("unrecognized Token program id");
    }
    const value = chain.svm
      .programAccounts(TOKEN_PROGRAM_ID)
      .filter(({ account }) => account.data.length === TOKEN_ACCOUNT_SIZE)
      .filter(({ account }) => {
        const state = decodeTokenAccount(account.data);
        return state.owner.equals(owner) && (filter.mint === undefined || state.mint.equals(filter.mint));
      })
      .map(({ address, account }) => ({ pubkey: address.toBase58(), account: accountJson(account, config) }));
    return withContext(contextSlot(chain, config), value);
  },

  requestAirdrop: (chain, p) => {
    const to = p.pubkey(0);
    const lamports = p.integer(1, "lamports");
    return chain.airdrop(new PublicKey(to), lamports);
  },
};
