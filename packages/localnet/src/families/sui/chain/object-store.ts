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

  /** The coins of `coinType` (normalised) `owner` holds, ordered by id (the order coin listings page in). */
  coinsOf(owner: string, coinType: string): SuiObject[] {
    return [...this.objects.values()]
      .filter(
        (o) =>
          o.owner.kind === "address" &&
          o.owner.address === owner &&
          o.contents.kind === "coin" &&
          o.contents.coinType === coinType,
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }
}
