/**
 * The HTLC script of one side of an order. Which key is which (docs/protocol.md, "Which key is which"):
 * on a Bitcoin source the initiator key is `delegate` and the redeemer key is the solver's (`redeemer`);
 * on a Bitcoin destination the initiator key is the solver's (`initiator`) and the redeemer key is
 * `delegate`.
 */
import { bitcoinHtlc, type BitcoinHtlc } from "htlc-solver/chains/bitcoin/htlc.js";
import type { BitcoinNetworkName } from "htlc-solver/chains/bitcoin/network.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { SwapTerms } from "../../../service/chains/service-chain.js";

export function htlcOfTerms(terms: SwapTerms, network: BitcoinNetworkName): BitcoinHtlc {
  if (terms.delegate === null) throw new Error(`the ${terms.side} swap on Bitcoin needs a delegate key`);
  const source = terms.side === "source";
  return bitcoinHtlc({
    initiatorKey: source ? terms.delegate : terms.initiator,
    redeemerKey: source ? terms.redeemer : terms.delegate,
    secretHash: terms.secretHash,
    timelock: terms.timelock,
    network,
  });
}

/** The HTLC a swap record describes: whichever side's reading rebuilds its `swap_id`. */
export function htlcOfSwap(swap: SwapRecord, network: BitcoinNetworkName): BitcoinHtlc {
  const delegate = swap.delegate;
  if (delegate === undefined || delegate === "") {
    throw new Error(`Bitcoin swap ${swap.swap_id} has no delegate key`);
  }
  const readings: [string, string][] = [
    [delegate, swap.redeemer],
    [swap.initiator, delegate],
  ];
  for (const [initiatorKey, redeemerKey] of readings) {
    let htlc: BitcoinHtlc;
    try {
      htlc = bitcoinHtlc({
        initiatorKey,
        redeemerKey,
        secretHash: swap.secret_hash,
        timelock: swap.timelock,
        network,
      });
    } catch {
      continue; // An address is not a key: this is not the reading of that side.
    }
    if (htlc.address === swap.swap_id) return htlc;
  }
  throw new Error(`Bitcoin swap ${swap.swap_id} does not rebuild from its keys, secret hash and timelock`);
}
