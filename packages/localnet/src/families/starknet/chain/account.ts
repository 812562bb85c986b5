/**
 * The account model: one Stark public key. `__validate__` (run by the chain before execution) and
 * `is_valid_signature` verify a Stark signature `[r, s]` over a hash with that key; the latter answers the
 * short string VALID or 0, as SRC-6 accounts do.
 */
import { CalldataReader } from "./calldata.js";
import { shortStringFelt } from "./felt.js";
import { LOCAL_ACCOUNT_CLASS_HASH } from "./local-classes.js";
import { entryPointTable } from "./selectors.js";
import { isValidStarkSignature } from "./stark-signature.js";
import type { CallContext, ContractModel } from "./world.js";

export const VALID = shortStringFelt("VALID");

type Handler = (account: AccountModel, ctx: CallContext, args: CalldataReader) => bigint[];

const ENTRY_POINTS = entryPointTable<Handler>([
  [
    ["is_valid_signature", "isValidSignature"],
    (account, _ctx, args) => {
      const messageHash = args.felt();
      const signature = args.feltArray();
      args.end();
      return [account.verifies(messageHash, signature) ? VALID : 0n];
    },
  ],
  [["get_public_key", "getPublicKey"], (account) => [account.publicKey]],
]);

export class AccountModel implements ContractModel {
  readonly classHash = LOCAL_ACCOUNT_CLASS_HASH;

  constructor(readonly publicKey: bigint) {}

  clone(): AccountModel {
    return this;
  }

  verifies(messageHash: bigint, signature: readonly bigint[]): boolean {
    return isValidStarkSignature(messageHash, signature, this.publicKey);
  }

  entryPoint(selector: bigint): ((ctx: CallContext, calldata: bigint[]) => bigint[]) | undefined {
    const handler = ENTRY_POINTS.get(selector);
    return handler === undefined
      ? undefined
      : (ctx, calldata) => handler(this, ctx, new CalldataReader(calldata));
  }
}
