/**
 * Wire types of the service API (docs/service-api.md, choices in docs/service-api-choices.md).
 * Amounts are decimal strings of smallest units on the wire; code converts them to bigint at the edge.
 */

export interface OkEnvelope<T> {
  status: "Ok";
  result: T;
}

export interface ErrorEnvelope {
  status: "Error";
  error: string;
}

export type Envelope<T> = OkEnvelope<T> | ErrorEnvelope;

export interface AssetAmount {
  asset: string;
  amount: string;
  display: string;
  value: string;
}

export interface QuoteItem {
  source: AssetAmount;
  destination: AssetAmount;
  solver_id: string;
  /** Seconds. */
  estimated_time: number;
  /** Basis points. */
  slippage: number;
  /** Basis points of the source amount. */
  fee: number;
  /** Decimal string in whole units of the destination asset. */
  fixed_fee: string;
}

export interface OrderSide {
  asset: string;
  owner: string;
  amount: string;
  /** Source: the party that signs for the user (Bitcoin: the x-only key of the HTLC initiator).
   *  Destination on Bitcoin: the x-only key that may redeem. */
  delegate?: string;
}

export interface CreateOrderRequest {
  source: OrderSide;
  destination: OrderSide;
  solver_id: string;
  /** Extension: a client that keeps its own secret sends its hash (64 hex) and redeems itself. */
  secret_hash?: string;
  /** Basis points the user accepts between quote and fill. */
  slippage?: number;
  nonce?: string;
}

export interface CreateOrderResult {
  order_id: string;
  to: string;
  amount: string;
  /** EVM and Starknet sources: the typed data (EIP-712, SNIP-12) the user signs for `?action=initiate`. */
  typed_data?: unknown;
  /** Starknet sources: the HTLC `initiate` call (`{to, selector, calldata}`) the user may send itself. */
  transaction?: unknown;
  /**
   * Sui SUI sources: the initiate's programmable transaction kind (BCS `TransactionKind`) as a JSON array
   * of byte values, which the user completes with sender and gas and signs.
   */
  ptb_bytes?: number[];
}

export interface SwapRecord {
  created_at: string;
  swap_id: string;
  chain: string;
  asset: string;
  initiator: string;
  redeemer: string;
  delegate?: string;
  timelock: number;
  filled_amount: string;
  amount: string;
  asset_price: number;
  secret_hash: string;
  secret: string;
  instant_refund_tx?: string;
  initiate_tx_hash: string;
  redeem_tx_hash: string;
  refund_tx_hash: string;
  initiate_block_number: string;
  redeem_block_number: string;
  refund_block_number: string;
  required_confirmations: number;
  current_confirmations: number;
  initiate_timestamp: string | null;
  redeem_timestamp: string | null;
  refund_timestamp: string | null;
}

/**
 * The `status` field of an order (docs/service-api-choices.md): the stages of docs/service-api.md ("Order
 * states") without spaces, plus two ends.
 */
export const ORDER_STATUSES = [
  "Created",
  "InitiateDetected",
  "Initiated",
  "AwaitingRedeem",
  "RedeemDetected",
  "Redeemed",
  "Refunded",
  "Expired",
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * A status as a service may send it: one of ours, or one this solver does not know (the live network
 * also says `Matched`, `CounterPartyInitiated`, `Completed`, `DeadLineExceeded`, ...). The solver decides
 * from the chains, never from the status, so an unknown one is carried, not refused.
 */
export type ServiceOrderStatus = OrderStatus | (string & {});

export function isKnownStatus(status: string): status is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(status);
}

export interface OrderAdditionalData {
  /** Unix seconds by which the user's initiate must be confirmed (the attested deadline). */
  deadline: number;
  input_token_price: number;
  output_token_price: number;
  /** True when the client sent its own secret hash and redeems the destination itself. */
  user_secret: boolean;
}

export interface Order {
  created_at: string;
  order_id: string;
  status: ServiceOrderStatus;
  source_swap: SwapRecord;
  destination_swap: SwapRecord;
  nonce: string;
  solver_id: string;
  affiliate_fees: AffiliateFee[];
  additional_data: OrderAdditionalData;
  version: "v2";
}

export interface AffiliateFee {
  address: string;
  chain: string;
  asset: string;
  fee: number;
}

export interface OrderPage {
  data: Order[];
  page: number;
  per_page: number;
  total_items: number;
  total_pages: number;
}

export interface ListOrdersQuery {
  from_owner?: string;
  to_owner?: string;
  address?: string;
  tx_hash?: string;
  from_chain?: string;
  to_chain?: string;
  /** One status or a comma-separated list of them. */
  status?: string;
  page?: number;
  per_page?: number;
}

export interface InitiateRequest {
  /**
   * EVM: 0x-prefixed 65-byte EIP-712 signature of `Initiate(redeemer,timelock,amount,secretHash)` by the
   * source initiator. Starknet: the initiator's wallet signature of the SNIP-12 `Initiate`, its felts.
   */
  signature: string | string[];
}

export interface RefundRequest {
  /** Bitcoin address that receives the refunded funds. */
  refund_address: string;
}

export interface ChainAssetInfo {
  id: string;
  name: string;
  chain: string;
  chain_id: string;
  symbol: string;
  decimals: number;
  token_address: string;
  htlc_address: string;
  fiat_value: string;
  min_amount: string;
  max_amount: string;
}

export interface ChainInfo {
  chain: string;
  name: string;
  id: string;
  family: string;
  explorer_url: string;
  confirmation_target: number;
  source_timelock: number;
  destination_timelock: number;
  supported_htlc_schemas: string[];
  supported_token_schemas: string[];
  htlc: { schema: string; address: string } | null;
  token: { schema: string } | null;
  assets: ChainAssetInfo[];
}
