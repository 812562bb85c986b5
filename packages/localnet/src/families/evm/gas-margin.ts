/**
 * Gas for a localnet transaction sent by the service or a user: the node's estimate plus half again.
 * An estimate holds only for the state it ran on; a token's first transfer into an emptied HTLC costs
 * some 17 000 gas more than one into a funded HTLC, and with many swaps at once the HTLC's balance moves
 * between the estimate and the block. Localnet gas is free, a transaction that runs out of it is not.
 */
import type { Address, Hex, PublicClient } from "viem";

export async function gasWithMargin(
  pub: Pick<PublicClient, "estimateGas">,
  request: { account: Address; to: Address; data: Hex; value?: bigint },
): Promise<bigint> {
  const estimate = await pub.estimateGas(request);
  return estimate + estimate / 2n;
}
