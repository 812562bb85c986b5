/**
 * What a user who wants the solver's inventory does on the local Sui chain: initiate an order's terms with
 * other parties or in another `OrdersRegistry<SUI>` than the one the solver reads, fund them from a second
 * account of their own, and send coins straight to the registry or the solver (balances and gas are read
 * with the Sui swap tests' shared reads, `test/e2e/swaps/sui-support.ts`). A move's response is returned whatever its outcome, so a test can charge its gas to the user.
 */
import { Transaction } from "@mysten/sui/transactions";
import type { SuiTransactionBlockResponse } from "@mysten/sui/client";
import { SUI_COIN_TYPE } from "../../../src/chains/sui/address.js";
import { computeSuiSwapId } from "../../../src/chains/sui/order-id.js";
import {
  LocalSuiAccount,
  type RegistryRef,
} from "@htlc-solver/localnet/families/sui/chain/local-sui-account.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import type { TestLocalnet } from "../../support/localnet.js";
import { SUI } from "../../e2e/swaps/sui-support.js";

/** Budget of a move sent as it is, with no dry run (so a move meant to abort still executes): ample. */
const MOVE_BUDGET = 20_000_000n;

/** The configured `OrdersRegistry<SUI>` of the localnet. */
export function suiRegistry(t: TestLocalnet): RegistryRef {
  const asset = t.net.descriptor.sui.assets.find((a) => a.id === SUI);
  if (asset === undefined) throw new Error(`${SUI} is not on the localnet`);
  return { registryId: asset.registryId, initialSharedVersion: BigInt(asset.registryInitialSharedVersion) };
}

/** A second `OrdersRegistry<SUI>` of the same package: same coin type, an id no configured chain names. */
export function secondSuiRegistry(t: TestLocalnet): RegistryRef {
  return t.net.sui.local.createRegistry(SUI_COIN_TYPE);
}

/** The order id a record's terms have in `registry`, as the service prints it. */
export function suiSwapIdIn(swap: SwapRecord, registry: RegistryRef): string {
  return computeSuiSwapId({
    initiator: swap.initiator,
    redeemer: swap.redeemer,
    secretHash: swap.secret_hash,
    timelock: BigInt(swap.timelock),
    amount: BigInt(swap.amount),
    registry: registry.registryId,
  });
}

/** Another Sui account of the user's, funded with `whole` SUI. */
export function secondSuiAccount(t: TestLocalnet, whole = 1_000_000n): LocalSuiAccount {
  const keys = t.net.sui.local.createAccount();
  t.net.sui.local.mintSui(keys.address, whole * 10n ** 9n);
  return new LocalSuiAccount(t.net.sui.rpcUrl, keys.secretKey, t.net.sui.packageId);
}

/** The user's own Sui account, able to send any call. */
export const suiAccountOf = (user: LocalUser): LocalSuiAccount => user.sui.local;

export interface InitiateTerms {
  initiator: string;
  redeemer: string;
  secretHash: string;
  amount: bigint;
  timelockMs: bigint;
}

/** A record's terms, as `initiate` takes them. */
export function termsOf(swap: SwapRecord): InitiateTerms {
  return {
    initiator: swap.initiator,
    redeemer: swap.redeemer,
    secretHash: swap.secret_hash,
    amount: BigInt(swap.amount),
    timelockMs: BigInt(swap.timelock),
  };
}

/** `initiate` of the terms in `registry`, funded and sent by `from`, with no dry run. */
export async function initiateFrom(
  from: LocalSuiAccount,
  registry: RegistryRef,
  terms: InitiateTerms,
): Promise<SuiTransactionBlockResponse> {
  const tx = await from.initiateTx({
    registry,
    coinType: SUI_COIN_TYPE,
    initiator: terms.initiator,
    redeemer: terms.redeemer,
    secretHash: Uint8Array.from(Buffer.from(terms.secretHash, "hex")),
    amount: terms.amount,
    timelockMs: terms.timelockMs,
  });
  return from.execute(tx, { gasBudget: MOVE_BUDGET });
}

/** `refund` of an order id in `registry`, sent by `from` (anyone may: it pays the initiator), with no dry run. */
export function refundFrom(
  from: LocalSuiAccount,
  registry: RegistryRef,
  swapId: string,
): Promise<SuiTransactionBlockResponse> {
  return from.refund(registry, SUI_COIN_TYPE, Uint8Array.from(Buffer.from(swapId, "hex")), {
    gasBudget: MOVE_BUDGET,
  });
}

/** SUI sent straight to an address or object id (the registry's, the solver's), past every entry point. */
export function transferSui(
  from: LocalSuiAccount,
  to: string,
  amount: bigint,
): Promise<SuiTransactionBlockResponse> {
  const tx = new Transaction();
  const [coin] = tx.splitCoins(tx.gas, [amount]);
  tx.transferObjects([coin!], to);
  return from.execute(tx, { gasBudget: MOVE_BUDGET });
}

/** The Move abort code of a failed move, or "success". */
export function outcomeOf(response: SuiTransactionBlockResponse): string {
  const status = response.effects?.status;
  if (status?.status === "success") return "success";
  const code = /MoveAbort\(.*, (\d+)\) in command \d+/.exec(status?.error ?? "")?.[1];
  return code === undefined ? (status?.error ?? "no effects") : `abort ${code}`;
}
