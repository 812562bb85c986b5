/**
 * What a user who wants the solver's inventory does on the local Starknet chain: initiate an order's
 * terms in the solver's name (`initiate_on_behalf`, funded by the user), lock terms at a second HTLC of
 * the same token that no configured chain names, send tokens straight to an HTLC, replay a signature the
 * solver published, try to initiate a closed order id again, and hold the chain's blocks. Every move is a
 * transaction of the user's own account, paid in STRK, whose receipt is returned whatever its outcome, so
 * a test can charge its fee to the user.
 */
import { hash } from "starknet";
import { feltHex, secretHashWords, u256Felts } from "../../../src/chains/starknet/felt.js";
import {
  approveCall,
  decodeExecuteCalldata,
  initiateCall,
  instantRefundCall,
  refundCall,
  transferCall,
  type ContractCall,
} from "../../../src/chains/starknet/htlc-calls.js";
import { computeStarknetSwapId } from "../../../src/chains/starknet/order-id.js";
import { starknetRpc, type Receipt } from "@htlc-solver/localnet/families/starknet/chain/local-account.js";
import { initiateTermsOf } from "@htlc-solver/localnet/families/starknet/starknet-calls.js";
import type { LocalUser } from "@htlc-solver/localnet/user.js";
import type { SolverConfig } from "../../../src/config/types.js";
import type { Order, SwapRecord } from "../../../src/orderbook/types.js";
import { waitFor, type TestLocalnet } from "../../support/localnet.js";
import { journaled, type AttackNet } from "./attack-net.js";

/** The HTLC and token of a Starknet swap record's asset on the localnet. */
export function starknetAssetOf(t: TestLocalnet, swap: SwapRecord): { htlc: string; token: string } {
  const asset = t.net.descriptor.starknet.assets.find((a) => a.id === swap.asset);
  if (asset === undefined) throw new Error(`${swap.asset} is not a Starknet asset of the localnet`);
  return { htlc: asset.htlcAddress, token: asset.tokenAddress };
}

/**
 * Bounds well above what any move here uses at the local chain's prices, and far below a user's STRK: the
 * estimate refuses a call that would revert, and a move that is meant to revert must still be included.
 */
const MOVE_BOUNDS = {
  l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 15n },
  l2Gas: { maxAmount: 10n ** 8n, maxPricePerUnit: 10n ** 11n },
  l1DataGas: { maxAmount: 10n ** 4n, maxPricePerUnit: 10n ** 12n },
};

/** Sends the calls from the user's account and waits for their block; the receipt, reverted or not. */
export function userSends(user: LocalUser, calls: readonly ContractCall[]): Promise<Receipt> {
  return user.starknet.local.execute(calls, { resourceBounds: MOVE_BOUNDS });
}

/** The receipt of a transaction that must have succeeded; throws with its revert reason otherwise. */
export function succeeded(receipt: Receipt): Receipt {
  if (receipt.execution_status !== "SUCCEEDED")
    throw new Error(`transaction ${receipt.transaction_hash} reverted: ${receipt.revert_reason ?? ""}`);
  return receipt;
}

/**
 * `initiate_on_behalf(initiator, redeemer, timelock, amount, secret_hash)` of a record's terms with the
 * user as funder (approved in the same transaction): the stored order names `initiator`, the tokens are
 * the user's.
 */
export function initiateOnBehalf(
  t: TestLocalnet,
  user: LocalUser,
  swap: SwapRecord,
  initiator: string,
): Promise<Receipt> {
  const { htlc, token } = starknetAssetOf(t, swap);
  const terms = initiateTermsOf(swap);
  return userSends(user, [
    approveCall(token, htlc, terms.amount),
    {
      to: htlc,
      entrypoint: "initiate_on_behalf",
      calldata: [
        BigInt(initiator),
        BigInt(terms.redeemer),
        terms.timelock,
        ...u256Felts(terms.amount),
        ...secretHashWords(terms.secretHash),
      ],
    },
  ]);
}

/** The user approves `htlc` (the configured one by default) and initiates a record's terms there. */
export function initiateAt(
  t: TestLocalnet,
  user: LocalUser,
  swap: SwapRecord,
  htlc = starknetAssetOf(t, swap).htlc,
): Promise<Receipt> {
  const { token } = starknetAssetOf(t, swap);
  const terms = initiateTermsOf(swap);
  return userSends(user, [approveCall(token, htlc, terms.amount), initiateCall(htlc, terms)]);
}

/**
 * Places another HTLC of a record's token, of the chain's order-id layout: the same contract, at an
 * address no configured chain names.
 */
export function secondHtlc(t: TestLocalnet, swap: SwapRecord): string {
  const { token } = starknetAssetOf(t, swap);
  return t.net.starknet.local.deployHtlc({ token, layout: t.net.descriptor.starknet.orderIdLayout });
}

/** Tokens of a record's asset sent straight to its HTLC, past every entry point. */
export function transferToHtlc(
  t: TestLocalnet,
  user: LocalUser,
  swap: SwapRecord,
  amount: bigint,
): Promise<Receipt> {
  const { htlc, token } = starknetAssetOf(t, swap);
  return userSends(user, [transferCall(token, htlc, amount)]);
}

/** `refund(order_id)` of a record's id at `htlc`; anyone may send it once the order expired. */
export function refundAt(user: LocalUser, htlc: string, swap: SwapRecord): Promise<Receipt> {
  return userSends(user, [refundCall(htlc, BigInt(`0x${swap.swap_id}`))]);
}

