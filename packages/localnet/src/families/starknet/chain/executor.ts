/**
 * Executing an invoke: the account's `__execute__` multicall `[n, (to, selector, len, ...calldata) × n]`,
 * each call with the account as caller, on a copy of the state. Every call succeeds or none takes effect:
 * a failing call, or gas beyond the l2/l1-data bounds, leaves only the nonce and the fee (REVERTED).
 */
import { CallRevert } from "./call-revert.js";
import { CalldataReader } from "./calldata.js";
import { Erc20Model } from "./erc20.js";
import { chargedFee, type GasPrices } from "./fees.js";
import { BASE_L1_DATA_GAS, GasMeter, type GasUsage } from "./gas.js";
import type { InvokeV3 } from "./invoke-txn.js";
import type { CallContext, EmittedEvent, World } from "./world.js";

export interface ExecutionEnvironment {
  blockNumber: bigint;
  prices: GasPrices;
  chainId: bigint;
  feeToken: bigint;
  sequencer: bigint;
}

export interface ExecutionOutcome {
  world: World;
  revertReason: string | undefined;
  events: EmittedEvent[];
  usage: GasUsage;
  fee: bigint;
}

interface DecodedCall {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

function decodeMulticall(calldata: bigint[]): DecodedCall[] {
  const reader = new CalldataReader(calldata);
  const count = reader.felt();
  if (count > BigInt(calldata.length)) throw new CallRevert("Failed to deserialize param #1");
  const calls: DecodedCall[] = [];
  for (let i = 0n; i < count; i++) {
    calls.push({ to: reader.felt(), selector: reader.felt(), calldata: reader.feltArray() });
  }
  reader.end();
  return calls;
}

function runCalls(
  world: World,
  tx: InvokeV3,
  env: ExecutionEnvironment,
  meter: GasMeter,
  events: EmittedEvent[],
) {
  const frame = {
    caller: tx.senderAddress,
    blockNumber: env.blockNumber,
    chainId: env.chainId,
    gas: meter,
    events,
  };
  for (const call of decodeMulticall(tx.calldata)) world.call(frame, call.to, call.selector, call.calldata);
}

function chargeFee(
  world: World,
  tx: InvokeV3,
  env: ExecutionEnvironment,
  fee: bigint,
  events: EmittedEvent[],
) {
  const token = world.contractAt(env.feeToken, Erc20Model);
  const ctx = {
    world,
    caller: tx.senderAddress,
    self: env.feeToken,
    blockNumber: env.blockNumber,
    chainId: env.chainId,
    gas: new GasMeter(),
    events,
    callContract: () => [],
    emit: (keys: bigint[], data: bigint[]) => events.push({ fromAddress: env.feeToken, keys, data }),
  } satisfies CallContext;
  token.move(ctx, tx.senderAddress, env.sequencer, fee);
}

/**
 * Runs the transaction. The sender was checked at submission to hold at least its maximal fee, so the
 * fee of a reverted transaction can always be charged.
 */
export function executeInvoke(state: World, tx: InvokeV3, env: ExecutionEnvironment): ExecutionOutcome {
  const base = state.clone();
  base.nonces.set(tx.senderAddress, tx.nonce + 1n);
  const attempt = base.clone();
  const meter = new GasMeter();
  const events: EmittedEvent[] = [];
  let revertReason: string | undefined;
  try {
    runCalls(attempt, tx, env, meter, events);
  } catch (error) {
    if (!(error instanceof CallRevert)) throw error;
    revertReason = error.reason;
  }
  let usage = meter.usage();
  const bounds = tx.resourceBounds;
  if (revertReason === undefined && usage.l2Gas > bounds.l2Gas.maxAmount) {
    revertReason = `Insufficient max L2Gas: max amount: ${bounds.l2Gas.maxAmount}, actual used: ${usage.l2Gas}.`;
  } else if (revertReason === undefined && usage.l1DataGas > bounds.l1DataGas.maxAmount) {
    revertReason = `Insufficient max L1DataGas: max amount: ${bounds.l1DataGas.maxAmount}, actual used: ${usage.l1DataGas}.`;
  }
  if (revertReason !== undefined) {
    // A reverted transaction writes only its nonce and fee balance, and pays at most its l2 bound.
    const l2Gas = usage.l2Gas < bounds.l2Gas.maxAmount ? usage.l2Gas : bounds.l2Gas.maxAmount;
    usage = { ...usage, l2Gas, l1DataGas: BASE_L1_DATA_GAS };
  }
  const fee = chargedFee(usage, env.prices, tx.tip);
  if (revertReason === undefined) {
    try {
      chargeFee(attempt, tx, env, fee, events);
      return { world: attempt, revertReason, events, usage, fee };
    } catch (error) {
      if (!(error instanceof CallRevert)) throw error;
      revertReason = "Insufficient fee token balance to pay the transaction's fee after execution.";
    }
  }
  const feeEvents: EmittedEvent[] = [];
  chargeFee(base, tx, env, fee, feeEvents);
  return { world: base, revertReason, events: feeEvents, usage, fee };
}
