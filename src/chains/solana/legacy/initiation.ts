/**
 * The initiation of a live legacy swap, found in its transaction. A legacy swap account stores neither
 * the slot it was initiated at (so neither the timelock) nor, SPL, its mint: both are only in the
 * initiate instruction that made it. No initiate of an address can land while its account lives, so the
 * newest landed one made the live account; it is taken only when its slot plus `expires_in_slots` is
 * the stored expiry and its amount and redeemer are the stored ones.
 */
import { PublicKey } from "@solana/web3.js";
import { DISCRIMINATOR_BYTES, bytesEqual, instructionDiscriminator } from "../anchor.js";
import type { SolanaAsset } from "../assets.js";
import type { HtlcProgramKind } from "../errors.js";
import { base58Decode } from "../base58.js";
import { BorshReader } from "../borsh.js";
import { accountKeys, executed } from "../htlc-calls.js";
import type { SolanaRpc } from "../rpc.js";
import type { TransactionAnswer } from "../rpc-schemas.js";
import type { StoredSwap } from "../stored-swap.js";

export interface LegacyInitiation {
  signature: string;
  slot: bigint;
  /** The timelock: expiry_slot = slot + expiresInSlots. */
  expiresInSlots: bigint;
  /** SPL: the mint the initiation locked; null for SOL. */
  mint: PublicKey | null;
}

/**
 * How far back the search looks: the newest transactions naming the address. Anyone can name it in
 * cheap transactions; an initiation pushed out of this window is not found, and the swap then reads as
 * not verifiable (never filled against), the safe side for the solver.
 */
export const LEGACY_INITIATION_WINDOW = 100;
/** Accounts before the mint in the SPL initiate: identity, swap data, vault, initiator, its token account. */
const SPL_MINT_ACCOUNT = 5;
/** Position of the swap account among the initiate's accounts (SPL puts the identity first). */
const swapIndex = (asset: SolanaAsset) => (asset.mint === null ? 0 : 1);

export interface LegacyInitiateArgs {
  swapAmount: bigint;
  expiresInSlots: bigint;
  redeemer: PublicKey;
  secretHash: Uint8Array;
  destinationData?: Uint8Array;
}

/** A legacy initiate instruction's arguments, from its data; null for any other instruction. */
export function decodeLegacyInitiate(kind: HtlcProgramKind, data: Uint8Array): LegacyInitiateArgs | null {
  if (!bytesEqual(data.subarray(0, DISCRIMINATOR_BYTES), instructionDiscriminator("initiate"))) return null;
  const r = new BorshReader(data, DISCRIMINATOR_BYTES, "legacy initiate instruction");
  if (kind === "native") {
    const swapAmount = r.u64();
    const expiresInSlots = r.u64();
    return { swapAmount, expiresInSlots, redeemer: r.pubkey(), secretHash: r.bytes(32) };
  }
  const expiresInSlots = r.u64();
  const redeemer = r.pubkey();
  const secretHash = r.bytes(32);
  const swapAmount = r.u64();
  const destinationData = r.optionBytes();
  return {
    swapAmount,
    expiresInSlots,
    redeemer,
    secretHash,
    ...(destinationData ? { destinationData } : {}),
  };
}

interface InitiateCall extends LegacyInitiateArgs {
  mint: PublicKey | null;
}

/** The legacy initiate calls of the asset's program on `address` in a landed transaction, in order. */
export function legacyInitiatesIn(
  tx: TransactionAnswer,
  asset: SolanaAsset,
  address: PublicKey,
): InitiateCall[] {
  if (tx.meta === null || (tx.meta.err !== null && tx.meta.err !== undefined)) return [];
  const keys = accountKeys(tx);
  const program = asset.programId.toBase58();
  const target = address.toBase58();
  const calls: InitiateCall[] = [];
  for (const ix of executed(tx)) {
    if (keys[ix.programIdIndex] !== program) continue;
    const swapAccount = keys[ix.accounts[swapIndex(asset)] ?? -1];
    if (swapAccount !== target) continue;
    try {
      const args = decodeLegacyInitiate(asset.kind, base58Decode(ix.data));
      const mint = asset.mint === null ? undefined : keys[ix.accounts[SPL_MINT_ACCOUNT] ?? -1];
      if (args !== null) calls.push({ ...args, mint: mint === undefined ? null : new PublicKey(mint) });
    } catch {
      continue; // the program refuses what does not decode: it cannot be in a landed transaction
    }
  }
  return calls;
}

/** The initiation of the live `stored` swap, or null when the window holds none that made it. */
export async function findLegacyInitiation(
  rpc: SolanaRpc,
  commitment: "confirmed" | "finalized",
  asset: SolanaAsset,
  stored: StoredSwap,
): Promise<LegacyInitiation | null> {
  const listed = await rpc.getSignaturesForAddress(stored.address, {
    commitment,
    limit: LEGACY_INITIATION_WINDOW,
  });
  for (const entry of listed) {
    if (entry.err !== null && entry.err !== undefined) continue;
    const slot = BigInt(entry.slot);
    if (slot > stored.expirySlot) continue;
    const tx = await rpc.getTransaction(entry.signature, commitment);
    if (tx === null) return null; // a node behind its own listing cannot tell which initiate is the newest
    // The newest landed initiate of the address made the live account: none can land while it lives.
    const call = legacyInitiatesIn(tx, asset, stored.address).at(-1);
    if (call === undefined) continue;
    const matches =
      slot + call.expiresInSlots === stored.expirySlot &&
      call.swapAmount === stored.swapAmount &&
      call.redeemer.equals(stored.redeemer);
    return matches
      ? { signature: entry.signature, slot, expiresInSlots: call.expiresInSlots, mint: call.mint }
      : null;
  }
  return null;
}
