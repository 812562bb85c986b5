/** Cluster-level methods: slots, blockhashes, fees, rent, version and health. */
import { VersionedMessage } from "@solana/web3.js";
import { invalidParams, SOLANA_RPC_CODE, SolanaRpcError } from "./errors.js";
import { computeBudget, transactionFee } from "./fees.js";
import type { RpcMethod } from "./rpc-method.js";
import { API_VERSION, commitmentOf, contextSlot, parsePubkey, withContext } from "./rpc-params.js";

/** Slots getRecentPrioritizationFees looks back over, as a real node's cache does. */
const PRIORITIZATION_FEE_SLOTS = 150n;

export const CHAIN_METHODS: Record<string, RpcMethod> = {
  getSlot: (chain, p) => contextSlot(chain, p.config(0)),

  getBlockHeight: (chain, p) => contextSlot(chain, p.config(0)),

  getBlockTime: (chain, p) => {
    const slot = p.integer(0, "slot");
    const time = chain.producedAt(slot);
    if (time === null)
      throw new SolanaRpcError(SOLANA_RPC_CODE.BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
    return time;
  },

  getLatestBlockhash: (chain, p) => {
    const config = p.config(0);
    const slot = contextSlot(chain, config);
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash(commitmentOf(config));
    return withContext(slot, { blockhash, lastValidBlockHeight });
  },

  isBlockhashValid: (chain, p) => {
    const blockhash = p.string(0, "blockhash");
    const config = p.config(1);
    return withContext(
      contextSlot(chain, config, commitmentOf(config, "processed")),
      chain.isBlockhashValid(blockhash),
    );
  },

  getFeeForMessage: (chain, p) => {
    const config = p.config(1);
    let message: VersionedMessage;
    try {
      message = VersionedMessage.deserialize(Buffer.from(p.string(0, "message"), "base64"));
    } catch (error) {
      throw invalidParams(`invalid message: ${error instanceof Error ? error.message : String(error)}`);
    }
    const valid = chain.isBlockhashValid(message.recentBlockhash);
    return withContext(contextSlot(chain, config), valid ? transactionFee(message) : null);
  },

  getRecentPrioritizationFees: (chain, p) => {
    const raw = p.raw(0);
    const addresses = raw === undefined ? [] : p.stringArray(0, "addresses").map(parsePubkey);
    const now = chain.currentSlot();
    const first = now >= PRIORITIZATION_FEE_SLOTS ? now - PRIORITIZATION_FEE_SLOTS + 1n : 0n;
    const lowest = new Map<bigint, bigint>();
    for (const record of chain.recentTransactions(first)) {
      const keys = record.transaction.message.staticAccountKeys;
      if (!addresses.every((a) => keys.some((k) => k.equals(a)))) continue;
      const price = computeBudget(record.transaction.message).unitPriceMicroLamports;
      const known = lowest.get(record.slot);
      lowest.set(record.slot, known === undefined || price < known ? price : known);
    }
    const fees = [];
    for (let slot = first; slot <= now; slot++)
      fees.push({ slot, prioritizationFee: lowest.get(slot) ?? 0n });
    return fees;
  },

  getMinimumBalanceForRentExemption: (chain, p) =>
    chain.svm.minimumBalanceForRentExemption(p.integer(0, "data length")),

  getGenesisHash: (chain) => chain.genesisHash,

  getVersion: () => ({ "solana-core": API_VERSION, "feature-set": 0 }),

  getHealth: () => "ok",

  getIdentity: (chain) => ({ identity: chain.faucet.publicKey.toBase58() }),

  getEpochInfo: (chain, p) => {
    const slot = contextSlot(chain, p.config(0));
    const slotsInEpoch = 432_000n;
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: slot / slotsInEpoch,
      slotIndex: slot % slotsInEpoch,
      slotsInEpoch,
      transactionCount: chain.transactionCount(),
    };
  },
};
