/**
 * The user's keys in Bitcoin HTLCs. A Bitcoin source is always locked to a per-order key the service
 * makes (the initiator key, `source_swap.delegate`), so the service can complete instant refunds and
 * refund after expiry for the user. A Bitcoin destination is redeemed with `destination_swap.delegate`:
 * a per-order service key when the service holds the secret (it redeems for the user), or the client's
 * own key, sent as `destination.delegate`, when the client sent `secret_hash` and redeems itself.
 */
import { randomBytes } from "node:crypto";
import { BitcoinKey } from "htlc-solver/chains/bitcoin/keys.js";
import { badRequest } from "../../../service/errors.js";
import { isObject } from "../../../service/validate.js";
import type { PlannedSide } from "../../../service/orders/order-request.js";

/** A Bitcoin source: locked to a per-order initiator key the service makes. */
export function withSourceKey(request: Record<string, unknown>, side: PlannedSide): PlannedSide {
  if (delegateField(request, "source") !== undefined) {
    throw badRequest(
      "source.delegate is not accepted on Bitcoin: the service makes the HTLC's initiator key",
    );
  }
  return { ...side, ...newServiceKey() };
}

/** A Bitcoin destination: a service key, or the client's own key when it sent secret_hash. */
export function withDestinationKey(
  request: Record<string, unknown>,
  side: PlannedSide,
  clientSecretHash: string | null,
): PlannedSide {
  const given = delegateField(request, "destination");
  if (clientSecretHash === null) {
    if (given !== undefined) {
      throw badRequest(
        "destination.delegate is only for a client that sends secret_hash; otherwise the service redeems",
      );
    }
    return { ...side, ...newServiceKey() };
  }
  if (given === undefined) {
    throw badRequest(
      "destination.delegate (the x-only key that redeems, 64 hex) is required on Bitcoin with secret_hash",
    );
  }
  const party = typeof given === "string" ? side.chain.solverParty(given) : null;
  if (party === null) {
    throw badRequest(`destination.delegate ${JSON.stringify(given)} is not an x-only public key (64 hex)`);
  }
  return { ...side, delegate: party, delegateKey: null };
}

function delegateField(request: Record<string, unknown>, field: "source" | "destination"): unknown {
  const side = request[field];
  return isObject(side) ? side.delegate : undefined;
}

/** A fresh key; a random 32 bytes outside the curve order is astronomically rare and simply redrawn. */
function newServiceKey(): { delegate: string; delegateKey: string } {
  for (;;) {
    const privateKey = randomBytes(32).toString("hex");
    try {
      return { delegate: BitcoinKey.fromHex(privateKey).xOnlyHex, delegateKey: privateKey };
    } catch {
      continue;
    }
  }
}
