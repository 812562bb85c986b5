/**
 * No quote for a pair whose destination does not check the secret length its source requires, unless the
 * operator accepts that risk: the fill would be refused (`checkSecretUsable`, the rule that decides), and
 * a user who locked their source on the strength of the quote would wait out its timelock for nothing.
 */
import type { QuoteFunction } from "../pricing/quote-server.js";
import { refuse } from "../pricing/refusal.js";
import {
  describeSecretLength,
  secretLengthUnenforced,
  type SecretLengthRule,
} from "../chains/secret-length.js";

/** The secret lengths a redeem on an asset's chain accepts; undefined for an unknown asset. */
export type SecretLengthOf = (assetId: string) => SecretLengthRule | undefined;

export function refusingUnenforcedSecretLengths(
  quote: QuoteFunction,
  secretLengthOf: SecretLengthOf,
  allowUnenforced: boolean,
): QuoteFunction {
  if (allowUnenforced) return quote;
  return (request) => {
    const source = secretLengthOf(request.from);
    const destination = secretLengthOf(request.to);
    if (source === undefined || destination === undefined) return quote(request);
    if (!secretLengthUnenforced(source, destination)) return quote(request);
    return Promise.resolve(
      refuse(
        "secret_length_unenforced",
        `a redeem of ${request.to} can reveal a secret ${request.from} refuses (it takes only secrets of ${describeSecretLength(source)})`,
      ),
    );
  };
}
