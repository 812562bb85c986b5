/**
 * Runs a programmable transaction's commands over an `Execution`: `SplitCoins`, `MergeCoins`,
 * `TransferObjects` and `MoveCall` (to the modelled modules), with inputs, results and nested results, the
 * rules on what may be used by value or by mutable reference, and Sui's error kinds. The first failure
 * stops the run; the caller drops its writes.
 */
import { bcs, type BcsType } from "@mysten/sui/bcs";
import { normalizeSuiAddress } from "@mysten/sui/utils";
import { argumentError, ExecutionFailure } from "./execution-failure.js";
import type { Execution } from "./execution.js";
import type { CallArgs, MoveModuleModel, PtbValue } from "./move-call.js";
import type { SuiObject } from "./objects.js";
import { sameBytes } from "./bytes.js";

type ParsedKind = ReturnType<typeof bcs.TransactionKind.parse>;
type Programmable = NonNullable<ParsedKind["ProgrammableTransaction"]>;
export type Command = Programmable["commands"][number];
type Argument = ReturnType<typeof bcs.Argument.parse>;

/** An input as admission resolved it. */
export type RunInput =
  { kind: "pure"; bytes: Uint8Array } | { kind: "object"; id: string; mutable: boolean; byValue: boolean };

export interface PtbRun {
  execution: Execution;
  inputs: RunInput[];
  commands: Command[];
  gasCoinId: string;
  /** Modules by `<package>::<module>`. */
  modules: ReadonlyMap<string, MoveModuleModel>;
}

interface Slot {
  key: string;
  value: PtbValue;
  mutable: boolean;
  byValue: boolean;
  isGas: boolean;
}

