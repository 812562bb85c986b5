/**
 * A test-only contract that emits whatever event it is given, `count` times (`emit_event(count: u32, keys:
 * Array<felt>, data: Array<felt>)`): history spam for paging, and look-alike HTLC events from an address
 * that is not the HTLC.
 */
import { CalldataReader } from "./calldata.js";
import { LOCAL_EVENT_EMITTER_CLASS_HASH } from "./local-classes.js";
import { selectorOf } from "./selectors.js";
import type { CallContext, ContractModel } from "./world.js";

const EMIT_EVENT = selectorOf("emit_event");

export class EventEmitterModel implements ContractModel {
  readonly classHash = LOCAL_EVENT_EMITTER_CLASS_HASH;

  clone(): EventEmitterModel {
    return this;
  }

  entryPoint(selector: bigint): ((ctx: CallContext, calldata: bigint[]) => bigint[]) | undefined {
    if (selector !== EMIT_EVENT) return undefined;
    return (ctx, calldata) => {
      const args = new CalldataReader(calldata);
      const count = args.u32();
      const keys = args.feltArray();
      const data = args.feltArray();
      args.end();
      for (let i = 0n; i < count; i++) ctx.emit(keys, data);
      return [];
    };
  }
}
