/** Transaction methods: send, simulate, statuses, lookups by signature and by address. */
import { VersionedTransaction } from "@solana/web3.js";
import { base58Encode } from "./base58.js";
import type { LocalSolanaChain, TransactionRecord } from "./chain.js";
import { SOLANA_RPC_CODE, SolanaRpcError, TransactionRejectedError, invalidParams } from "./errors.js";
import type { RpcMethod } from "./rpc-method.js";
import {
  commitmentOf,
  contextSlot,
  decodeWire,
  withContext,
  type Config,
  type Params,
} from "./rpc-params.js";
import { uiTokenAmount, type TokenBalance } from "./token-balances.js";
import { transactionErrorText } from "./tx-error-text.js";

function wireParam(p: Params, config: Config): Uint8Array {
  const text = p.string(0, "transaction");
  let wire: Uint8Array;
  try {
    wire = decodeWire(text, config.encoding);
    VersionedTransaction.deserialize(wire);
  } catch (error) {
    if (error instanceof SolanaRpcError) throw error;
    throw invalidParams(`invalid transaction: ${error instanceof Error ? error.message : String(error)}`);
  }
  return wire;
}

function preflightError(error: TransactionRejectedError): SolanaRpcError {
  if (error.err === "SignatureFailure") {
    return new SolanaRpcError(
      SOLANA_RPC_CODE.SIGNATURE_VERIFICATION_FAILURE,
      "Transaction signature verification failure",
    );
  }
  return new SolanaRpcError(
    SOLANA_RPC_CODE.SEND_TRANSACTION_PREFLIGHT_FAILURE,
    `Transaction simulation failed: ${transactionErrorText(error.err)}`,
    {
      accounts: null,
      err: error.err,
      innerInstructions: null,
      logs: error.logs,
      replacementBlockhash: null,
      returnData: null,
      unitsConsumed: error.unitsConsumed,
    },
  );
}

function tokenBalancesJson(balances: TokenBalance[]) {
  return balances.map((b) => ({
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner,
    programId: b.programId,
    uiTokenAmount: uiTokenAmount(b.amount, b.decimals),
  }));
}

function messageJson(tx: VersionedTransaction) {
  const message = tx.message;
  return {
    accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    header: message.header,
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: base58Encode(ix.data),
      stackHeight: null,
    })),
    ...(message.version === 0
      ? {
          addressTableLookups: message.addressTableLookups.map((l) => ({
            accountKey: l.accountKey.toBase58(),
            writableIndexes: l.writableIndexes,
            readonlyIndexes: l.readonlyIndexes,
          })),
        }
      : {}),
  };
}

function transactionJson(record: TransactionRecord, encoding: unknown) {
  const version = record.transaction.message.version;
  let transaction: unknown;
  if (encoding === undefined || encoding === "json" || encoding === "jsonParsed") {
    transaction = {
      signatures: record.transaction.signatures.map(base58Encode),
      message: messageJson(record.transaction),
    };
  } else if (encoding === "base64") {
    transaction = [Buffer.from(record.wire).toString("base64"), "base64"];
  } else if (encoding === "base58") {
    transaction = [base58Encode(record.wire), "base58"];
  } else {
    throw invalidParams(`unsupported encoding: ${String(encoding)}`);
  }
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    version,
    transaction,
    meta: {
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      fee: record.fee,
      preBalances: record.preBalances,
      postBalances: record.postBalances,
      innerInstructions: record.innerInstructions.map((entry) => ({
        index: entry.index,
        instructions: entry.instructions.map((ix) => ({ ...ix, data: base58Encode(ix.data) })),
      })),
      logMessages: record.logs,
      preTokenBalances: tokenBalancesJson(record.preTokenBalances),
      postTokenBalances: tokenBalancesJson(record.postTokenBalances),
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: record.computeUnits,
    },
  };
}

/** getTransaction and getSignaturesForAddress answer only from confirmed blocks on, like a real node. */
function confirmedCommitment(config: Config) {
  const commitment = commitmentOf(config);
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return commitment;
}

function statusJson(chain: LocalSolanaChain, signature: string) {
  const record = chain.transaction(signature);
  const info = chain.confirmation(signature);
  if (record === undefined || info === undefined) return null;
  return {
    slot: info.slot,
    confirmations: info.confirmations,
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    confirmationStatus: info.status,
  };
}

export const TX_METHODS: Record<string, RpcMethod> = {
  sendTransaction: (chain, p) => {
    const config = p.config(1);
    const wire = wireParam(p, config);
    try {
      return chain.send(wire, { skipPreflight: config.skipPreflight === true });
    } catch (error) {
      if (error instanceof TransactionRejectedError) throw preflightError(error);
      throw error;
    }
  },

  simulateTransaction: (chain, p) => {
    const config = p.config(1);
    const wire = wireParam(p, config);
    const sigVerify = config.sigVerify === true;
    const replace = config.replaceRecentBlockhash === true;
    if (sigVerify && replace) throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    const slot = contextSlot(chain, config);
    const outcome = chain.simulate(wire, { sigVerify, replaceRecentBlockhash: replace });
    const latest = chain.latestBlockhash();
    return withContext(slot, {
      err: outcome.err,
      logs: outcome.logs,
      accounts: null,
      unitsConsumed: outcome.unitsConsumed,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash: replace
        ? { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight }
        : null,
    });
  },

  getSignatureStatuses: (chain, p) => {
    const signatures = p.signatureArray(0);
    if (signatures.length > 256) throw invalidParams("Too many inputs provided; max 256");
    return withContext(
      chain.currentSlot(),
      signatures.map((s) => statusJson(chain, s)),
    );
  },

  getTransaction: (chain, p) => {
    const signature = p.signature(0);
    const config = p.config(1);
    const record = chain.transaction(signature, confirmedCommitment(config));
    if (record === undefined) return null;
    const version = record.transaction.message.version;
    const maxVersion = config.maxSupportedTransactionVersion;
    if (version === 0 && (typeof maxVersion !== "number" || maxVersion < 0)) {
      throw new SolanaRpcError(
        SOLANA_RPC_CODE.TRANSACTION_VERSION_NOT_SUPPORTED,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    return transactionJson(record, config.encoding);
  },

  getSignaturesForAddress: (chain, p) => {
    const address = p.pubkey(0);
    const config = p.config(1);
    const slot = chain.currentSlot(confirmedCommitment(config));
    const limit = config.limit === undefined ? 1000 : Number(config.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams("Invalid limit; max 1000");
    let records = chain.signaturesFor(address).filter((r) => r.slot <= slot);
    if (typeof config.before === "string") {
      const at = records.findIndex((r) => r.signature === config.before);
      records = at < 0 ? [] : records.slice(at + 1);
    }
    if (typeof config.until === "string") {
      const at = records.findIndex((r) => r.signature === config.until);
      if (at >= 0) records = records.slice(0, at);
    }
    return records.slice(0, limit).map((r) => ({
      signature: r.signature,
      slot: r.slot,
      err: r.err,
      memo: null,
      blockTime: r.blockTime,
      confirmationStatus: chain.confirmation(r.signature)?.status ?? "processed",
    }));
  },
};
