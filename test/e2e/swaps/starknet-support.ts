/**
 * Shared reads of the Starknet swap tests on the localnet, taken from the local chain itself (its state
 * and its JSON-RPC), not through the solver's Starknet code: balances, what a transaction was charged,
 * and the HTLC events of an order id.
 */
import { hash } from "starknet";
import { starknetRpc } from "@htlc-solver/localnet/families/starknet/chain/local-account.js";
import type { SwapRecord } from "../../../src/orderbook/types.js";
import type { TestLocalnet } from "../../support/localnet.js";

export const STARKNET_WBTC = "starknet_localnet:wbtc";

const EVENT_NAMES = new Map(
  ["Initiated", "Redeemed", "Refunded"].map((name) => [BigInt(hash.getSelectorFromName(name)), name]),
);

function asset(t: TestLocalnet, assetId: string) {
  const found = t.net.descriptor.starknet.assets.find((a) => a.id === assetId);
  if (found === undefined) throw new Error(`${assetId} is not a Starknet asset of the localnet`);
  return found;
}

/** Token units the account holds, as the chain's state shows them. */
export function starknetBalance(t: TestLocalnet, assetId: string, owner: string): bigint {
  return t.net.starknet.local.balanceOf(asset(t, assetId).tokenAddress, owner);
}

/** STRK (FRI) the account holds. */
export function strkBalance(t: TestLocalnet, owner: string): bigint {
  return t.net.starknet.local.balanceOf(t.net.starknet.strk, owner);
}

export const solverStarknet = (t: TestLocalnet, assetId: string) =>
  starknetBalance(t, assetId, t.net.descriptor.solver.starknetAddress);
export const solverStrk = (t: TestLocalnet) => strkBalance(t, t.net.descriptor.solver.starknetAddress);

interface Receipt {
  actual_fee: { amount: string; unit: string };
  execution_status: string;
}

/** The fee (FRI) an included transaction was charged, from its receipt. */
export async function starknetFee(t: TestLocalnet, txHash: string): Promise<bigint> {
  const receipt = await starknetRpc<Receipt>(t.net.starknet.rpcUrl, "starknet_getTransactionReceipt", [
    txHash,
  ]);
  if (receipt.actual_fee.unit !== "FRI")
    throw new Error(`transaction ${txHash} paid in ${receipt.actual_fee.unit}`);
  return BigInt(receipt.actual_fee.amount);
}

/** The fee of the solver's landed Starknet attempt of an order's action, from the chain's receipt. */
export async function starknetFeeOfAction(t: TestLocalnet, orderId: string, kind: string): Promise<bigint> {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(orderId).find((a) => a.kind === kind);
  const landed = action && journal.attemptsOfAction(action.id).find((a) => a.state === "confirmed");
  if (landed === undefined) throw new Error(`no landed ${kind} of order ${orderId}`);
  return starknetFee(t, landed.txHash);
}

interface EventsPage {
  events: { from_address: string; keys: string[]; transaction_hash: string }[];
  continuation_token?: string;
}

/** Every HTLC event under the swap's order id, in chain order, with the transaction that emitted it. */
export async function starknetHtlcEvents(
  t: TestLocalnet,
  swap: SwapRecord,
): Promise<{ name: string; txHash: string }[]> {
  const htlc = asset(t, swap.asset).htlcAddress;
  const events: { name: string; txHash: string }[] = [];
  let token: string | undefined;
  do {
    const page: EventsPage = await starknetRpc<EventsPage>(t.net.starknet.rpcUrl, "starknet_getEvents", {
      filter: {
        from_block: { block_number: 0 },
        to_block: "latest",
        address: htlc,
        keys: [[], [`0x${swap.swap_id}`]],
        chunk_size: 100,
        ...(token === undefined ? {} : { continuation_token: token }),
      },
    });
    for (const event of page.events) {
      events.push({
        name: EVENT_NAMES.get(BigInt(event.keys[0]!)) ?? event.keys[0]!,
        txHash: event.transaction_hash,
      });
    }
    token = page.continuation_token;
  } while (token !== undefined);
  return events;
}
