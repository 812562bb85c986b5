import { encodeAbiParameters, getAddress, sha256, type Address, type Hex } from "viem";

export interface EvmOrderIdFields {
  chainId: bigint;
  secretHash: Hex;
  initiator: Address;
  redeemer: Address;
  timelock: bigint;
  amount: bigint;
  htlc: Address;
}

/** v3 order id: sha256(abi.encode(chainid, secretHash, initiator, redeemer, timelock, amount, address(this))). */
export function evmOrderId(fields: EvmOrderIdFields): Hex {
  return sha256(
    encodeAbiParameters(
      [
        { type: "uint256" },
        { type: "bytes32" },
        { type: "address" },
        { type: "address" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "address" },
      ],
      [
        fields.chainId,
        fields.secretHash,
        getAddress(fields.initiator),
        getAddress(fields.redeemer),
        fields.timelock,
        fields.amount,
        getAddress(fields.htlc),
      ],
    ),
  );
}
