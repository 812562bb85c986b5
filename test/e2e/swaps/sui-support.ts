/**
 * Shared reads of the Sui swap tests on the localnet, taken from the local chain itself (its state and
 * its JSON-RPC), not through the solver's Sui code: balances, the gas a transaction was charged (from its
 * effects), and the AtomicSwap events of an order id.
 */
import type { SwapRecord } from "../../../src/orderbook/types.js";
import type { TestLocalnet } from "../../support/localnet.js";

export const SUI = "sui_localnet:sui";

function asset(t: TestLocalnet, assetId: string) {
  const found = t.net.descriptor.sui.assets.find((a) => a.id === assetId);
  if (found === undefined) throw new Error(`${assetId} is not a Sui asset of the localnet`);
  return found;
}

/** MIST (or a coin's units) the account holds, as the chain's state shows them. */
export function suiBalance(t: TestLocalnet, assetId: string, owner: string): bigint {
  return t.net.sui.local.balanceOf(asset(t, assetId).coinType, owner);
}

export const solverSui = (t: TestLocalnet) => suiBalance(t, SUI, t.net.descriptor.solver.suiAddress);

let requestId = 0;

async function suiRpc<T>(t: TestLocalnet, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(t.net.sui.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++requestId, method, params }),
  });
  const reply = (await response.json()) as { result?: T; error?: { message: string } };
  if (reply.error !== undefined) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

interface GasUsed {
  computationCost: string;
  storageCost: string;
  storageRebate: string;
}

/** What the transaction took from its gas coin: computation plus storage less the rebate (may be negative). */
export async function suiGas(t: TestLocalnet, digest: string): Promise<bigint> {
  const tx = await suiRpc<{ effects: { gasUsed: GasUsed; status: { status: string } } }>(
    t,
    "sui_getTransactionBlock",
    [digest, { showEffects: true }],
  );
  const gas = tx.effects.gasUsed;
  return BigInt(gas.computationCost) + BigInt(gas.storageCost) - BigInt(gas.storageRebate);
}

/** The gas of the solver's landed Sui attempt of an order's action. */
export async function suiGasOfAction(t: TestLocalnet, orderId: string, kind: string): Promise<bigint> {
  const journal = t.net.solver!.journal;
  const action = journal.orderActions(orderId).find((a) => a.kind === kind);
  const landed = action && journal.attemptsOfAction(action.id).find((a) => a.state === "confirmed");
  if (landed === undefined) throw new Error(`no landed ${kind} of order ${orderId}`);
  return suiGas(t, landed.txHash);
}

interface EventsPage {
  data: { id: { txDigest: string }; type: string; parsedJson: { order_id: number[] } }[];
  nextCursor: unknown;
  hasNextPage: boolean;
}

/** Every AtomicSwap event under the swap's order id, in chain order, with the transaction that emitted it. */
export async function suiSwapEvents(
  t: TestLocalnet,
  swap: SwapRecord,
): Promise<{ name: string; txDigest: string }[]> {
  const { packageId } = t.net.descriptor.sui;
  const events: { name: string; txDigest: string }[] = [];
  let cursor: unknown = null;
  for (;;) {
    const page = await suiRpc<EventsPage>(t, "suix_queryEvents", [
      { MoveEventModule: { package: packageId, module: "AtomicSwap" } },
      cursor,
      50,
      false,
    ]);
    for (const event of page.data) {
      if (Buffer.from(event.parsedJson.order_id).toString("hex") !== swap.swap_id) continue;
      events.push({ name: event.type.split("::").pop()!, txDigest: event.id.txDigest });
    }
    if (!page.hasNextPage) return events;
    cursor = page.nextCursor;
  }
}
