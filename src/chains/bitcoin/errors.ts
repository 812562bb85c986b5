/** Refusals of the Bitcoin executor, each naming what was wrong. */
import { AlreadyOnChainError } from "../seam-errors.js";

export class BitcoinActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BitcoinActionError";
  }
}

/** The chain already shows funding at the HTLC address: filling again would pay twice. */
export class AlreadyFundedError extends AlreadyOnChainError {
  constructor(readonly address: string) {
    super(`HTLC ${address} is already funded on chain; refusing to fund it again`);
    this.name = "AlreadyFundedError";
  }
}

/** No unspent funding output is left at the HTLC address. */
export class NothingToSpendError extends BitcoinActionError {
  constructor(
    readonly address: string,
    action: string,
  ) {
    super(`HTLC ${address} has no unspent funding output to ${action}`);
    this.name = "NothingToSpendError";
  }
}

/** A partial instant refund carries only the redeemer's signatures; the initiator must complete it. */
export class IncompleteInstantRefundError extends BitcoinActionError {
  constructor(readonly txid: string) {
    super(
      `transaction ${txid} is an instant refund signed by the redeemer only; ` +
        "it needs the initiator's signature (completeInstantRefund) before it can be broadcast",
    );
    this.name = "IncompleteInstantRefundError";
  }
}
