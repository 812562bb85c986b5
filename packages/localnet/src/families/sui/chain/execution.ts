/**
 * One transaction's view of the object store while it runs: reads fall through to the store, writes stay
 * here until the run succeeds (a failure drops them), new objects get ids derived from the transaction
 * digest, and emitted events are kept in order.
 */
import type { ObjectStore } from "./object-store.js";
import { freshObjectId, type Contents, type Owner, type SuiObject } from "./objects.js";

export interface EmittedEvent {
  packageId: string;
  module: string;
  /** Full type `<package>::<module>::<Name>`. */
  type: string;
  parsedJson: Record<string, unknown>;
  bcs: Uint8Array;
}

export class Execution {
  readonly events: EmittedEvent[] = [];
  /** Objects written by this run; null for deleted ones. */
  readonly writes = new Map<string, SuiObject | null>();
  /** Objects that existed before and were wrapped into another (a coin locked in an order). */
  readonly wrapped = new Set<string>();
  private createdCount = 0;

  constructor(
    private readonly store: ObjectStore,
    readonly sender: string,
    private readonly digestBytes: Uint8Array,
    readonly timestampMs: bigint,
  ) {}

  get(id: string): SuiObject | undefined {
    if (this.writes.has(id)) return this.writes.get(id) ?? undefined;
    return this.store.get(id);
  }

  put(object: SuiObject): void {
    this.writes.set(object.id, object);
  }

  remove(id: string, wrapped = false): void {
    this.writes.set(id, null);
    if (wrapped && this.store.get(id) !== undefined) this.wrapped.add(id);
  }

  /** A new id, for an object or a UID inside one. */
  freshId(): string {
    this.createdCount += 1;
    return freshObjectId(this.digestBytes, this.createdCount);
  }

  create(owner: Owner, contents: Contents): SuiObject {
    const object: SuiObject = {
      id: this.freshId(),
      version: 0n,
      digest: "",
      owner,
      contents,
      storageRebate: 0n,
      previousTransaction: "",
    };
    this.put(object);
    return object;
  }

  existedBefore(id: string): SuiObject | undefined {
    return this.store.get(id);
  }

  emit(event: EmittedEvent): void {
    this.events.push(event);
  }
}