export function runProgrammable(run: PtbRun): void {
  const results: PtbValue[][] = [];
  const moved = new Set<string>();
  const { execution } = run;

  const slotOf = (arg: Argument, argIndex: number, commandIndex: number): Slot => {
    if (arg.$kind === "GasCoin") {
      return {
        key: "gas",
        value: { kind: "object", id: run.gasCoinId },
        mutable: true,
        byValue: true,
        isGas: true,
      };
    }
    if (arg.$kind === "Input") {
      const input = run.inputs[arg.Input];
      if (input === undefined) throw argumentError(argIndex, `IndexOutOfBounds { idx: ${arg.Input} }`);
      const key = `input:${arg.Input}`;
      if (input.kind === "pure") return { key, value: input, mutable: false, byValue: true, isGas: false };
      return {
        key,
        value: { kind: "object", id: input.id },
        mutable: input.mutable,
        byValue: input.byValue,
        isGas: false,
      };
    }
    const [resultIndex, nested] =
      arg.$kind === "Result" ? [arg.Result, undefined] : [arg.NestedResult[0], arg.NestedResult[1]];
    const values = resultIndex < commandIndex ? results[resultIndex] : undefined;
    if (values === undefined) throw argumentError(argIndex, `IndexOutOfBounds { idx: ${resultIndex} }`);
    if (nested === undefined && values.length !== 1)
      throw argumentError(argIndex, `InvalidResultArity { result_idx: ${resultIndex} }`);
    const index = nested ?? 0;
    const value = values[index];
    if (value === undefined)
      throw argumentError(
        argIndex,
        `SecondaryIndexOutOfBounds { result_idx: ${resultIndex}, secondary_idx: ${index} }`,
      );
    return { key: `result:${resultIndex}:${index}`, value, mutable: true, byValue: true, isGas: false };
  };

  const objectOf = (slot: Slot, argIndex: number): SuiObject => {
    if (moved.has(slot.key)) throw argumentError(argIndex, "ArgumentWithoutValue");
    if (slot.value.kind !== "object") throw argumentError(argIndex, "TypeMismatch");
    const object = execution.get(slot.value.id);
    if (object === undefined) throw argumentError(argIndex, "ArgumentWithoutValue");
    return object;
  };
  const byMutRef = (slot: Slot, argIndex: number): SuiObject => {
    if (!slot.mutable) throw argumentError(argIndex, "InvalidObjectByMutRef");
    return objectOf(slot, argIndex);
  };
  const byValue = (slot: Slot, argIndex: number, allowGas: boolean): SuiObject => {
    if (slot.isGas && !allowGas) throw argumentError(argIndex, "InvalidGasCoinUsage");
    if (!slot.byValue) throw argumentError(argIndex, "InvalidObjectByValue");
    const object = objectOf(slot, argIndex);
    moved.add(slot.key);
    return object;
  };
  const pureOf = <T, I>(slot: Slot, argIndex: number, type: BcsType<T, I>): T => {
    if (slot.value.kind !== "pure") throw argumentError(argIndex, "TypeMismatch");
    const { bytes } = slot.value;
    let value: T;
    try {
      value = type.parse(bytes);
    } catch {
      throw argumentError(argIndex, "InvalidBCSBytes");
    }
    // Trailing bytes make the argument invalid, as a Move VM's deserialiser says.
    if (!sameBytes(type.serialize(value as unknown as I).toBytes(), bytes))
      throw argumentError(argIndex, "InvalidBCSBytes");
    return value;
  };
  const coinOf = (object: SuiObject, argIndex: number) => {
    if (object.contents.kind !== "coin") throw argumentError(argIndex, "TypeMismatch");
    return object.contents;
  };

  run.commands.forEach((command, commandIndex) => {
    const slot = (arg: Argument, argIndex: number) => slotOf(arg, argIndex, commandIndex);
    try {
      results.push(runCommand(command));
    } catch (error) {
      if (error instanceof ExecutionFailure)
        throw new ExecutionFailure(`${error.kind} in command ${commandIndex}`);
      throw error;
    }

    function runCommand(cmd: Command): PtbValue[] {
      switch (cmd.$kind) {
        case "SplitCoins": {
          const source = byMutRef(slot(cmd.SplitCoins.coin, 0), 0);
          const coin = coinOf(source, 0);
          const amounts = cmd.SplitCoins.amounts.map((a, i) =>
            BigInt(pureOf(slot(a, i + 1), i + 1, bcs.u64())),
          );
          const total = amounts.reduce((sum, a) => sum + a, 0n);
          if (total > coin.balance) throw new ExecutionFailure("InsufficientCoinBalance");
          execution.put({ ...source, contents: { ...coin, balance: coin.balance - total } });
          return amounts.map((balance) => {
            const created = execution.create(
              { kind: "in-flight" },
              { kind: "coin", coinType: coin.coinType, balance },
            );
            return { kind: "object", id: created.id };
          });
        }
        case "MergeCoins": {
          const destination = byMutRef(slot(cmd.MergeCoins.destination, 0), 0);
          const coin = coinOf(destination, 0);
          let balance = coin.balance;
          cmd.MergeCoins.sources.forEach((arg, i) => {
            const source = byValue(slot(arg, i + 1), i + 1, false);
            const sourceCoin = coinOf(source, i + 1);
            if (source.id === destination.id) throw argumentError(i + 1, "InvalidValueUsage");
            if (sourceCoin.coinType !== coin.coinType) throw argumentError(i + 1, "TypeMismatch");
            balance += sourceCoin.balance;
            execution.remove(source.id);
          });
          execution.put({ ...execution.get(destination.id)!, contents: { ...coin, balance } });
          return [];
        }
        case "TransferObjects": {
          const { objects, address } = cmd.TransferObjects;
          const recipient = pureOf(slot(address, objects.length), objects.length, bcs.Address);
          objects.forEach((arg, i) => {
            const object = byValue(slot(arg, i), i, true);
            if (object.contents.kind !== "coin") throw argumentError(i, "InvalidObjectByValue");
            execution.put({ ...object, owner: { kind: "address", address: normalizeSuiAddress(recipient) } });
          });
          return [];
        }
        case "MoveCall": {
          const call = cmd.MoveCall;
          const model = run.modules.get(`${normalizeSuiAddress(call.package)}::${call.module}`);
          if (model === undefined || !model.has(call.function))
            throw new ExecutionFailure("FunctionNotFound");
          const args: CallArgs = {
            count: call.arguments.length,
            pure: (i, type) => pureOf(slot(call.arguments[i]!, i), i, type),
            object: (i, mutable) => {
              const s = slot(call.arguments[i]!, i);
              return mutable ? byMutRef(s, i) : objectOf(s, i);
            },
            objectByValue: (i) => byValue(slot(call.arguments[i]!, i), i, false),
          };
          return model.call(call.function, { execution, typeArguments: call.typeArguments, args });
        }
        default:
          throw new ExecutionFailure(`FeatureNotYetSupported(${cmd.$kind})`);
      }
    }
  });

  results.forEach((values, resultIndex) =>
    values.forEach((value, secondary) => {
      if (value.kind !== "object" || moved.has(`result:${resultIndex}:${secondary}`)) return;
      if (execution.get(value.id)?.owner.kind === "in-flight")
        throw new ExecutionFailure(
          `UnusedValueWithoutDrop { result_idx: ${resultIndex}, secondary_idx: ${secondary} }`,
        );
    }),
  );
}
