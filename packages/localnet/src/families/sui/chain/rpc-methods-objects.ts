/** Chain and object methods: identifier, gas price, checkpoints, objects, dynamic fields, coins, balances. */
import { normalizeStructTag } from "@mysten/sui/utils";
import { orderFieldId } from "./atomic-swap.js";
import type { LocalSuiChain } from "./chain.js";
import { invalidParams } from "./errors.js";
import { displayType, SUI_COIN_TYPE, type SuiObject } from "./objects.js";
import { objectResponse, packageResponse, type ObjectOptions } from "./response-json.js";
import type { RpcMethod } from "./rpc-method.js";
import { parseAddress, type Params } from "./rpc-params.js";

/** The local chain's identifier (live networks have their genesis checkpoint digest's first bytes). */
export const LOCAL_CHAIN_IDENTIFIER = "4c0c0a11";

function objectOptions(params: Params, index: number): ObjectOptions {
  return params.object(index, "options") as ObjectOptions;
}

function getObject(chain: LocalSuiChain, id: string, options: ObjectOptions) {
  const object = chain.store.get(id);
  if (object === undefined) {
    const isPackage = id === chain.packageId || id === chain.lookalikePackageId;
    return isPackage ? packageResponse(id, options) : { error: { code: "notExists", object_id: id } };
  }
  return objectResponse(chain, object, options);
}

function coinTypeParam(params: Params, index: number): string {
  const value = params.optional(index);
  if (value === undefined) return SUI_COIN_TYPE;
  if (typeof value !== "string")
    throw invalidParams(`coin_type must be a string, got ${JSON.stringify(value)}`);
  try {
    return normalizeStructTag(value);
  } catch {
    throw invalidParams(`coin_type must be a Move struct type like 0x2::sui::SUI, got ${value}`);
  }
}

const balanceOf = (coin: SuiObject) => (coin.contents.kind === "coin" ? coin.contents.balance : 0n);

export const OBJECT_METHODS: Record<string, RpcMethod> = {
  sui_getChainIdentifier: () => LOCAL_CHAIN_IDENTIFIER,
  suix_getReferenceGasPrice: (chain) => chain.referenceGasPrice.toString(),
  sui_getLatestCheckpointSequenceNumber: (chain) => chain.latestCheckpoint().toString(),
  sui_getObject: (chain, params) =>
    getObject(chain, params.address(0, "object_id"), objectOptions(params, 1)),
  sui_multiGetObjects: (chain, params) => {
    const ids = params.required(0, "object_ids");
    if (!Array.isArray(ids)) throw invalidParams("object_ids must be an array of object ids");
    const options = objectOptions(params, 1);
    return ids.map((id, i) => getObject(chain, parseAddress(id, `object_ids[${i}]`), options));
  },
  suix_getDynamicFieldObject: (chain, params) => {
    const parent = params.address(0, "parent_object_id");
    const name = params.object(1, "name");
    if (name.type !== "vector<u8>" || !Array.isArray(name.value))
      throw invalidParams(
        'name must be {type: "vector<u8>", value: [bytes]} (the registry\'s fields are named by order id)',
      );
    const bytes = name.value.map((b, i) => {
      if (typeof b !== "number" || !Number.isInteger(b) || b < 0 || b > 255)
        throw invalidParams(`name.value[${i}] must be a byte, got ${JSON.stringify(b)}`);
      return b;
    });
    const field = chain.store.get(orderFieldId(parent, Uint8Array.from(bytes)));
    if (field === undefined) return { error: { code: "dynamicFieldNotFound", parent_object_id: parent } };
    return objectResponse(chain, field, {
      showType: true,
      showOwner: true,
      showContent: true,
      showPreviousTransaction: true,
      showStorageRebate: true,
    });
  },
  sui_getNormalizedMoveFunction: (chain, params) => {
    const packageId = params.address(0, "package");
    const module = params.string(1, "module_name");
    const fn = params.string(2, "function_name");
    const signature = chain.moveFunction(packageId, module, fn);
    if (signature === undefined)
      throw invalidParams(`No function was found with function name ${fn} in module ${packageId}::${module}`);
    return signature;
  },
  suix_getCoins: (chain, params) => {
    const owner = params.address(0, "owner");
    const coinType = coinTypeParam(params, 1);
    const cursor = params.optional(2);
    const limit = params.limit(3);
    const after = cursor === undefined ? undefined : parseAddress(cursor, "cursor");
    const all = chain.store.coinsOf(owner, coinType).filter((c) => after === undefined || c.id > after);
    const page = all.slice(0, limit);
    return {
      data: page.map((coin) => ({
        coinType: displayType(coinType),
        coinObjectId: coin.id,
        version: coin.version.toString(),
        digest: coin.digest,
        balance: balanceOf(coin).toString(),
        previousTransaction: coin.previousTransaction,
      })),
      nextCursor: page.length > 0 ? page[page.length - 1]!.id : null,
      hasNextPage: all.length > page.length,
    };
  },
  suix_getBalance: (chain, params) => {
    const coinType = coinTypeParam(params, 1);
    const coins = chain.store.coinsOf(params.address(0, "owner"), coinType);
    return {
      coinType: displayType(coinType),
      coinObjectCount: coins.length,
      totalBalance: coins.reduce((sum, coin) => sum + balanceOf(coin), 0n).toString(),
      lockedBalance: {},
    };
  },
};
