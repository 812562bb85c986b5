import type { Decision, PlanInput } from "../plan-types.js";

const SECRET_HASH = /^[0-9a-f]{64}$/i;

/** The EVM and Solana programs need a 32-byte secret: a fill against any other hash could never be redeemed. */
export function checkSecretHash({ order }: PlanInput): Decision | null {
  const source = order.source_swap.secret_hash;
  const destination = order.destination_swap.secret_hash;
  for (const [side, hash] of [
    ["source", source],
    ["destination", destination],
  ] as const) {
    if (!SECRET_HASH.test(hash)) {
      return {
        outcome: "refuse",
        reason: "secret_hash_not_32_bytes",
        detail: `${side} secret_hash has ${hash.length / 2} bytes, not 32`,
      };
    }
  }
  if (source.toLowerCase() !== destination.toLowerCase()) {
    return {
      outcome: "refuse",
      reason: "secret_hash_mismatch",
      detail: "source and destination secret hashes differ",
    };
  }
  return null;
}

/**
 * A secret the client holds must be usable on the source after it redeems the destination. Where the
 * destination accepts any preimage of the hash (Bitcoin) and the source only a 32-byte one, a client
 * that chose a longer preimage takes the fill and leaves the solver a secret the source refuses.
 */
export function checkSecretUsable({ order, source, destination, safety }: PlanInput): Decision | null {
  if (!order.additional_data.user_secret || safety.allowUnenforcedSecretLength) return null;
  if (source.secretLength === null || destination.secretLength === source.secretLength) return null;
  return {
    outcome: "refuse",
    reason: "client_secret_length_unenforced",
    detail:
      `the client holds the secret; ${destination.params.chain} accepts a preimage of any length, ` +
      `${source.params.chain} only one of ${source.secretLength} bytes`,
  };
}
