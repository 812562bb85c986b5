/**
 * A v3 INVOKE transaction as the RPC carries it (BROADCASTED_INVOKE_TXN): parsed with a clear error per
 * bad field, hashed with starknet.js's v3 invoke hash, and written back in the RPC's shape.
 */
import { hash } from "starknet";
import { invalidParams, specError, STARKNET_RPC_CODE } from "./errors.js";
import { feltHex, parseFeltHex } from "./felt.js";

export interface ResourceBound {
  maxAmount: bigint;
  maxPricePerUnit: bigint;
}

export interface ResourceBounds {
  l1Gas: ResourceBound;
  l2Gas: ResourceBound;
  l1DataGas: ResourceBound;
}

export type DataAvailabilityMode = "L1" | "L2";

export interface InvokeV3 {
  version: bigint;
  senderAddress: bigint;
  calldata: bigint[];
  signature: bigint[];
  nonce: bigint;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: bigint[];
  accountDeploymentData: bigint[];
  nonceDataAvailabilityMode: DataAvailabilityMode;
  feeDataAvailabilityMode: DataAvailabilityMode;
}

/** Version 3 and its query variant (2^128 + 3), which only fee estimation accepts. */
export const INVOKE_V3 = 3n;
export const QUERY_OFFSET = 2n ** 128n;

function field(object: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(object, name)) throw invalidParams(`invoke transaction: missing ${name}`);
  return object[name];
}

function felt(value: unknown, what: string): bigint {
  const parsed = typeof value === "string" ? parseFeltHex(value) : undefined;
  if (parsed === undefined)
    throw invalidParams(`${what} must be a 0x-prefixed hex felt, got ${JSON.stringify(value)}`);
  return parsed;
}

function feltList(value: unknown, what: string): bigint[] {
  if (!Array.isArray(value)) throw invalidParams(`${what} must be an array of felts`);
  return value.map((item, i) => felt(item, `${what}[${i}]`));
}

function bounded(value: unknown, what: string, bits: bigint): bigint {
  const parsed = felt(value, what);
  if (parsed >= 2n ** bits) throw invalidParams(`${what} must fit in ${bits} bits`);
  return parsed;
}

function resourceBound(value: unknown, what: string): ResourceBound {
  if (typeof value !== "object" || value === null) throw invalidParams(`${what} must be an object`);
  const bound = value as Record<string, unknown>;
  return {
    maxAmount: bounded(field(bound, "max_amount"), `${what}.max_amount`, 64n),
    maxPricePerUnit: bounded(field(bound, "max_price_per_unit"), `${what}.max_price_per_unit`, 128n),
  };
}

function daMode(value: unknown, what: string): DataAvailabilityMode {
  if (value === "L1" || value === "L2") return value;
  throw invalidParams(`${what} must be "L1" or "L2"`);
}

export function parseInvokeV3(value: unknown, acceptQuery: boolean): InvokeV3 {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidParams("the invoke transaction must be an object");
  const tx = value as Record<string, unknown>;
  if (field(tx, "type") !== "INVOKE") throw invalidParams('only transactions of type "INVOKE" are accepted');
  const version = felt(field(tx, "version"), "version");
  if (version !== INVOKE_V3 && !(acceptQuery && version === QUERY_OFFSET + INVOKE_V3))
    throw specError(STARKNET_RPC_CODE.UNSUPPORTED_TX_VERSION, `version ${feltHex(version)}`);
  const bounds = field(tx, "resource_bounds");
  if (typeof bounds !== "object" || bounds === null) throw invalidParams("resource_bounds must be an object");
  const b = bounds as Record<string, unknown>;
  return {
    version,
    senderAddress: felt(field(tx, "sender_address"), "sender_address"),
    calldata: feltList(field(tx, "calldata"), "calldata"),
    signature: feltList(field(tx, "signature"), "signature"),
    nonce: felt(field(tx, "nonce"), "nonce"),
    resourceBounds: {
      l1Gas: resourceBound(field(b, "l1_gas"), "resource_bounds.l1_gas"),
      l2Gas: resourceBound(field(b, "l2_gas"), "resource_bounds.l2_gas"),
      l1DataGas: resourceBound(field(b, "l1_data_gas"), "resource_bounds.l1_data_gas"),
    },
    tip: bounded(field(tx, "tip"), "tip", 64n),
    paymasterData: feltList(field(tx, "paymaster_data"), "paymaster_data"),
    accountDeploymentData: feltList(field(tx, "account_deployment_data"), "account_deployment_data"),
    nonceDataAvailabilityMode: daMode(
      field(tx, "nonce_data_availability_mode"),
      "nonce_data_availability_mode",
    ),
    feeDataAvailabilityMode: daMode(field(tx, "fee_data_availability_mode"), "fee_data_availability_mode"),
  };
}

const DA_MODE_NUMBER = { L1: 0, L2: 1 } as const;

export function invokeHash(tx: InvokeV3, chainId: bigint): bigint {
  const bounds = tx.resourceBounds;
  return BigInt(
    hash.calculateInvokeTransactionHash({
      senderAddress: tx.senderAddress,
      version: feltHex(tx.version) as "0x3",
      compiledCalldata: tx.calldata.map(feltHex),
      chainId: feltHex(chainId) as `0x${string}` as never,
      nonce: tx.nonce,
      accountDeploymentData: tx.accountDeploymentData,
      nonceDataAvailabilityMode: DA_MODE_NUMBER[tx.nonceDataAvailabilityMode] as never,
      feeDataAvailabilityMode: DA_MODE_NUMBER[tx.feeDataAvailabilityMode] as never,
      resourceBounds: {
        l1_gas: { max_amount: bounds.l1Gas.maxAmount, max_price_per_unit: bounds.l1Gas.maxPricePerUnit },
        l2_gas: { max_amount: bounds.l2Gas.maxAmount, max_price_per_unit: bounds.l2Gas.maxPricePerUnit },
        l1_data_gas: {
          max_amount: bounds.l1DataGas.maxAmount,
          max_price_per_unit: bounds.l1DataGas.maxPricePerUnit,
        },
      },
      tip: tx.tip,
      paymasterData: tx.paymasterData,
    }),
  );
}

function boundJson(bound: ResourceBound) {
  return { max_amount: feltHex(bound.maxAmount), max_price_per_unit: feltHex(bound.maxPricePerUnit) };
}

/** The INVOKE_TXN_V3 the RPC returns (getTransactionByHash), with its hash. */
export function invokeJson(tx: InvokeV3, transactionHash: bigint) {
  return {
    transaction_hash: feltHex(transactionHash),
    type: "INVOKE",
    version: feltHex(tx.version),
    sender_address: feltHex(tx.senderAddress),
    calldata: tx.calldata.map(feltHex),
    signature: tx.signature.map(feltHex),
    nonce: feltHex(tx.nonce),
    resource_bounds: {
      l1_gas: boundJson(tx.resourceBounds.l1Gas),
      l2_gas: boundJson(tx.resourceBounds.l2Gas),
      l1_data_gas: boundJson(tx.resourceBounds.l1DataGas),
    },
    tip: feltHex(tx.tip),
    paymaster_data: tx.paymasterData.map(feltHex),
    account_deployment_data: tx.accountDeploymentData.map(feltHex),
    nonce_data_availability_mode: tx.nonceDataAvailabilityMode,
    fee_data_availability_mode: tx.feeDataAvailabilityMode,
  };
}
