/** Owners and object references as Sui's JSON-RPC prints them. */
import type { ObjectOwner, OwnedObjectRef } from "@mysten/sui/client";
import type { Owner, SuiObject } from "./objects.js";

export function ownerJson(owner: Owner): ObjectOwner {
  switch (owner.kind) {
    case "address":
      return { AddressOwner: owner.address };
    case "object":
      return { ObjectOwner: owner.parent };
    case "shared":
      return { Shared: { initial_shared_version: owner.initialSharedVersion.toString() } };
    case "immutable":
    case "in-flight":
      return "Immutable";
  }
}

export function refJson(object: Pick<SuiObject, "id" | "version" | "digest">) {
  return { objectId: object.id, version: object.version.toString(), digest: object.digest };
}

export function ownedRefJson(object: SuiObject): OwnedObjectRef {
  return { owner: ownerJson(object.owner), reference: refJson(object) };
}
