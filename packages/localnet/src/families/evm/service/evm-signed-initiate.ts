/** Gasless ERC20 initiation: verify the user's EIP-712 signature, then relay `initiateWithSignature`. */
import { getAddress, isAddressEqual, isHex, recoverTypedDataAddress, type Address, type Hex } from "viem";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import type { SignedInitiate } from "../../../service/chains/service-chain.js";
import type { EvmClients } from "./evm-clients.js";
import { sendRelayed } from "./evm-send.js";
import { initiateTypedData, typedDataJson, type Eip712Domains } from "./evm-typed-data.js";

const SIGNATURE = /^0x[0-9a-fA-F]+$/;

export class EvmSignedInitiate implements SignedInitiate {
  constructor(
    private readonly clients: EvmClients,
    private readonly domains: Eip712Domains,
    private readonly htlcOf: (assetId: string) => Address,
  ) {}

  async typedData(swap: SwapRecord): Promise<unknown> {
    return typedDataJson(await this.build(swap));
  }

  signatureOf(value: unknown): { signature: string } | { problem: string } {
    return typeof value === "string" && SIGNATURE.test(value)
      ? { signature: value }
      : { problem: "signature must be 0x-prefixed hex" };
  }

  async verify(swap: SwapRecord, signature: string): Promise<string | null> {
    if (!isHex(signature) || signature.length < 4) return "signature must be 0x-prefixed hex";
    const data = await this.build(swap);
    const initiator = getAddress(swap.initiator);
    let recovered: Address | null = null;
    try {
      recovered = await recoverTypedDataAddress({ ...data, signature });
      if (isAddressEqual(recovered, initiator)) return null;
    } catch {
      // Not an ECDSA signature; a contract wallet may still accept it below.
    }
    const code = await this.clients.publicClient.getCode({ address: initiator });
    if (code !== undefined && code !== "0x") {
      const valid = await this.clients.publicClient.verifyTypedData({
        ...data,
        address: initiator,
        signature,
        blockTag: "latest",
      });
      if (valid) return null;
      return `signature is not accepted by the source initiator's contract wallet ${initiator}`;
    }
    if (recovered === null) return "signature is malformed: it recovers to no address";
    return `signature recovers to ${recovered}, not to the source initiator ${initiator}`;
  }

  async relay(swap: SwapRecord, signature: string): Promise<string> {
    const data = await this.build(swap);
    return sendRelayed(this.clients, this.htlcOf(swap.asset), {
      functionName: "initiateWithSignature",
      args: [
        getAddress(swap.initiator),
        data.message.redeemer,
        data.message.timelock,
        data.message.amount,
        data.message.secretHash,
        signature as Hex,
      ],
    });
  }

  private async build(swap: SwapRecord) {
    const domain = await this.domains.domainOf(this.htlcOf(swap.asset));
    return initiateTypedData(domain, swap);
  }
}
