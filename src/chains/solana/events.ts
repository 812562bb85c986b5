/**
 * HTLC events from transaction logs. Anchor's emit! logs "Program data: <base64>" where the payload is
 * sha256("event:<Name>")[0..8] ‖ Borsh fields. Only lines written while the HTLC program itself is the
 * running program count: any program can log bytes that look like an event, so the invocation stack
 * ("Program <id> invoke [n]" … "Program <id> success|failed") decides who wrote each line.
 */
import type { PublicKey } from "@solana/web3.js";
import { DISCRIMINATOR_BYTES, bytesEqual, eventDiscriminator, type HtlcEventName } from "./anchor.js";
import { BorshReader } from "./borsh.js";
import type { HtlcProgramKind } from "./errors.js";

interface EventCommon {
  /** The SPL program's events name the mint first; the native program's have none. */
  mint?: PublicKey;
  redeemer: PublicKey;
  refundee: PublicKey;
  swapAmount: bigint;
  timelock: bigint;
}

export type HtlcEvent =
  | (EventCommon & {
      name: "Initiated";
      secretHash: Uint8Array;
      destinationData?: Uint8Array;
      funder: PublicKey;
    })
  | (EventCommon & { name: "Redeemed"; secret: Uint8Array })
  | (EventCommon & { name: "Refunded" | "InstantRefunded"; secretHash: Uint8Array });

const EVENT_NAMES: HtlcEventName[] = ["Initiated", "Redeemed", "Refunded", "InstantRefunded"];

/** Decodes one event payload; undefined when the discriminator is none of the HTLC events. */
export function decodeHtlcEvent(kind: HtlcProgramKind, payload: Uint8Array): HtlcEvent | undefined {
  const head = payload.subarray(0, DISCRIMINATOR_BYTES);
  const name = EVENT_NAMES.find((n) => bytesEqual(head, eventDiscriminator(n)));
  if (name === undefined) return undefined;
  const r = new BorshReader(payload, DISCRIMINATOR_BYTES, `${name} event`);
  const mint = kind === "spl" ? r.pubkey() : undefined;
  const redeemer = r.pubkey();
  const refundee = r.pubkey();
  const hashOrSecret = r.bytes(32);
  const swapAmount = r.u64();
  const timelock = r.u64();
  const common = { ...(mint ? { mint } : {}), redeemer, refundee, swapAmount, timelock };
  if (name === "Initiated") {
    const destinationData = r.optionBytes();
    const funder = r.pubkey();
    return {
      name,
      ...common,
      secretHash: hashOrSecret,
      ...(destinationData ? { destinationData } : {}),
      funder,
    };
  }
  if (name === "Redeemed") return { name, ...common, secret: hashOrSecret };
  return { name, ...common, secretHash: hashOrSecret };
}

const INVOKE = /^Program (\w+) invoke \[\d+\]$/;
const EXIT = /^Program (\w+) (success|failed: .*)$/;
const DATA = "Program data: ";

/**
 * The `Program data:` payloads the program `programId` itself logged, in order: the invocation stack
 * decides who wrote each line, and a line of several base64 words is not one emit!.
 */
export function programDataPayloads(programId: PublicKey, logs: readonly string[]): Uint8Array[] {
  const id = programId.toBase58();
  const stack: string[] = [];
  const payloads: Uint8Array[] = [];
  for (const line of logs) {
    const invoke = INVOKE.exec(line);
    if (invoke?.[1] !== undefined) {
      stack.push(invoke[1]);
      continue;
    }
    if (EXIT.test(line)) {
      stack.pop();
      continue;
    }
    if (!line.startsWith(DATA) || stack[stack.length - 1] !== id) continue;
    const words = line.slice(DATA.length).split(" ");
    if (words.length !== 1 || words[0] === undefined) continue;
    payloads.push(new Uint8Array(Buffer.from(words[0], "base64")));
  }
  return payloads;
}

/** Every HTLC event the program `programId` emitted in these logs, in order. */
export function decodeHtlcEvents(
  kind: HtlcProgramKind,
  programId: PublicKey,
  logs: readonly string[],
): HtlcEvent[] {
  return programDataPayloads(programId, logs).flatMap((payload) => decodeHtlcEvent(kind, payload) ?? []);
}
