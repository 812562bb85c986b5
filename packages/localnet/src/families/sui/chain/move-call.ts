/** What a Move function model sees of its call: typed access to its arguments and what it returns. */
import type { BcsType } from "@mysten/sui/bcs";
import type { SuiMoveNormalizedFunction } from "@mysten/sui/client";
import type { Execution } from "./execution.js";
import type { SuiObject } from "./objects.js";

/** A value a command produces or a Move call receives. */
export type PtbValue = { kind: "pure"; bytes: Uint8Array } | { kind: "object"; id: string };

export interface CallArgs {
  readonly count: number;
  /** A pure argument decoded as `type` (fails with `InvalidBCSBytes` or `TypeMismatch`). */
  pure<T, I>(index: number, type: BcsType<T, I>): T;
  /** An object passed by reference (mutable or not). */
  object(index: number, mutable: boolean): SuiObject;
  /** An object passed by value: it leaves the transaction's hands. */
  objectByValue(index: number): SuiObject;
}

export interface MoveCallContext {
  execution: Execution;
  typeArguments: string[];
  args: CallArgs;
}

/** A modelled Move module: its functions by name. */
export interface MoveModuleModel {
  readonly name: string;
  has(fn: string): boolean;
  /** The function's signature as a full node describes it; undefined for no such function. */
  signature(fn: string): SuiMoveNormalizedFunction | undefined;
  call(fn: string, context: MoveCallContext): PtbValue[];
}
