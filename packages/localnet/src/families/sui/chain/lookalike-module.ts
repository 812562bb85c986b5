/**
 * A test-only Move module at another package, also named `AtomicSwap`, whose `emit_redeemed` emits a
 * `Redeemed` event of the same shape as the real module's with whatever the caller passes, checking
 * nothing: readers must trust only the configured package's events.
 */
import { bcs } from "@mysten/sui/bcs";
import type { SuiMoveNormalizedFunction } from "@mysten/sui/client";
import { ExecutionFailure } from "./execution-failure.js";
import { lookalikeSignatures } from "./move-signatures.js";
import type { MoveCallContext, MoveModuleModel, PtbValue } from "./move-call.js";

const BYTES = bcs.vector(bcs.u8());

export class LookalikeModel implements MoveModuleModel {
  readonly name = "AtomicSwap";

  private readonly signatures: Record<string, SuiMoveNormalizedFunction>;

  constructor(private readonly packageId: string) {
    this.signatures = lookalikeSignatures();
  }

  signature(fn: string): SuiMoveNormalizedFunction | undefined {
    return this.has(fn) ? this.signatures[fn] : undefined;
  }

  has(fn: string): boolean {
    return fn === "emit_redeemed";
  }

  call(_fn: string, { execution, args, typeArguments }: MoveCallContext): PtbValue[] {
    if (typeArguments.length !== 0) throw new ExecutionFailure("TypeArityMismatch");
    if (args.count !== 3) throw new ExecutionFailure("ArityMismatch");
    const json = {
      order_id: args.pure(0, BYTES),
      secret_hash: args.pure(1, BYTES),
      secret: args.pure(2, BYTES),
    };
    execution.emit({
      packageId: this.packageId,
      module: this.name,
      type: `${this.packageId}::${this.name}::Redeemed`,
      parsedJson: json,
      bcs: bcs
        .struct("Redeemed", { order_id: BYTES, secret_hash: BYTES, secret: BYTES })
        .serialize(json)
        .toBytes(),
    });
    return [];
  }
}
