/**
 * Events of the legacy HTLC programs, from `Program data:` lines the program itself logged. Same
 * discriminators as the current programs' events, other fields: only `Initiated` names the redeemer and
 * the amount (and, SPL, the mint); the closing events name the initiator and the secret or its hash.
 */
import type { PublicKey } from "@solana/web3.js";
import { DISCRIMINATOR_BYTES, bytesEqual, eventDiscriminator, type HtlcEventName } from "../anchor.js";
import { BorshReader } from "../borsh.js";
import type { HtlcProgramKind } from "../errors.js";
import { programDataPayloads } from "../events.js";

export type LegacyHtlcEvent =
  | {
      name: "Initiated";
      swapAmount: bigint;
      expiresInSlots: bigint;
      initiator: PublicKey;
      /** SPL only. */
      mint?: PublicKey;
      redeemer: PublicKey;
      secretHash: Uint8Array;
      /** SPL only, when the initiator gave it. */
      destinationData?: Uint8Array;
    }
  | { name: "Redeemed"; initiator: PublicKey; secret: Uint8Array }
  | { name: "Refunded" | "InstantRefunded"; initiator: PublicKey; secretHash: Uint8Array };

const EVENT_NAMES: HtlcEventName[] = ["Initiated", "Redeemed", "Refunded", "InstantRefunded"];

/** Decodes one event payload; undefined when the discriminator is none of the HTLC events. */
export function decodeLegacyHtlcEvent(
  kind: HtlcProgramKind,
  payload: Uint8Array,
): LegacyHtlcEvent | undefined {
  const head = payload.subarray(0, DISCRIMINATOR_BYTES);
  const name = EVENT_NAMES.find((n) => bytesEqual(head, eventDiscriminator(n)));
  if (name === undefined) return undefined;
  const r = new BorshReader(payload, DISCRIMINATOR_BYTES, `legacy ${name} event`);
  if (name !== "Initiated") {
    const initiator = r.pubkey();
    const bytes = r.bytes(32);
    return name === "Redeemed" ? { name, initiator, secret: bytes } : { name, initiator, secretHash: bytes };
  }
  const swapAmount = r.u64();
  const expiresInSlots = r.u64();
  const initiator = r.pubkey();
  const mint = kind === "spl" ? r.pubkey() : undefined;
  const redeemer = r.pubkey();
  const secretHash = r.bytes(32);
  const destinationData = kind === "spl" ? r.optionBytes() : undefined;
  return {
    name,
    swapAmount,
    expiresInSlots,
    initiator,
    ...(mint ? { mint } : {}),
    redeemer,
    secretHash,
    ...(destinationData ? { destinationData } : {}),
  };
}

/** Every HTLC event the legacy program `programId` emitted in these logs, in order. */
export function decodeLegacyHtlcEvents(
  kind: HtlcProgramKind,
  programId: PublicKey,
  logs: readonly string[],
): LegacyHtlcEvent[] {
  return programDataPayloads(programId, logs).flatMap(
    (payload) => decodeLegacyHtlcEvent(kind, payload) ?? [],
  );
}
