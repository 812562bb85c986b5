/**
 * How the fault proxy plays a node stuck at an older height: for each call, either an answer made up
 * here (the frozen block count), or the call to forward (with "latest" replaced by the frozen height)
 * and a fix of the node's answer (a transaction mined above the frozen height is not mined yet).
 *
 * Covered: EVM heads, blocks by number, state reads at a block tag, logs, receipts and transactions;
 * bitcoind block counts and hashes, blocks and headers, verbose transactions, `gettxout`, and
 * `scantxoutset` outputs. A stale node's mempool is not modelled: it is forwarded as it is.
 */
import { blockNumberOf, numberOf, toHex } from "./fault-proxy-json.js";

/** A call's outcome; an error keeps every field the node gave (EVM revert data among them). */
export type RpcOutcome = { result: unknown } | { error: { code: unknown; message: unknown; data?: unknown } };

export type StalePlan =
  /** Answer without asking the node. */
  | { answer: RpcOutcome }
  /** Ask the node (with these params when given), then fix its result. */
  | { params?: unknown[]; fix?: (result: unknown) => Promise<RpcOutcome> | RpcOutcome };

export interface StaleContext {
  height: number;
  /** A call to the node for the proxy's own needs: not counted, not faulted. */
  upstream: (method: string, params: unknown[]) => Promise<unknown>;
}

const LATEST_TAGS = new Set(["latest", "pending", "safe", "finalized"]);
/** EVM methods reading state at a block tag, and where the tag is. */
const TAG_POSITION: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
};

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const result = (value: unknown): RpcOutcome => ({ result: value });

/** A block reference as a height: "latest" and friends are the frozen height; null for hashes. */
function heightOf(ref: unknown, frozen: number): number | null {
  if (ref === undefined || (typeof ref === "string" && LATEST_TAGS.has(ref))) return frozen;
  if (ref === "earliest") return 0;
  return blockNumberOf(ref);
}

function evmPlan(method: string, params: unknown[], frozen: number): StalePlan | null {
  if (method === "eth_blockNumber") return { answer: result(toHex(frozen)) };
  if (method === "eth_getBlockByNumber") {
    const height = heightOf(params[0], frozen);
    if (height === null) return null;
    if (height > frozen) return { answer: result(null) };
    return { params: [toHex(height), ...params.slice(1)] };
  }
  const position = TAG_POSITION[method];
  if (position !== undefined) {
    const ref = params[position];
    if (isRec(ref)) return null; // EIP-1898 block hash: whatever the node has
    const height = heightOf(ref, frozen);
    if (height === null) return null;
    if (height > frozen) return { answer: { error: { code: -32000, message: "header not found" } } };
    const rewritten = [...params];
    while (rewritten.length < position) rewritten.push(null);
    rewritten[position] = toHex(height);
    return { params: rewritten };
  }
  if (method === "eth_getLogs" && isRec(params[0]) && params[0].blockHash === undefined) {
    const filter = params[0];
    const from = heightOf(filter.fromBlock, frozen);
    const to = heightOf(filter.toBlock, frozen);
    if (from === null || to === null) return null;
    if (from > frozen) return { answer: result([]) };
    return { params: [{ ...filter, fromBlock: toHex(from), toBlock: toHex(Math.min(to, frozen)) }] };
  }
  const minedAbove = (r: unknown) => isRec(r) && (blockNumberOf(r.blockNumber) ?? -1) > frozen;
  if (method === "eth_getTransactionReceipt") return { fix: (r) => result(minedAbove(r) ? null : r) };
  if (method === "eth_getTransactionByHash") {
    return {
      fix: (r) =>
        result(
          minedAbove(r) ? { ...(r as Rec), blockNumber: null, blockHash: null, transactionIndex: null } : r,
        ),
    };
  }
  if (method === "eth_getBlockByHash") {
    return { fix: (r) => result(isRec(r) && (blockNumberOf(r.number) ?? -1) > frozen ? null : r) };
  }
  return null;
}

/** Height of a transaction output or transaction by its confirmation count, from the node's real tip. */
async function minedHeight(confirmations: unknown, ctx: StaleContext): Promise<number | null> {
  const count = numberOf(confirmations);
  if (count === null || count <= 0) return null;
  const tip = numberOf(await ctx.upstream("getblockcount", []));
  return tip === null ? null : tip - count + 1;
}

function bitcoinPlan(method: string, params: unknown[], ctx: StaleContext): StalePlan | null {
  const frozen = ctx.height;
  const notFound = { error: { code: -5, message: "Block not found" } };
  switch (method) {
    case "getblockcount":
      return { answer: result(frozen) };
    case "getbestblockhash":
      return { fix: async () => result(await ctx.upstream("getblockhash", [frozen])) };
    case "getblockhash": {
      const height = numberOf(params[0]);
      if (height !== null && height > frozen)
        return { answer: { error: { code: -8, message: "Block height out of range" } } };
      return null;
    }
    case "getblockchaininfo":
      return {
        fix: async (r) =>
          result({
            ...(r as Rec),
            blocks: frozen,
            bestblockhash: await ctx.upstream("getblockhash", [frozen]),
          }),
      };
    case "getblock":
    case "getblockheader":
      return { fix: (r) => (isRec(r) && (numberOf(r.height) ?? -1) > frozen ? notFound : result(r)) };
    case "getrawtransaction":
      return {
        fix: async (r) => {
          if (!isRec(r) || ((await minedHeight(r.confirmations, ctx)) ?? -1) <= frozen) return result(r);
          const { blockhash: _h, confirmations: _c, blocktime: _b, time: _t, ...unmined } = r;
          return result(unmined);
        },
      };
    case "gettxout":
      return {
        fix: async (r) =>
          result(isRec(r) && ((await minedHeight(r.confirmations, ctx)) ?? -1) > frozen ? null : r),
      };
    case "scantxoutset":
      return {
        fix: (r) => {
          if (!isRec(r) || !Array.isArray(r.unspents)) return result(r);
          const unspents = r.unspents.filter((u) => isRec(u) && (numberOf(u.height) ?? 0) <= frozen);
          return result({ ...r, height: frozen, unspents });
        },
      };
    default:
      return null;
  }
}

/** What a node frozen at `ctx.height` does with this call; null when it answers like any node. */
export function stalePlan(method: string, params: unknown, ctx: StaleContext): StalePlan | null {
  const list = Array.isArray(params) ? params : [];
  return method.startsWith("eth_") ? evmPlan(method, list, ctx.height) : bitcoinPlan(method, list, ctx);
}
