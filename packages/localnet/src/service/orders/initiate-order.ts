/**
 * `?action=initiate`: the user's signature (EIP-712 on EVM, SNIP-12 on Starknet) authorises the source
 * HTLC; the service checks it and relays the HTLC's initiate by signature, paying the fee. One relay at a time per order; a relay that failed
 * on chain may be retried with a new request.
 */
import type { InitiateRequest, Order } from "htlc-solver/orderbook/types.js";
import { RelayRejectedError } from "../chains/relay-error.js";
import type { ServiceChain, SignedInitiate } from "../chains/service-chain.js";
import { chainOf, type ServiceContext } from "../context.js";
import { familyOfAsset } from "../../families/registry.js";
import { badGateway, badRequest, conflict, errorMessage, notFound } from "../errors.js";
import { requireObject } from "../validate.js";

const INITIABLE = new Set(["Created", "InitiateDetected"]);

export async function initiateOrder(ctx: ServiceContext, orderId: string, body: unknown): Promise<string> {
  const order = ctx.orders.get(orderId)?.order;
  if (order === undefined) throw notFound(`unknown order ${orderId}`);
  const request = requireObject(body, "request body") as Partial<InitiateRequest>;
  if (request.signature === undefined) throw badRequest("signature is required");
  const chain = chainOf(ctx, order.source_swap.chain);
  const signer = signerFor(ctx, order, chain);
  const read = signer.signatureOf(request.signature);
  if ("problem" in read) throw badRequest(read.problem);
  const { signature } = read;

  if (ctx.initiating.has(orderId))
    throw conflict(`an initiate of order ${orderId} is being relayed right now`);
  ctx.initiating.add(orderId);
  try {
    checkInitiable(ctx, order);
    await checkEarlierRelay(ctx, orderId, chain);
    if (await chain.isInitiated(order.source_swap)) {
      throw conflict(`order ${orderId} is already initiated on chain ${chain.config.name}`);
    }
    const problem = await signer.verify(order.source_swap, signature);
    if (problem !== null) throw badRequest(problem);
    const txHash = await relay(signer, order, signature);
    ctx.relays.record(orderId, "initiate", chain.config.name, txHash, ctx.now());
    ctx.logger.info({ orderId, txHash }, "initiate relayed");
    return txHash;
  } finally {
    ctx.initiating.delete(orderId);
  }
}

function signerFor(ctx: ServiceContext, order: Order, chain: ServiceChain): SignedInitiate {
  const asset = ctx.registry.asset(order.source_swap.asset);
  if (asset?.native === true && familyOfAsset(asset).nativeSourceInitiatedByUser) {
    throw conflict(
      `order ${order.order_id} has a native-coin source (${order.source_swap.asset}): ` +
        "the user calls NativeHTLC.initiate itself",
    );
  }
  if (chain.signedInitiate === null) {
    throw conflict(`chain ${chain.config.name} does not take initiates by signature`);
  }
  return chain.signedInitiate;
}

function checkInitiable(ctx: ServiceContext, order: Order): void {
  if (order.source_swap.initiate_tx_hash !== "") {
    throw conflict(`order ${order.order_id} is already initiated (tx ${order.source_swap.initiate_tx_hash})`);
  }
  const deadlineMs = order.additional_data.deadline * 1000;
  if (ctx.now() > deadlineMs || order.status === "Expired") {
    throw conflict(`order ${order.order_id} is past its deadline ${new Date(deadlineMs).toISOString()}`);
  }
  if (!INITIABLE.has(order.status)) {
    throw conflict(`order ${order.order_id} is ${order.status} and can no longer be initiated`);
  }
}

async function checkEarlierRelay(ctx: ServiceContext, orderId: string, chain: ServiceChain): Promise<void> {
  const earlier = ctx.relays.latest(orderId, "initiate");
  if (earlier === undefined || earlier.state === "failed") return;
  if (earlier.state === "success") {
    throw conflict(`order ${orderId} is already initiated by relayed tx ${earlier.txHash}`);
  }
  const outcome = await chain.txOutcome(earlier.txHash);
  if (outcome === "pending")
    throw conflict(`the initiate of order ${orderId} is pending in tx ${earlier.txHash}`);
  if (outcome === "success") {
    ctx.relays.setState(earlier.id, "success");
    throw conflict(`order ${orderId} is already initiated by relayed tx ${earlier.txHash}`);
  }
  ctx.relays.setState(earlier.id, "failed", `transaction ${outcome}`);
}

async function relay(signer: SignedInitiate, order: Order, signature: string): Promise<string> {
  try {
    return await signer.relay(order.source_swap, signature);
  } catch (error) {
    if (error instanceof RelayRejectedError) throw conflict(error.message);
    throw badGateway(`relaying the initiate of order ${order.order_id} failed: ${errorMessage(error)}`);
  }
}
