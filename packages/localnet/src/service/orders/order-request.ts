/** Validates a CreateOrderRequest against the configured assets, chains and solvers (400 on any fault). */
import { randomBytes } from "node:crypto";
import type { ServiceChain } from "../chains/service-chain.js";
import type { LocalServiceSolverConfig } from "../config.js";
import { chainOf, type ServiceContext } from "../context.js";
import { familyOfAsset, familyOfChain } from "../../families/registry.js";
import { badRequest } from "../errors.js";
import { type ResolvedAsset } from "../registry.js";
import { parseAmount, parseBps, parseHex64, requireObject, requireString } from "../validate.js";

export interface PlannedSide {
  asset: ResolvedAsset;
  chain: ServiceChain;
  /** The user's address on this side, in record form; "" for a Bitcoin source given without one. */
  owner: string;
  amount: bigint;
  /** The solver's party on this side in record form (EVM address, Bitcoin x-only key). */
  solverAddress: string;
  /** Bitcoin: the user's x-only key in the HTLC (see SwapTerms.delegate); null on EVM. */
  delegate: string | null;
  /** Bitcoin: the private key (hex) of `delegate` when the service made it; never leaves the service. */
  delegateKey: string | null;
}

export interface OrderPlan {
  source: PlannedSide;
  destination: PlannedSide;
  solver: LocalServiceSolverConfig;
  nonce: string;
  /** Set when the client keeps the secret and redeems itself. */
  clientSecretHash: string | null;
  /** Basis points below `destination.amount` the user accepts if the solver's live quote moved. */
  slippageBps: number;
}

const DIGITS = /^[0-9]+$/;

export function parseOrderRequest(ctx: ServiceContext, body: unknown): OrderPlan {
  const request = requireObject(body, "request body");
  const solverId = requireString(request, "solver_id", "solver_id");
  const solver = ctx.registry.solver(solverId);
  if (solver === undefined) throw badRequest(`solver_id ${solverId} is not a registered solver`);
  const parsedSource = parseSide(ctx, request.source, "source", solver);
  const parsedDestination = parseSide(ctx, request.destination, "destination", solver);
  if (parsedSource.asset.id === parsedDestination.asset.id) {
    throw badRequest(`source.asset and destination.asset are both ${parsedSource.asset.id}`);
  }
  checkLimits(parsedSource);
  const clientSecretHash =
    request.secret_hash === undefined ? null : parseHex64(request.secret_hash, "secret_hash");
  const slippageBps = request.slippage === undefined ? 0 : parseBps(request.slippage, "slippage");
  const source = familyOfAsset(parsedSource.asset).withDelegate(
    request,
    parsedSource,
    "source",
    clientSecretHash,
  );
  const destination = familyOfAsset(parsedDestination.asset).withDelegate(
    request,
    parsedDestination,
    "destination",
    clientSecretHash,
  );
  return {
    source,
    destination,
    solver,
    nonce: parseNonce(request.nonce),
    clientSecretHash,
    slippageBps,
  };
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
  const owner = parseOwner(side, field, chain);
  const amount = parseAmount(side.amount, `${field}.amount`);
  const solverAddress = familyOfChain(asset.chain).solverAddress(solver);
  const solverParty = solverAddress === undefined ? null : chain.solverParty(solverAddress);
  if (solverParty === null) {
    throw badRequest(
      `solver ${solver.id} has no ${asset.chain.family} address for ${field} chain ${chain.config.name}`,
    );
  }
  if (owner !== "" && chain.addressKey(owner) === chain.addressKey(solverParty)) {
    throw badRequest(`${field}.owner ${owner} is the solver's own address`);
  }
  return {
    asset,
    chain,
    owner: owner === "" ? "" : chain.normalizeAddress(owner),
    amount,
    solverAddress: solverParty,
    delegate: null,
    delegateKey: null,
  };
}

/** The owner address; a deposit-address source (Bitcoin) may leave it out (a refund address can come later). */
function parseOwner(
  side: Record<string, unknown>,
  field: "source" | "destination",
  chain: ServiceChain,
): string {
  const optional = field === "source" && familyOfChain(chain.config).sourceOwnerOptional;
  if (optional && (side.owner === undefined || side.owner === "")) return "";
  const owner = requireString(side, "owner", `${field}.owner`);
  if (!chain.isValidAddress(owner)) {
    throw badRequest(`${field}.owner ${owner} is not a valid ${chain.config.family} address`);
  }
  return owner;
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
