import { createHash, randomBytes } from "node:crypto";
import { hash } from "starknet";
import {
  startLocalStarknet,
  type LocalStarknet,
  type OrderIdLayout,
} from "../../../../src/families/starknet/chain/index.js";
import {
  LocalStarknetAccount,
  StarknetNodeError,
  type Receipt,
  type SendOptions,
  type StarknetCall,
} from "../../../../src/families/starknet/chain/local-account.js";

export const STRK_UNIT = 10n ** 18n;

/** Bounds that cover the modelled gas of small transactions at the default prices (no estimate needed). */
export const FIXED_BOUNDS = {
  l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 14n },
  l2Gas: { maxAmount: 5_000_000n, maxPricePerUnit: 10n ** 10n },
  l1DataGas: { maxAmount: 1_000n, maxPricePerUnit: 10n ** 7n },
};

export interface Party {
  account: LocalStarknetAccount;
  address: string;
}

export interface Setup {
  sn: LocalStarknet;
  token: string;
  htlc: string;
  alice: Party;
  bob: Party;
}

export async function startSetup(layout: OrderIdLayout = "deployed"): Promise<Setup> {
  const sn = await startLocalStarknet({ blockMs: 0, l1AcceptDepth: 3 });
  const token = sn.deployErc20({ symbol: "WBTC", decimals: 8 });
  const htlc = sn.deployHtlc({ token, layout });
  const party = (): Party => {
    const keys = sn.createAccount();
    sn.mint(sn.feeToken, keys.address, 100n * STRK_UNIT);
    return {
      account: new LocalStarknetAccount(sn.url, BigInt(keys.address), keys.privateKey),
      address: keys.address,
    };
  };
  return { sn, token, htlc, alice: party(), bob: party() };
}

/** Sends, makes the block, and returns the receipt. */
export async function mined(
  sn: LocalStarknet,
  from: Party,
  calls: StarknetCall[],
  options?: SendOptions,
): Promise<Receipt> {
  const sent = await from.account.send(calls, options);
  sn.mineBlock();
  return from.account.waitFor(sent);
}

export async function rpcError(promise: Promise<unknown>): Promise<StarknetNodeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StarknetNodeError) return error;
    throw error;
  }
  throw new Error("expected the node to refuse");
}

export function secretPair(): { secret: Uint8Array; words: bigint[]; hashWords: bigint[] } {
  const secret = randomBytes(32);
  const digest = createHash("sha256").update(secret).digest();
  const split = (bytes: Uint8Array) =>
    Array.from({ length: 8 }, (_, i) =>
      BigInt(`0x${Buffer.from(bytes.subarray(i * 4, i * 4 + 4)).toString("hex")}`),
    );
  return { secret, words: split(secret), hashWords: split(digest) };
}

export const selector = (name: string) => BigInt(hash.getSelectorFromName(name));

/** The order id as the Cairo sources define it, written out here on its own (not the chain's code). */
export function expectedOrderId(
  layout: OrderIdLayout,
  chainId: bigint,
  initiator: string,
  redeemer: string,
  timelock: bigint,
  amount: bigint,
  hashWords: bigint[],
  htlc: string,
): bigint {
  const low = amount & (2n ** 128n - 1n);
  const high = amount >> 128n;
  const elements =
    layout === "deployed"
      ? [chainId, BigInt(initiator), BigInt(redeemer), timelock, low, high, ...hashWords]
      : [chainId, ...hashWords, BigInt(initiator), BigInt(redeemer), timelock, low, high, BigInt(htlc)];
  return BigInt(hash.computePoseidonHashOnElements(elements));
}

export function fee(receipt: Receipt): bigint {
  return BigInt(receipt.actual_fee.amount);
}

export function initiateCall(
  htlc: string,
  redeemer: string,
  timelock: bigint,
  amount: bigint,
  hashWords: bigint[],
): StarknetCall {
  return { to: htlc, entrypoint: "initiate", calldata: [redeemer, timelock, amount, 0n, ...hashWords] };
}

export function approveCall(token: string, spender: string, amount: bigint): StarknetCall {
  return { to: token, entrypoint: "approve", calldata: [spender, amount, 0n] };
}
