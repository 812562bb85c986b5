/** A transaction that passed admission: decoded, signed by its sender, its inputs and gas checked. */
import type { RunInput, Command } from "./ptb-runner.js";

export interface OwnedRef {
  id: string;
  version: bigint;
}

export interface AdmittedTransaction {
  digest: string;
  /** The BCS `TransactionData` as sent, and the serialized signatures. */
  bytes: Uint8Array;
  signatures: string[];
  sender: string;
  inputs: RunInput[];
  commands: Command[];
  gasPayment: OwnedRef[];
  gasPrice: bigint;
  gasBudget: bigint;
  /** Owned objects (inputs and gas) at the versions the transaction consumes: what it locks. */
  ownedRefs: OwnedRef[];
  /** Shared inputs, by id, and whether any use of each is mutable. */
  shared: Map<string, boolean>;
}
