import {
  acceptsSecretLength,
  describeSecretLength,
  secretLengthUnenforced,
} from "../../chains/secret-length.js";
import { knownSecret } from "../known-secret.js";
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
 * The secret a redeem of the destination reveals must be usable on the source. Where the destination takes
 * any preimage of the hash (Bitcoin) and the source only a 32-byte one, whoever holds the secret can take
 * the fill with a longer preimage and leave the solver a secret the source refuses. That holder may be the
 * client or the service itself: what the service says about who holds the secret relaxes nothing. Filled
 * only when the destination checks what the source requires, when a secret of the source's length that
 * hashes right is already known, or when the operator accepts the risk (`safety.allowUnenforcedSecretLength`).
 *
 * A secret already known is no risk but a fact: one that either chain refuses makes the swap impossible
 * to complete, whatever the operator accepts. The destination refusing it, the user can never take the
 * fill, which only costs the solver its fees and holds its inventory until refunded; the source refusing
 * it, the user takes the fill and the solver can never redeem.
 */
export function checkSecretUsable(input: PlanInput): Decision | null {
  const { source, destination, safety } = input;
  const known = knownSecret(input);
  if (known !== null) return checkKnownSecret(known, input);
  if (!secretLengthUnenforced(source.secretLength, destination.secretLength)) return null;
  if (safety.allowUnenforcedSecretLength) return null;
  return {
    outcome: "refuse",
    reason: "secret_length_unenforced",
    detail:
      `${destination.params.chain} accepts a preimage of ${describeSecretLength(destination.secretLength)}, ` +
      `${source.params.chain} only one of ${describeSecretLength(source.secretLength)}: whoever holds the secret could take ` +
      "the fill with one the source refuses",
  };
}

function checkKnownSecret(secretHex: string, { source, destination }: PlanInput): Decision | null {
  const bytes = secretHex.length / 2;
  for (const [side, facts] of [
    ["fill", destination],
    ["source", source],
  ] as const) {
    if (acceptsSecretLength(facts.secretLength, bytes)) continue;
    return {
      outcome: "refuse",
      reason: "secret_unusable",
      detail:
        `the secret is already known and has ${bytes} bytes; ${facts.params.chain} takes only secrets of ` +
        `${describeSecretLength(facts.secretLength)}: the ${side} could never be redeemed`,
    };
  }
  return null;
}
