/** The chain's objects by id, at their current version; deleted and wrapped objects are gone from it. */
import type { SuiObject } from "./objects.js";

export class ObjectStore {
  private readonly objects = new Map<string, SuiObject>();

  get(id: string): SuiObject | undefined {
    return this.objects.get(id);
  }

  set(object: SuiObject): void {
    this.objects.set(object.id, object);
  }

  delete(id: string): void {
    this.objects.delete(id);
  }

  /** A copy to execute on without touching this store (dry runs); objects themselves are never mutated. */
  clone(): ObjectStore {
    const copy = new ObjectStore();
    for (const object of this.objects.values()) copy.set(object);
    return copy;
  }

  /** Every object, in insertion order (coin listings page over it). */
  all(): IterableIterator<SuiObject> {
    return this.objects.values();
  }
}
