import { randomBytes } from "node:crypto";
import type { SuiTransactionBlockResponse } from "@mysten/sui/client";
import { expect } from "vitest";
import {
  LocalSuiAccount,
  orderIdOf,
  startLocalSui,
  SuiNodeError,
  type LocalSui,
} from "../../../../src/families/sui/chain/index.js";
import type { RegistryRef } from "../../../../src/families/sui/chain/local-sui-account.js";
import { sha256 } from "../../../../src/families/sui/chain/bytes.js";

export const SUI = "0x2::sui::SUI";
export const ONE_SUI = 1_000_000_000n;
export const HOUR_MS = 3_600_000n;

export interface Setup {
  sui: LocalSui;
  registry: RegistryRef;
  alice: LocalSuiAccount;
  bob: LocalSuiAccount;
  carol: LocalSuiAccount;
}

export async function startSetup(): Promise<Setup> {
  const sui = await startLocalSui({ checkpointMs: 0 });
  const account = () => {
    const keys = sui.createAccount();
    sui.mintSui(keys.address, 10n * ONE_SUI);
    return new LocalSuiAccount(sui.url, keys.secretKey, sui.packageId);
  };
  return { sui, registry: sui.createRegistry(SUI), alice: account(), bob: account(), carol: account() };
}

/** What the gas coin paid: computation + storage − rebate. */
export function gasPaid(response: SuiTransactionBlockResponse): bigint {
  const used = response.effects!.gasUsed;
  return BigInt(used.computationCost) + BigInt(used.storageCost) - BigInt(used.storageRebate);
}

export function statusOf(response: SuiTransactionBlockResponse): string {
  const { status } = response.effects!;
  return status.status === "success" ? "success" : (status.error ?? "failure");
}

/** The Move abort code of a failed transaction, read as a reader would. */
export function abortCode(response: SuiTransactionBlockResponse): number | undefined {
  const match = /MoveAbort\(.*, (\d+)\) in command \d+$/.exec(statusOf(response));
  return match === null ? undefined : Number(match[1]);
}

export async function rpcError(promise: Promise<unknown>): Promise<SuiNodeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SuiNodeError);
  return error as SuiNodeError;
}

export interface Swap {
  secret: Uint8Array;
  secretHash: Uint8Array;
  orderId: Uint8Array;
  amount: bigint;
  timelockMs: bigint;
}

/** Alice funds an order of `amount` SUI for Bob (the redeemer) and herself as initiator. */
export async function initiated(
  s: Setup,
  amount = ONE_SUI,
  timelockMs = HOUR_MS,
): Promise<{ swap: Swap; response: SuiTransactionBlockResponse }> {
  const secret = new Uint8Array(randomBytes(32));
  const secretHash = sha256(secret);
  const response = await s.alice.initiate({
    registry: s.registry,
    coinType: SUI,
    redeemer: s.bob.address,
    secretHash,
    amount,
    timelockMs,
  });
  expect(statusOf(response)).toBe("success");
  const orderId = orderIdOf({
    secretHash,
    initiator: s.alice.address,
    redeemer: s.bob.address,
    timelock: timelockMs,
    amount,
    registry: s.registry.registryId,
  });
  return { swap: { secret, secretHash, orderId, amount, timelockMs }, response };
}
