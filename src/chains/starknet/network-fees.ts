/**
 * What a fill, a redeem and a refund cost on a Starknet chain at the latest block's prices, in FRI: the
 * resources each takes times the block's L2 gas and L1 data gas prices (L1 gas is not used by invokes
 * whose data goes in blobs). The amounts are the project's assumptions for the HTLC's calls, generous
 * against what the node estimates (docs/protocol.md, Starknet); pricing needs an order of magnitude, the
 * executor signs from the node's own estimate.
 */
import type { NetworkFeeEstimate } from "../chain.js";
import { VALIDATE_L2_GAS } from "./fee-policy.js";
import type { StarknetBlock } from "./rpc-schemas.js";

interface Resources {
  l2Gas: bigint;
  l1DataGas: bigint;
}

/** Validation and the account's nonce and fee-token writes, paid once per transaction. */
const PER_TRANSACTION: Resources = { l2Gas: VALIDATE_L2_GAS, l1DataGas: 128n };
const PER_ACTION: Record<keyof NetworkFeeEstimate, Resources> = {
  // approve, transfer_from and the stored order: about a dozen storage writes.
  fill: { l2Gas: 4_000_000n, l1DataGas: 768n },
  redeem: { l2Gas: 3_000_000n, l1DataGas: 384n },
  refund: { l2Gas: 2_000_000n, l1DataGas: 384n },
};

export function starknetNetworkFees(block: StarknetBlock): NetworkFeeEstimate {
  const cost = (r: Resources) =>
    r.l2Gas * block.l2_gas_price.price_in_fri + r.l1DataGas * block.l1_data_gas_price.price_in_fri;
  const perTransaction = cost(PER_TRANSACTION);
  return {
    fill: { perTransaction, perAction: cost(PER_ACTION.fill) },
    redeem: { perTransaction, perAction: cost(PER_ACTION.redeem) },
    refund: { perTransaction, perAction: cost(PER_ACTION.refund) },
  };
}
