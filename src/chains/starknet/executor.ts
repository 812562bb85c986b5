/**
 * The Starknet executor: fills (approve then initiate, one invoke of the solver's account), redeems
 * sources, refunds expired fills, and sends instant refunds of declined sources itself (the solver is
 * the redeemer of a Starknet source; its SNIP-12 signature alone makes `instant_refund` valid, and
 * anyone may send it). Each action is checked against the chain, its fee estimated by the node (which
 * also shows a call that would fail), and signed as one v3 invoke at the account's next nonce; the
 * runner journals it, then calls `broadcast`. A pending invoke is replaced at the same nonce with a tip
 * and L2 gas price each raised by at least 10%, within the fee ceilings. A REVERTED invoke used its
 * nonce and paid its fee: it is final, and reported failed.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type {
  ActionRequest,
  ChainExecutor,
  FeeAllowance,
  JournalView,
  NetworkFeeEstimate,
  SignedTx,
  TxAttemptRef,
  TxStatus,
} from "../chain.js";
import { resolveStarknetAsset } from "./assets.js";
import {
  REFUSED_FOR_GOOD_CODES,
  StarknetActionError,
  StarknetFillOnChainError,
  StarknetRefusedError,
  StarknetRpcError,
} from "./errors.js";
import { boundsFromEstimate, escalatedBounds, feeCap } from "./fee-policy.js";
import { feltHex, parseFelt, bytesToWords, u256Of } from "./felt.js";
import {
  approveCall,
  decodeExecuteCalldata,
  initiateCall,
  instantRefundCall,
  redeemCall,
  refundCall,
  SELECTORS,
  transferCall,
  type ContractCall,
  type StoredOrder,
} from "./htlc-calls.js";
import {
  callsDraft,
  draftOfInvoke,
  invokeOfRaw,
  signInvoke,
  wireInvoke,
  type InvokeBounds,
} from "./invoke.js";
import { starkSign } from "./key.js";
import { starknetNetworkFees } from "./network-fees.js";
import { StarknetNonces } from "./nonces.js";
import type { StarknetReader } from "./reader.js";
import type { StarknetRpc } from "./rpc.js";
import { instantRefundTypedData, messageHash } from "./snip12.js";
import { starknetCoin, type StarknetChainConfig } from "./config.js";
import type { StarknetTxTerms } from "./tx-terms.js";

export interface StarknetExecutorOptions {
  config: StarknetChainConfig;
  /** The account's Stark private key, stored form. */
  key: string;
  rpc: StarknetRpc;
  reader: StarknetReader;
  journal: JournalView;
  logger?: Logger;
  now?: () => number;
}

export class StarknetExecutor implements ChainExecutor {
  readonly chain: string;
  readonly feeAsset: string | null;
  readonly maxBatch = 1;
  readonly offersInstantRefund = true;
  readonly instantRefundDelivery = "broadcast" as const;
  /** The solver's account: its party on this chain. */
  readonly account: string;
  readonly #config: StarknetChainConfig;
  readonly #key: string;
  readonly #rpc: StarknetRpc;
  readonly #reader: StarknetReader;
  readonly #journal: JournalView;
  readonly #nonces: StarknetNonces;
  readonly #log: Logger | undefined;

