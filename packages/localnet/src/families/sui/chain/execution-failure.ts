/**
 * Why a programmable transaction's execution failed, as Sui prints it in `effects.status.error`: a Move
 * abort with its location and code, or an execution error kind; the runner appends ` in command <i>`.
 */

export class ExecutionFailure extends Error {
  constructor(readonly kind: string) {
    super(kind);
    this.name = "ExecutionFailure";
  }
}

/** Where a Move function lives, for the abort's `MoveLocation`. */
export interface MoveFunction {
  packageId: string;
  module: string;
  name: string;
  /** The function's index in the module's definition order. */
  index: number;
}

/**
 * An `assert!` that failed. The instruction offset is not modelled (no bytecode): it is the assert's rank
 * in the function, which keeps each abort site distinct.
 */
export function moveAbort(fn: MoveFunction, code: number, assertRank: number): ExecutionFailure {
  const location =
    `MoveLocation { module: ModuleId { address: ${fn.packageId.replace(/^0x/, "")}, ` +
    `name: Identifier("${fn.module}") }, function: ${fn.index}, instruction: ${assertRank}, ` +
    `function_name: Some("${fn.name}") }`;
  return new ExecutionFailure(`MoveAbort(${location}, ${code})`);
}

export function argumentError(argIndex: number, kind: string): ExecutionFailure {
  return new ExecutionFailure(`CommandArgumentError { arg_idx: ${argIndex}, kind: ${kind} }`);
}