/** `instant_refund(order_id, signature)` of an order id (as the service prints it) at `htlc`. */
export function instantRefundAt(
  user: LocalUser,
  htlc: string,
  swapId: string,
  signature: readonly bigint[],
): Promise<Receipt> {
  return userSends(user, [instantRefundCall(htlc, BigInt(`0x${swapId}`), signature)]);
}

/** The order id a record's terms have at `htlc`, in the chain's layout, as the service prints it. */
export function swapIdAt(t: TestLocalnet, swap: SwapRecord, htlc: string): string {
  const chain = t.net.descriptor.starknet;
  return computeStarknetSwapId({
    layout: chain.orderIdLayout,
    chainId: chain.chainId,
    initiator: swap.initiator,
    redeemer: swap.redeemer,
    timelock: BigInt(swap.timelock),
    amount: BigInt(swap.amount),
    secretHash: swap.secret_hash,
    htlc,
  });
}

const INSTANT_REFUND = BigInt(hash.getSelectorFromName("instant_refund"));

/**
 * The redeemer's signature an `instant_refund` transaction carried, read back from the chain as anyone
 * can: the transaction's `__execute__` calldata, its `instant_refund` call's `Array<felt>`.
 */
export async function publishedInstantRefundSignature(t: TestLocalnet, txHash: string): Promise<bigint[]> {
  const tx = await starknetRpc<{ calldata: string[] }>(
    t.net.starknet.rpcUrl,
    "starknet_getTransactionByHash",
    [txHash],
  );
  const call = decodeExecuteCalldata(tx.calldata.map((felt) => BigInt(felt))).find(
    (c) => c.selector === INSTANT_REFUND,
  );
  const length = call?.calldata[1];
  if (call === undefined || length === undefined)
    throw new Error(`transaction ${txHash} makes no instant_refund call`);
  return call.calldata.slice(2, 2 + Number(length));
}

/**
 * Makes blocks until the chain is past `block`, on top of the interval's: a lock initiated at
 * `initiated_at` with `timelock` can be refunded once the chain is past `initiated_at + timelock`.
 */
export async function mineUntilPast(t: TestLocalnet, block: bigint): Promise<void> {
  const local = t.net.starknet.local;
  const height = () => local.chain.latest().number;
  if (height() <= block) local.mineBlock(Number(block - height()) + 1);
  await waitFor(() => height() > block, `the Starknet chain past block ${block}`);
}

/** The block a stored order was initiated in (`get_order`'s `initiated_at`), from the chain. */
export async function initiatedAt(t: TestLocalnet, htlc: string, swap: SwapRecord): Promise<bigint> {
  const felts = await starknetRpc<string[]>(t.net.starknet.rpcUrl, "starknet_call", [
    {
      contract_address: htlc,
      entry_point_selector: hash.getSelectorFromName("get_order"),
      calldata: [feltHex(BigInt(`0x${swap.swap_id}`))],
    },
    "latest",
  ]);
  const at = felts[3];
  if (at === undefined || BigInt(at) === 0n) throw new Error(`no order ${swap.swap_id} at ${htlc}`);
  return BigInt(at);
}

/** The fee (FRI) a receipt was charged. */
export function feeOfReceipt(receipt: Receipt): bigint {
  if (receipt.actual_fee.unit !== "FRI")
    throw new Error(`transaction ${receipt.transaction_hash} paid in ${receipt.actual_fee.unit}`);
  return BigInt(receipt.actual_fee.amount);
}

/** Confirmations the solver requires of a Starknet source on the nets of these moves, above the service's one. */
export const STARKNET_SOURCE_DEPTH = 3;

/** The solver's config with Starknet sources needing STARKNET_SOURCE_DEPTH confirmations. */
export function deeperStarknetSources(config: SolverConfig): SolverConfig {
  return {
    ...config,
    chains: config.chains.map((c) =>
      c.family === "starknet" ? { ...c, minConfirmations: STARKNET_SOURCE_DEPTH } : c,
    ),
  };
}

/**
 * The user locks a Starknet source (blocks held, the lock's block made on demand) and, while the lock is
 * short of the solver's depth (`deeperStarknetSources`), the service starts saying the order's deadline
 * has passed: the solver refuses the source and gives the lock back at once with its own
 * `instant_refund`. Said before the lock landed, the solver would leave the order as settled with
 * nothing to give back. The service tells the truth again once the refund landed. Returns the user's
 * lock and the solver's instant refund transactions.
 */
export async function declineStarknetSource(
  t: AttackNet,
  user: LocalUser,
  o: Order,
): Promise<{ lock: string; refundTx: string }> {
  const local = t.net.starknet.local;
  local.pause();
  let locking: Promise<string>;
  try {
    locking = user.initiateStarknet(o);
    const sender = BigInt(user.starknet.address);
    await waitFor(() => local.chain.mempool.waitingOf(sender).length > 0, "the lock to wait for a block");
    local.mineBlock();
    t.proxy.lieAbout(o.order_id, (lied) => {
      lied.additional_data.deadline = Math.floor(Date.now() / 1000) - 60;
    });
  } finally {
    local.resume();
  }
  const lock = await locking;
  await waitFor(() => journaled(t, o).includes("instant_refund:confirmed"), "the instant refund", 60_000);
  t.proxy.stopLying(o.order_id);
  const journal = t.net.solver!.journal;
  const verdict = journal.decisions(o.order_id).find((d) => d.reason === "deadline_passed");
  if (verdict?.outcome !== "refuse") throw new Error(`order ${o.order_id} was not refused for its deadline`);
  const action = journal.orderActions(o.order_id).find((a) => a.kind === "instant_refund")!;
  const landed = journal.attemptsOfAction(action.id).find((a) => a.state === "confirmed")!;
  return { lock, refundTx: landed.txHash };
}