  constructor(options: StarknetExecutorOptions) {
    this.#config = options.config;
    this.chain = options.config.name;
    this.account = options.config.accountAddress;
    this.feeAsset = starknetCoin(options.config.assets)?.id ?? null;
    this.#key = options.key;
    this.#rpc = options.rpc;
    this.#reader = options.reader;
    this.#journal = options.journal;
    this.#log = options.logger?.child({ chain: this.chain, family: "starknet" });
    this.#nonces = new StarknetNonces({
      chain: this.chain,
      journal: options.journal,
      accountNonce: () => this.#rpc.getNonce(this.account, "pre_confirmed"),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  async build(actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx> {
    const action = actions[0];
    if (action === undefined || actions.length !== 1)
      throw new StarknetActionError(
        `the Starknet executor builds one action per transaction, got ${actions.length}`,
      );
    if (action.params.chain !== this.chain)
      throw new StarknetActionError(
        `action for chain ${action.params.chain} sent to the ${this.chain} executor`,
      );
    const calls = await this.#calls(action);
    const what = `${action.kind} of order ${action.orderId}`;
    const signed = await this.#nonces.withNext((nonce) => this.#signEstimated(what, calls, nonce, allowance));
    this.#log?.info(
      { kind: action.kind, orderId: action.orderId, txHash: signed.txHash, nonce: String(signed.nonce) },
      "signed",
    );
    return signed;
  }

  /**
   * Sends to every endpoint. A node that refuses but knows the transaction (a duplicate, a nonce its
   * inclusion used) counts as sent; a refusal no resend can change is `StarknetRefusedError`.
   */
  async broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    const invoke = invokeOfRaw(tx.raw);
    const known = async (error: unknown) =>
      error instanceof StarknetRpcError && (await this.#rpc.txStatus(tx.txHash).catch(() => null)) !== null;
    let sentHash: bigint | null;
    try {
      sentHash = await this.#rpc.addInvoke(
        invoke,
        (error) => error instanceof StarknetRpcError && error.code === 59,
      );
    } catch (error) {
      if (await known(error)) return;
      if (error instanceof StarknetRpcError && (await this.#refusedForGood(error, invoke.nonce)))
        throw new StarknetRefusedError(this.chain, tx.txHash, error);
      throw error;
    }
    if (sentHash === null) {
      // A duplicate: sent already when the node holds this very transaction, otherwise another of its nonce waits.
      if ((await this.#rpc.txStatus(tx.txHash)) !== null) return;
      throw new StarknetActionError(
        `${this.chain}: another transaction of nonce ${invoke.nonce} waits, not ${tx.txHash}`,
      );
    }
    if (sentHash !== BigInt(tx.txHash))
      throw new StarknetActionError(
        `${this.chain}: the node reports hash ${feltHex(sentHash)} for ${tx.txHash}`,
      );
    this.#log?.info({ txHash: tx.txHash }, "broadcast");
  }

  /**
   * RECEIVED or pre-confirmed: pending. In a block: SUCCEEDED is confirmed, REVERTED failed (its nonce
   * used, its fee paid). Unknown to the node: dead once the account's nonce has passed the attempt's
   * (another transaction took it), otherwise unknown (sent again).
   */
  async txStatus(attempt: TxAttemptRef): Promise<TxStatus> {
    const terms = starknetTerms(attempt);
    const status = await this.#rpc.txStatus(attempt.txHash);
    if (status === null) {
      const nonce = await this.#rpc.getNonce(this.account, "latest");
      if (attempt.nonce !== null && nonce > attempt.nonce)
        return {
          state: "dead",
          reason: `nonce ${attempt.nonce} was used by another transaction (account nonce ${nonce})`,
        };
      return { state: "unknown" };
    }
    if (status.finality_status !== "ACCEPTED_ON_L2" && status.finality_status !== "ACCEPTED_ON_L1")
      return { state: "pending" };
    const receipt = await this.#rpc.receipt(attempt.txHash);
    if (receipt === null || receipt.block_number === undefined) return { state: "pending" };
    const blockHeight = BigInt(receipt.block_number);
    const feePaid = receipt.actual_fee.amount;
    if (receipt.execution_status === "REVERTED")
      return { state: "failed", blockHeight, reason: receipt.revert_reason ?? "reverted", feePaid };
    const tip = await this.#rpc.freshBlockNumber();
    let confirmations = Number(tip >= blockHeight ? tip - blockHeight + 1n : 1n);
    // Final only at L1 acceptance where so configured: short of it, never the depth that counts as final.
    if (this.#config.finality === "ACCEPTED_ON_L1" && receipt.finality_status !== "ACCEPTED_ON_L1")
      confirmations = Math.min(confirmations, this.#config.finalityDepth - 1);
    // No transaction is charged past its bounds: a node stating more is not believed.
    return {
      state: "confirmed",
      blockHeight,
      confirmations,
      feePaid: feePaid <= terms.maxFee ? feePaid : terms.maxFee,
    };
  }

  /** The same invoke at the same nonce, its tip and L2 gas price raised; null past the ceilings. */
  async bump(
    attempt: TxAttemptRef,
    _actions: ActionRequest[],
    allowance?: FeeAllowance,
  ): Promise<SignedTx | null> {
    const draft = draftOfInvoke(this.#config.chainId, invokeOfRaw(attempt.raw));
    const bounds = escalatedBounds(draft.bounds, this.#config, allowance);
    if (bounds === null) {
      this.#log?.warn({ txHash: attempt.txHash }, "not replaced: the raise would pass the fee ceiling");
      return null;
    }
    return signInvoke(this.chain, { ...draft, bounds }, this.#key);
  }

  /** A zero transfer of the fee token to the account itself at the attempt's nonce, out-paying it, up to twice the ceiling. */
  async cancel(attempt: TxAttemptRef): Promise<SignedTx | null> {
    const draft = draftOfInvoke(this.#config.chainId, invokeOfRaw(attempt.raw));
    const bounds = escalatedBounds(draft.bounds, this.#config, undefined, 2n);
    if (bounds === null || attempt.nonce === null) return null;
    const calls = [transferCall(this.#config.feeTokenAddress, this.account, 0n)];
    return signInvoke(this.chain, callsDraft({ ...draft, bounds }, calls), this.#key);
  }

  /** Zero self-transfers for the nonces below the live ones that nothing holds. */
  fillNonceGaps(): Promise<SignedTx[]> {
    const calls = [transferCall(this.#config.feeTokenAddress, this.account, 0n)];
    return this.#nonces.withGaps((nonce) => this.#signEstimated(`nonce gap ${nonce}`, calls, nonce));
  }

  async networkFees(): Promise<NetworkFeeEstimate> {
    return starknetNetworkFees(await this.#rpc.getBlock("latest"));
  }

  /**
   * The account's balance of a token at the pre-confirmed block, less what each live journaled attempt
   * not yet in a block takes: the tokens its calls move out, and its most fee where the token is STRK.
   */
  async balance(assetId: string): Promise<bigint> {
    const asset = resolveStarknetAsset(this.#config, assetId);
    const live = this.#journal.liveAttempts(this.chain);
    const [low, high] = await this.#rpc.call(
      asset.token,
      SELECTORS.balanceOf,
      [BigInt(this.account)],
      "pre_confirmed",
    );
    if (low === undefined || high === undefined)
      throw new StarknetActionError(`${this.chain}: balance_of of ${asset.id} returned too few felts`);
    const held = u256Of(low, high);
    let outstanding = 0n;
    for (const attempt of live) {
      const status = await this.#rpc.txStatus(attempt.txHash);
      if (status !== null && status.finality_status !== "RECEIVED" && status.finality_status !== "CANDIDATE")
        continue;
      outstanding += this.#attemptCost(attempt, asset.token);
    }
    return held - outstanding;
  }

  #attemptCost(attempt: TxAttemptRef, token: string): bigint {
    const terms = starknetTerms(attempt);
    let cost = BigInt(token) === BigInt(this.#config.feeTokenAddress) ? terms.maxFee : 0n;
    const calls = decodeExecuteCalldata(invokeOfRaw(attempt.raw).calldata.map((felt) => BigInt(felt)));
    const tokenFelt = BigInt(token);
    const htlcs = new Set(
      this.#config.assets
        .filter((a) => BigInt(a.tokenAddress) === tokenFelt)
        .map((a) => BigInt(a.htlcAddress)),
    );
    for (const call of calls) {
      if (call.to === tokenFelt && call.selector === BigInt(SELECTORS.transfer))
        cost += u256Of(call.calldata[1] ?? 0n, call.calldata[2] ?? 0n);
      if (htlcs.has(call.to) && call.selector === BigInt(SELECTORS.initiate))
        cost += u256Of(call.calldata[2] ?? 0n, call.calldata[3] ?? 0n);
    }
    return cost;
  }

  /** Estimates the calls' fee at this nonce and signs them within the ceilings; a call that would fail is refused. */
  async #signEstimated(
    what: string,
    calls: ContractCall[],
    nonce: bigint,
    allowance?: FeeAllowance,
  ): Promise<SignedTx> {
    const zero = { maxAmount: 0n, maxPricePerUnit: 0n };
    const base = {
      chainId: this.#config.chainId,
      sender: this.account,
      nonce,
      bounds: { l1Gas: zero, l2Gas: zero, l1DataGas: zero, tip: 0n },
    };
    const probe = callsDraft(base, calls);
    let estimate;
    try {
      estimate = await this.#rpc.estimateFee(wireInvoke(probe, []));
    } catch (error) {
      if (error instanceof StarknetRpcError && (error.code === 40 || error.code === 41))
        throw new StarknetActionError(`${what} would fail on ${this.chain}: ${error.message}`);
      throw error;
    }
    const bounds: InvokeBounds | null = boundsFromEstimate(estimate, this.#config, allowance);
    if (bounds === null)
      throw new StarknetActionError(
        `${what} on ${this.chain}: the estimated fee (${estimate.overall_fee} FRI) with its margin passes the ceiling of ${feeCap(this.#config, allowance)} FRI`,
      );
    return signInvoke(this.chain, { ...probe, bounds }, this.#key);
  }

  async #calls(action: ActionRequest): Promise<ContractCall[]> {
    const asset = resolveStarknetAsset(this.#config, action.params.asset);
    const orderId = this.#reader.orderIdOf(action.params);
    const what = `${action.kind} of order ${action.orderId}`;
    if (action.kind === "fill") {
      await this.#checkFill(action, asset.htlc, orderId);
      return [
        approveCall(asset.token, asset.htlc, action.params.amount),
        initiateCall(asset.htlc, {
          redeemer: action.params.redeemer,
          timelock: action.params.timelock,
          amount: action.params.amount,
          secretHash: action.params.secretHash,
        }),
      ];
    }
    const order = await this.#reader.storedOrder(asset.htlc, orderId);
    if (order === null)
      throw new StarknetActionError(`${what}: no order ${action.params.swapId} on ${asset.htlc}`);
    if (order.isFulfilled)
      throw new StarknetActionError(`${what}: order ${action.params.swapId} is already fulfilled`);
    const lockId = action.params.swapId;
    if (!(action.locks ?? [lockId]).includes(lockId))
      throw new StarknetActionError(`${what}: the plan named other locks than ${lockId}`);
    switch (action.kind) {
      case "redeem":
        this.#mustBe("redeemer", order, what);
        return [redeemCall(asset.htlc, orderId, this.#secretWords(action, what))];
      case "refund":
        this.#mustBe("initiator", order, what);
        return [refundCall(asset.htlc, orderId)];
      case "instant_refund": {
        this.#mustBe("redeemer", order, what);
        const data = instantRefundTypedData(
          this.#config.orderIdLayout,
          this.#config.chainId,
          orderId,
          asset.htlc,
        );
        return [
          instantRefundCall(asset.htlc, orderId, starkSign(this.#key, messageHash(data, this.account))),
        ];
      }
    }
  }

  /**
   * Never fill twice: not when a journaled fill of the order landed, nor when the HTLC already holds
   * the order (the solver's: done; another's: the id is taken for good).
   */
  async #checkFill(action: ActionRequest, htlc: string, orderId: bigint): Promise<void> {
    const what = `fill of order ${action.orderId}`;
    if (parseFelt(action.params.initiator, "initiator") !== BigInt(this.account))
      throw new StarknetActionError(
        `${what}: initiator ${action.params.initiator} is not the solver (${this.account})`,
      );
    const computed = this.#reader.computeSwapId(action.params);
    if (computed !== action.params.swapId)
      throw new StarknetActionError(
        `${what}: stated swap id ${action.params.swapId} differs from ${computed}`,
      );
    for (const txHash of this.#journal.actionTxids(action.orderId, "fill")) {
      const receipt = await this.#rpc.receipt(txHash);
      if (receipt?.execution_status === "SUCCEEDED")
        throw new StarknetFillOnChainError(action.orderId, computed);
    }
    const stored = await this.#reader.storedOrder(htlc, orderId);
    if (stored === null) return;
    if (stored.initiator === this.account) throw new StarknetFillOnChainError(action.orderId, computed);
    throw new StarknetActionError(
      `${what}: ${htlc} already holds order ${computed}, initiated by ${stored.initiator}`,
    );
  }

  #mustBe(role: "redeemer" | "initiator", order: StoredOrder, what: string): void {
    if (order[role] !== this.account)
      throw new StarknetActionError(
        `${what} needs the order's ${role} ${order[role]} to be the solver (${this.account})`,
      );
  }

  /** The redeem's secret as u32 words, checked against the order's hash. */
  #secretWords(action: ActionRequest, what: string): bigint[] {
    const secret = action.secret;
    if (secret === undefined || !/^([0-9a-fA-F]{8})+$/.test(secret))
      throw new StarknetActionError(`${what}: the secret is not whole u32 words of hex`);
    const bytes = Buffer.from(secret, "hex");
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (digest !== action.params.secretHash.toLowerCase())
      throw new StarknetActionError(`${what}: the secret does not hash to the order's secret hash`);
    return bytesToWords(bytes);
  }

  /** Nonce refusals are for good only when the account's nonce has passed the transaction's. */
  async #refusedForGood(error: StarknetRpcError, nonce: string): Promise<boolean> {
    if (!REFUSED_FOR_GOOD_CODES.has(error.code)) return false;
    if (error.code !== 52) return true;
    return (await this.#rpc.getNonce(this.account, "pre_confirmed")) > BigInt(nonce);
  }
}

function starknetTerms(attempt: Pick<TxAttemptRef, "terms" | "txHash">): StarknetTxTerms {
  if (attempt.terms.family !== "starknet")
    throw new StarknetActionError(`attempt ${attempt.txHash} was not signed by the Starknet executor`);
  return attempt.terms;
}
