/** Validates a CreateOrderRequest against the configured assets, chains and solvers (400 on any fault). */
import { randomBytes } from "node:crypto";
import type { ServiceChain } from "../chains/service-chain.js";
import type { LocalServiceSolverConfig } from "../config.js";
import { chainOf, type ServiceContext } from "../context.js";
import { badRequest } from "../errors.js";
import { solverAddressOn, type ResolvedAsset } from "../registry.js";
import { parseAmount, parseBps, parseHex64, requireObject, requireString } from "../validate.js";

export interface PlannedSide {
  asset: ResolvedAsset;
  chain: ServiceChain;
  /** The user's address on this side, in record form. */
  owner: string;
  amount: bigint;
  /** The solver's address on this side, in record form. */
  solverAddress: string;
}

export interface OrderPlan {
  source: PlannedSide;
  destination: PlannedSide;
  solver: LocalServiceSolverConfig;
  nonce: string;
  /** Set when the client keeps the secret and redeems itself. */
  clientSecretHash: string | null;
}

const DIGITS = /^[0-9]+$/;

export function parseOrderRequest(ctx: ServiceContext, body: unknown): OrderPlan {
  const request = requireObject(body, "request body");
  const solverId = requireString(request, "solver_id", "solver_id");
  const solver = ctx.registry.solver(solverId);
  if (solver === undefined) throw badRequest(`solver_id ${solverId} is not a registered solver`);
  const source = parseSide(ctx, request.source, "source", solver);
  const destination = parseSide(ctx, request.destination, "destination", solver);
  if (source.asset.id === destination.asset.id) {
    throw badRequest(`source.asset and destination.asset are both ${source.asset.id}`);
  }
  checkLimits(source);
  const clientSecretHash =
    request.secret_hash === undefined ? null : parseHex64(request.secret_hash, "secret_hash");
  if (request.slippage !== undefined) parseBps(request.slippage, "slippage");
  return { source, destination, solver, nonce: parseNonce(request.nonce), clientSecretHash };
}

function parseSide(
  ctx: ServiceContext,
  value: unknown,
  field: "source" | "destination",
  solver: LocalServiceSolverConfig,
): PlannedSide {
  const side = requireObject(value, field);
  const assetId = requireString(side, "asset", `${field}.asset`);
  const asset = ctx.registry.asset(assetId);
  if (asset === undefined) throw badRequest(`${field}.asset ${assetId} is not a supported asset`);
  const chain = chainOf(ctx, asset.chain.name);
  const owner = requireString(side, "owner", `${field}.owner`);
  if (!chain.isValidAddress(owner)) {
    throw badRequest(`${field}.owner ${owner} is not a valid ${asset.chain.family} address`);
  }
  const amount = parseAmount(side.amount, `${field}.amount`);
  const solverAddress = solverAddressOn(solver, asset.chain);
  if (solverAddress === undefined || !chain.isValidAddress(solverAddress)) {
    throw badRequest(
      `solver ${solver.id} has no ${asset.chain.family} address for ${field} chain ${chain.config.name}`,
    );
  }
  if (chain.addressKey(owner) === chain.addressKey(solverAddress)) {
    throw badRequest(`${field}.owner ${owner} is the solver's own address`);
  }
  return {
    asset,
    chain,
    owner: chain.normalizeAddress(owner),
    amount,
    solverAddress: chain.normalizeAddress(solverAddress),
  };
}

function checkLimits(source: PlannedSide): void {
  const { minAmount, maxAmount } = source.asset.config;
  if (source.amount < BigInt(minAmount)) {
    throw badRequest(
      `source.amount ${source.amount} is below the minimum ${minAmount} of ${source.asset.id}`,
    );
  }
  if (source.amount > BigInt(maxAmount)) {
    throw badRequest(
      `source.amount ${source.amount} is above the maximum ${maxAmount} of ${source.asset.id}`,
    );
  }
}

function parseNonce(value: unknown): string {
  if (value === undefined) return BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
  if (typeof value !== "string" || !DIGITS.test(value)) {
    throw badRequest(`nonce must be a numeric string, got ${JSON.stringify(value)}`);
  }
  return value;
}
