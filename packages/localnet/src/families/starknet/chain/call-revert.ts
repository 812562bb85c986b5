/** A failed call inside a transaction: an assert, an unknown entry point, a token balance. Reverts the transaction. */
export class CallRevert extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "CallRevert";
  }
}
