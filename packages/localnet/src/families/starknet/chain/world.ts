/**
 * The chain's state: deployed contract models by address, account nonces, and the dispatch of a call to
 * a contract's entry point by selector. A transaction runs on a copy (`clone`) that replaces the state
 * only when every call succeeded, which makes the multicall atomic.
 */
import { CallRevert } from "./call-revert.js";
import { feltHex } from "./felt.js";
import type { GasMeter } from "./gas.js";

export interface EmittedEvent {
  fromAddress: bigint;
  keys: bigint[];
  data: bigint[];
}

/** What an entry point sees of the call and the chain around it. */
export interface CallContext {
  world: World;
  caller: bigint;
  self: bigint;
  blockNumber: bigint;
  chainId: bigint;
  gas: GasMeter;
  events: EmittedEvent[];
  /** Calls another contract with this contract as the caller. */
  callContract(to: bigint, selector: bigint, calldata: bigint[]): bigint[];
  emit(keys: bigint[], data: bigint[]): void;
}

export interface ContractModel {
  /** Local-only class hash naming the model in revert reasons. */
  readonly classHash: bigint;
  /** The entry point, or undefined when the contract has none of that selector. */
  entryPoint(selector: bigint): ((ctx: CallContext, calldata: bigint[]) => bigint[]) | undefined;
  clone(): ContractModel;
}

export class World {
  constructor(
    readonly contracts = new Map<bigint, ContractModel>(),
    readonly nonces = new Map<bigint, bigint>(),
  ) {}

  clone(): World {
    const contracts = new Map<bigint, ContractModel>();
    for (const [address, model] of this.contracts) contracts.set(address, model.clone());
    return new World(contracts, new Map(this.nonces));
  }

  nonceOf(address: bigint): bigint {
    return this.nonces.get(address) ?? 0n;
  }

  contractAt<T extends ContractModel>(address: bigint, kind: abstract new (...args: never[]) => T): T {
    const model = this.contracts.get(address);
    if (!(model instanceof kind)) throw new Error(`no ${kind.name} at ${feltHex(address)}`);
    return model;
  }

  /** Runs one entry point; a failure anywhere below becomes a CallRevert naming the failing contract. */
  call(
    frame: Omit<CallContext, "world" | "self" | "callContract" | "emit">,
    to: bigint,
    selector: bigint,
    calldata: bigint[],
  ): bigint[] {
    const model = this.contracts.get(to);
    if (model === undefined) {
      throw new CallRevert(`Requested contract address ${feltHex(to)} is not deployed.`);
    }
    const entryPoint = model.entryPoint(selector);
    if (entryPoint === undefined) {
      throw new CallRevert(
        `Error in the called contract (contract address: ${feltHex(to)}, class hash: ${feltHex(model.classHash)}, selector: ${feltHex(selector)}): Entry point ${feltHex(selector)} not found in contract.`,
      );
    }
    frame.gas.call(calldata.length);
    const ctx: CallContext = {
      ...frame,
      world: this,
      self: to,
      callContract: (target, targetSelector, targetCalldata) =>
        this.call({ ...frame, caller: to }, target, targetSelector, targetCalldata),
      emit: (keys, data) => {
        frame.gas.event(keys.length + data.length);
        frame.events.push({ fromAddress: to, keys, data });
      },
    };
    try {
      return entryPoint(ctx, calldata);
    } catch (error) {
      if (!(error instanceof CallRevert) || error.reason.startsWith("Error in the called contract"))
        throw error;
      throw new CallRevert(
        `Error in the called contract (contract address: ${feltHex(to)}, class hash: ${feltHex(model.classHash)}, selector: ${feltHex(selector)}): Execution failed. Failure reason: "${error.reason}".`,
      );
    }
  }
}
