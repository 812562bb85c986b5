/**
 * The EIP-712 `Initiate` typed data of a swap. The domain is read from the HTLC's `eip712Domain()`
 * (EIP-5267), so deployments of another version (v2) are signed for correctly.
 */
import { getAddress, type Address, type Hex, type TypedDataDomain } from "viem";
import { htlcAbi, htlcTypedDataTypes } from "htlc-solver/chains/evm/htlc-abi.js";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { EvmClients } from "./evm-clients.js";

// A type alias (not an interface) so that viem's `Record<string, unknown>` message bound accepts it.
export type InitiateMessage = {
  redeemer: Address;
  timelock: bigint;
  amount: bigint;
  secretHash: Hex;
};

export interface InitiateTypedData {
  domain: TypedDataDomain & { name: string; version: string; chainId: number; verifyingContract: Address };
  types: { Initiate: typeof htlcTypedDataTypes.Initiate };
  primaryType: "Initiate";
  message: InitiateMessage;
}

export class Eip712Domains {
  private readonly cache = new Map<Address, Promise<InitiateTypedData["domain"]>>();

  constructor(private readonly clients: EvmClients) {}

  domainOf(htlc: Address): Promise<InitiateTypedData["domain"]> {
    let domain = this.cache.get(htlc);
    if (domain === undefined) {
      domain = this.read(htlc);
      this.cache.set(htlc, domain);
      // A failed read (node down, contract not deployed yet) must not stick.
      domain.catch(() => this.cache.delete(htlc));
    }
    return domain;
  }

  private async read(htlc: Address): Promise<InitiateTypedData["domain"]> {
    try {
      const [, name, version, chainId, verifyingContract] = await this.clients.publicClient.readContract({
        address: htlc,
        abi: htlcAbi,
        functionName: "eip712Domain",
      });
      return { name, version, chainId: Number(chainId), verifyingContract: getAddress(verifyingContract) };
    } catch (error) {
      throw new Error(`could not read eip712Domain() of HTLC ${htlc}: ${(error as Error).message}`);
    }
  }
}

export function initiateTypedData(domain: InitiateTypedData["domain"], swap: SwapRecord): InitiateTypedData {
  return {
    domain,
    types: { Initiate: htlcTypedDataTypes.Initiate },
    primaryType: "Initiate",
    message: {
      redeemer: getAddress(swap.redeemer),
      timelock: BigInt(swap.timelock),
      amount: BigInt(swap.amount),
      secretHash: `0x${swap.secret_hash}`,
    },
  };
}

/** The JSON form for the API (eth_signTypedData_v4 layout, integers as decimal strings). */
export function typedDataJson(data: InitiateTypedData): unknown {
  return {
    domain: data.domain,
    types: {
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "version", type: "string" },
        { name: "chainId", type: "uint256" },
        { name: "verifyingContract", type: "address" },
      ],
      Initiate: data.types.Initiate,
    },
    primaryType: data.primaryType,
    message: {
      redeemer: data.message.redeemer,
      timelock: data.message.timelock.toString(),
      amount: data.message.amount.toString(),
      secretHash: data.message.secretHash,
    },
  };
}
