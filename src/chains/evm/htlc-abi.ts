/**
 * ABI of the v3 HTLC contracts (docs/protocol.md, "EVM HTLC (v3)"). `NativeHTLC` has the same surface
 * with payable initiates and no `initiateWithSignature`/`token`. A test checks this against the compiled
 * contracts.
 */
export const htlcAbi = [
  {
    type: "function",
    name: "initiate",
    stateMutability: "payable",
    inputs: [
      { name: "redeemer", type: "address" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "secretHash", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "initiate",
    stateMutability: "payable",
    inputs: [
      { name: "redeemer", type: "address" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "secretHash", type: "bytes32" },
      { name: "destinationData", type: "bytes" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "initiateOnBehalf",
    stateMutability: "payable",
    inputs: [
      { name: "initiator", type: "address" },
      { name: "redeemer", type: "address" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "secretHash", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "initiateOnBehalf",
    stateMutability: "payable",
    inputs: [
      { name: "initiator", type: "address" },
      { name: "redeemer", type: "address" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "secretHash", type: "bytes32" },
      { name: "destinationData", type: "bytes" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "initiateWithSignature",
    stateMutability: "nonpayable",
    inputs: [
      { name: "initiator", type: "address" },
      { name: "redeemer", type: "address" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "secretHash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "redeem",
    stateMutability: "nonpayable",
    inputs: [
      { name: "orderID", type: "bytes32" },
      { name: "secret", type: "bytes" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "refund",
    stateMutability: "nonpayable",
    inputs: [{ name: "orderID", type: "bytes32" }],
    outputs: [],
  },
  {
    type: "function",
    name: "instantRefund",
    stateMutability: "nonpayable",
    inputs: [
      { name: "orderID", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "orders",
    stateMutability: "view",
    inputs: [{ name: "", type: "bytes32" }],
    outputs: [
      { name: "initiator", type: "address" },
      { name: "redeemer", type: "address" },
      { name: "initiatedAt", type: "uint256" },
      { name: "timelock", type: "uint256" },
      { name: "amount", type: "uint256" },
      { name: "fulfilledAt", type: "uint256" },
    ],
  },
  {
    type: "function",
    name: "token",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "function",
    name: "eip712Domain",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "fields", type: "bytes1" },
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
      { name: "salt", type: "bytes32" },
      { name: "extensions", type: "uint256[]" },
    ],
  },
  {
    type: "event",
    name: "Initiated",
    anonymous: false,
    inputs: [
      { name: "orderID", type: "bytes32", indexed: true },
      { name: "secretHash", type: "bytes32", indexed: true },
      { name: "amount", type: "uint256", indexed: true },
    ],
  },
  {
    type: "event",
    name: "Redeemed",
    anonymous: false,
    inputs: [
      { name: "orderID", type: "bytes32", indexed: true },
      { name: "secretHash", type: "bytes32", indexed: true },
      { name: "secret", type: "bytes", indexed: false },
    ],
  },
  {
    type: "event",
    name: "Refunded",
    anonymous: false,
    inputs: [{ name: "orderID", type: "bytes32", indexed: true }],
  },
] as const;

export const erc20Abi = [
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "spender", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "allowance",
    stateMutability: "view",
    inputs: [
      { name: "owner", type: "address" },
      { name: "spender", type: "address" },
    ],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "decimals",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint8" }],
  },
] as const;

/** Address the API and the contracts use for a chain's native coin. */
export const NATIVE_TOKEN_ADDRESS = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE" as const;

/** EIP-712 types the v3 contracts verify. */
export const htlcTypedDataTypes = {
  Initiate: [
    { name: "redeemer", type: "address" },
    { name: "timelock", type: "uint256" },
    { name: "amount", type: "uint256" },
    { name: "secretHash", type: "bytes32" },
  ],
  Refund: [{ name: "orderId", type: "bytes32" }],
} as const;

export const HTLC_EIP712_NAME = "HTLC";
export const HTLC_EIP712_VERSION = "3";
