/**
 * The Bitcoin executor: funds HTLCs from the solver's wallet, redeems many HTLCs in one transaction,
 * refunds after the relative lock, pre-signs instant refunds of declined sources, and replaces stuck
 * transactions by fee (BIP-125). It builds and signs; the runner journals, then calls `broadcast`.
 */
import {
  address as btcAddress,
  crypto as btcCrypto,
  payments,
  Transaction,
  type Network,
} from "bitcoinjs-lib";
import type { Logger } from "pino";
import {
  CANCEL_FEE_CEILING_FACTOR,
  type ActionKind,
  type ActionRequest,
  type ChainExecutor,
  type OperatorTransfers,
  type NetworkFeeEstimate,
  type FeeAllowance,
  type JournalView,
  type SignedTx,
  type TxAttemptRef,
  type TxStatus,
} from "../chain.js";
import type { BitcoinBackend, FundingOutput, MempoolDescendants } from "./backend.js";
import { bytesToHex, fixedBytes } from "./bytes.js";
import {
  AlreadyFundedError,
  BitcoinActionError,
  IncompleteInstantRefundError,
  NothingToSpendError,
} from "./errors.js";
import { allowanceBounds, clampFeeRate } from "./fee.js";
import type { BitcoinHtlc } from "./htlc.js";
import { SIGHASH_SINGLE_ANYONECANPAY } from "./htlc-witness.js";
import {
  buildRedeemTx,
  buildRefundTx,
  signInstantRefund,
  type HtlcUtxo,
  type InstantRefundSignatures,
  type RedeemInput,
} from "./htlc-spend.js";
import { liveDescendants } from "./journal-outputs.js";
import type { BitcoinKey } from "./keys.js";
import { bitcoinNetwork } from "./network.js";
import { NeverMined } from "./never-mined.js";
import { BitcoinReader } from "./reader.js";
import { bumpTransaction } from "./replacement.js";
import { BitcoinWallet } from "./wallet.js";
import { settledLater } from "../../util/settled-later.js";
import { bitcoinCoin, type BitcoinChainConfig } from "./config.js";
import { bitcoinNetworkFees } from "./network-fees.js";

export interface BitcoinExecutorOptions {
  config: BitcoinChainConfig;
  key: BitcoinKey;
  backend: BitcoinBackend;
  journal: JournalView;
  /** Confirmation target asked of the fee estimator; default 2 blocks. */
  feeTargetBlocks?: number;
  logger?: Logger;
}

/** The problem with `to` as an address of `network`, or null. */
function bitcoinAddressProblem(to: string, network: Network): string | null {
  try {
    btcAddress.toOutputScript(to, network);
    return null;
  } catch {
    return `${JSON.stringify(to)} is not a Bitcoin address of this network`;
  }
}

export class BitcoinExecutor implements ChainExecutor {
  readonly chain: string;
  readonly feeAsset: string | null;
  readonly maxBatch: number;
  readonly offersInstantRefund = true;
  readonly reader: BitcoinReader;
  readonly wallet: BitcoinWallet;
  readonly #config: BitcoinChainConfig;
  readonly #key: BitcoinKey;
  readonly #backend: BitcoinBackend;
  readonly #feeTarget: number;
  readonly #log: Logger | undefined;
  readonly #journal: JournalView;
  readonly #neverMined: NeverMined;

  constructor(options: BitcoinExecutorOptions) {
    const { config, key, backend } = options;
    this.chain = config.name;
    // Bitcoin has one coin: every asset of a Bitcoin chain is it.
    this.feeAsset = bitcoinCoin(config.assets)?.id ?? null;
    this.maxBatch = config.maxBatch;
    this.#config = config;
    this.#key = key;
    this.#backend = backend;
    this.#feeTarget = options.feeTargetBlocks ?? 2;
    this.#log = options.logger;
    this.#journal = options.journal;
    this.reader = new BitcoinReader({
      chain: config.name,
      network: config.network,
      backend,
      feeRateCeilingSatVb: config.feeRateCeilingSatVb,
    });
    this.#neverMined = new NeverMined({
      chain: config.name,
      finalityDepth: config.finalityDepth,
      backend,
      journal: options.journal,
      spendsFrom: (action) =>
        action.kind === "fill" ? this.wallet.address : this.reader.computeSwapId(action.params),
    });
    this.wallet = new BitcoinWallet({
      chain: config.name,
      key,
      network: bitcoinNetwork(config.network),
      backend,
      journal: options.journal,
      // The follower replaces a transaction pending `bumpAfterMs`, evicting whatever spends its change:
      // a payment is chained only on change that leaves it half that wait for its parent to be mined.
      chainWindowMs: config.bumpAfterMs / 2,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  }

  /** The operator's payments out of the wallet: one output to the address, change back, at today's fee rate. */
  get transfers(): OperatorTransfers {
    const network = bitcoinNetwork(this.#config.network);
    return {
      addressProblem: (to) => bitcoinAddressProblem(to, network),
      buildTransfer: async ({ asset, amount, to }) => {
        if (!this.#config.assets.some((a) => a.id === asset))
          throw new BitcoinActionError(`asset ${asset} is not configured on chain ${this.chain}`);
        const script = btcAddress.toOutputScript(to, network);
        const paid = await this.wallet.pay([{ script, value: amount }], await this.feeRateSatVb());
        return {
          signed: this.#signed(paid.tx, paid.feeRateSatVb, paid.fee, paid.inputValues),
          maxFee: paid.fee,
        };
      },
    };
  }

  /** The node's estimate for the configured target, clamped to the chain's floor and ceiling. */
  async feeRateSatVb(): Promise<bigint> {
    return clampFeeRate(await this.#backend.feeRateSatVb(this.#feeTarget), this.#config);
  }

  async build(actions: ActionRequest[]): Promise<SignedTx> {
    const kind = this.#batchKind(actions);
    switch (kind) {
      case "fill":
        return this.#buildFill(actions);
      case "redeem":
        return this.#buildRedeem(actions);
      case "refund":
        return this.#buildRefund(actions);
      case "instant_refund":
        return this.#buildInstantRefund(actions);
    }
  }

  async broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    if (isPartialInstantRefund(Transaction.fromHex(tx.raw)))
      throw new IncompleteInstantRefundError(tx.txHash);
    const txid = await this.#backend.broadcast(tx.raw);
    if (txid !== tx.txHash)
      throw new BitcoinActionError(`broadcast returned txid ${txid}, expected ${tx.txHash}`);
    this.#log?.info({ chain: this.chain, txid }, "bitcoin: transaction broadcast");
  }

  async txStatus(attempt: TxAttemptRef, actions: ActionRequest[]): Promise<TxStatus> {
    const seen = await this.#backend.transactionStatus(attempt.txHash, attempt.raw);
    if (seen.state === "mempool") return { state: "pending" };
    if (seen.state === "unknown") {
      const dead = await this.#neverMined.reason({ txHash: attempt.txHash, raw: attempt.raw, actions });
      return dead === null ? { state: "unknown" } : { state: "dead", reason: dead };
    }
    const tip = await this.#backend.tipHeight();
    // The fee journaled with the attempt is the one this mined transaction paid.
    return {
      state: "confirmed",
      blockHeight: BigInt(seen.height),
      confirmations: Math.max(0, tip - seen.height + 1),
      ...(attempt.terms.family === "bitcoin" ? { feePaid: attempt.terms.feeSats } : {}),
    };
  }

  /**
   * Same inputs at a higher fee rate: change (fills) or the swept output (redeems, refunds) pays for it,
   * and for every in-mempool descendant it evicts. Null at the fee ceiling, when the change cannot pay
   * more, and for instant refunds (the initiator completes and broadcasts those); the log says which.
   */
  async bump(
    attempt: TxAttemptRef,
    actions: ActionRequest[],
    allowance?: FeeAllowance,
  ): Promise<SignedTx | null> {
    const kind = this.#batchKind(actions);
    if (kind === "instant_refund") return null;
    const bounds = allowanceBounds(this.#config, attempt, allowance);
    if (allowance !== undefined && bounds.feeRateCeilingSatVb > this.#config.feeRateCeilingSatVb) {
      this.#log?.warn(
        {
          chain: this.chain,
          txid: attempt.txHash,
          ceilingSatVb: bounds.feeRateCeilingSatVb,
          reason: allowance.reason,
        },
        "bitcoin: replacement may pay above the fee ceiling",
      );
    }
    const outcome = bumpTransaction({
      kind,
      attempt,
      htlcs: actions.map((a) => this.#htlcFor(a, kind)),
      secrets: actions.map((a) => (kind === "redeem" ? this.#secretOf(a) : null)),
      targetRateSatVb: await this.feeRateSatVb(),
      bounds,
      descendants: await this.#descendantsOf(attempt),
      key: this.#key,
      wallet: this.wallet,
    });
    if ("refused" in outcome) {
      this.#log?.warn(
        { chain: this.chain, txid: attempt.txHash, reason: outcome.refused },
        "bitcoin: no replacement possible",
      );
      return null;
    }
    const { tx, feeRateSatVb, fee, inputValues } = outcome.replacement;
    return this.#signed(tx, feeRateSatVb, fee, inputValues);
  }

  /** The fill's wallet inputs spent back to the wallet, at a higher rate: the fill can then never be mined. */
  async cancel(attempt: TxAttemptRef): Promise<SignedTx | null> {
    const outcome = bumpTransaction({
      kind: "cancel",
      attempt,
      htlcs: [],
      secrets: [],
      targetRateSatVb: await this.feeRateSatVb(),
      bounds: {
        ...this.#config,
        feeRateCeilingSatVb: this.#config.feeRateCeilingSatVb * CANCEL_FEE_CEILING_FACTOR,
      },
      descendants: await this.#descendantsOf(attempt),
      key: this.#key,
      wallet: this.wallet,
    });
    if ("refused" in outcome) {
      this.#log?.warn(
        { chain: this.chain, txid: attempt.txHash, reason: outcome.refused },
        "bitcoin: cannot out-pay the fill to cancel it",
      );
      return null;
    }
    const { tx, feeRateSatVb, fee, inputValues } = outcome.replacement;
    return this.#signed(tx, feeRateSatVb, fee, inputValues);
  }

  /**
   * What a replacement of the attempt evicts besides it: its in-mempool descendants as the node sees them
   * (anyone's, such as a user's redeem of a fill's HTLC output) or the solver's own live ones in the
   * journal (which a node that lost them would not count, while others still relay them), whichever pay
   * more.
   */
  async #descendantsOf(attempt: TxAttemptRef): Promise<MempoolDescendants> {
    const own = liveDescendants(this.#journal.liveAttempts(this.chain), attempt.txHash);
    const journaled: MempoolDescendants = {
      count: own.length,
      vsize: own.reduce((sum, a) => sum + Transaction.fromHex(a.raw).virtualSize(), 0),
      feeSats: own.reduce((sum, a) => sum + (a.terms.family === "bitcoin" ? a.terms.feeSats : 0n), 0n),
    };
    const seen = await this.#backend.mempoolDescendants(attempt.txHash);
    return seen !== null && seen.feeSats > journaled.feeSats ? seen : journaled;
  }

  async networkFees(): Promise<NetworkFeeEstimate> {
    return bitcoinNetworkFees(this.#config.network, await this.feeRateSatVb());
  }

  /** Spendable satoshis of the wallet (confirmed, plus unconfirmed change of live attempts). */
  async balance(asset: string): Promise<bigint> {
    const known = this.#config.assets.some((a) => a.id === asset);
    if (!known) throw new BitcoinActionError(`asset ${asset} is not configured on chain ${this.chain}`);
    const { confirmed, unconfirmed } = await this.wallet.balance();
    return confirmed + unconfirmed;
  }

  /**
   * The solver's (redeemer's) half of an instant refund of a declined Bitcoin source, paying
   * `refundAddress` (default: the initiator key's own key-path P2TR address).
   */
  async signInstantRefund(action: ActionRequest, refundAddress?: string): Promise<InstantRefundSignatures> {
    const htlc = this.#htlcFor(action, "instant_refund");
    const utxos = await this.#chosenLocks(action, htlc, "instantly refund", { mined: false });
    const address = refundAddress ?? this.#initiatorAddress(htlc);
    return signInstantRefund(htlc, utxos, address, {
      key: this.#key,
      feeRateSatVb: await this.feeRateSatVb(),
    });
  }

  async #buildFill(actions: ActionRequest[]): Promise<SignedTx> {
    const rate = settledLater(this.feeRateSatVb());
    // Every HTLC of the batch is read at once: one after another, a batch of fifty waited on fifty reads.
    const outputs = await Promise.all(
      actions.map(async (action) => {
        const htlc = this.#htlcFor(action, "fill");
        // Never fill twice: an output there from one of our own journaled fills is the fill. Outputs
        // anyone else sent to the address are not, and change nothing; so where no fill of the order was
        // ever journaled, there is nothing to look for (and no index sync to wait on).
        const ours = new Set(this.#journal.actionTxids(action.orderId, "fill"));
        if (ours.size > 0) {
          const { outputs: funding } = await this.reader.fundingOutputs(action.params, {
            ownTxids: [...ours],
          });
          if (funding.some((o) => ours.has(o.txid))) throw new AlreadyFundedError(htlc.address);
        }
        return { script: htlc.outputScript, value: action.params.amount };
      }),
    );
    const paid = await this.wallet.pay(outputs, await rate);
    return this.#signed(paid.tx, paid.feeRateSatVb, paid.fee, paid.inputValues);
  }

  async #buildRedeem(actions: ActionRequest[]): Promise<SignedTx> {
    const rate = settledLater(this.feeRateSatVb());
    const each = await this.#eachAction(actions, async (action) => {
      const htlc = this.#htlcFor(action, "redeem");
      const secret = this.#secretOf(action);
      const utxos = await this.#chosenLocks(action, htlc, "redeem", { mined: true });
      return utxos.map((utxo): RedeemInput => ({ ...utxo, secret }));
    });
    const inputs = each.flat();
    const { tx, fee } = buildRedeemTx(inputs, this.#key, this.wallet.outputScript, await rate);
    return this.#signed(
      tx,
      await rate,
      fee,
      inputs.map((i) => i.value),
    );
  }

  async #buildRefund(actions: ActionRequest[]): Promise<SignedTx> {
    const rate = settledLater(this.feeRateSatVb());
    const each = await this.#eachAction(actions, async (action) =>
      this.#chosenLocks(action, this.#htlcFor(action, "refund"), "refund", { mined: true, refundable: true }),
    );
    const inputs = each.flat();
    const { tx, fee } = buildRefundTx(inputs, this.#key, this.wallet.outputScript, await rate);
    return this.#signed(
      tx,
      await rate,
      fee,
      inputs.map((i) => i.value),
    );
  }

  /** Returns the partially signed instant refund; its txid is final, but only the initiator can complete it. */
  async #buildInstantRefund(actions: ActionRequest[]): Promise<SignedTx> {
    const [action] = actions;
    if (action === undefined || actions.length !== 1) {
      throw new BitcoinActionError("an instant refund covers exactly one HTLC");
    }
    const signed = await this.signInstantRefund(action, action.refundAddress);
    return {
      chain: this.chain,
      txHash: signed.txid,
      raw: signed.partialTxHex,
      nonce: null,
      terms: {
        family: "bitcoin",
        feeRateSatVb: signed.feeRateSatVb,
        feeSats: signed.fee,
        inputValues: signed.inputValues,
        instantRefund: { redeemerSignatures: signed.redeemerSignatures },
      },
    };
  }

  #signed(tx: Transaction, rate: bigint, fee: bigint, inputValues: bigint[]): SignedTx {
    return {
      chain: this.chain,
      txHash: tx.getId(),
      raw: tx.toHex(),
      nonce: null,
      terms: { family: "bitcoin", feeRateSatVb: rate, feeSats: fee, inputValues },
    };
  }

  #batchKind(actions: ActionRequest[]): ActionKind {
    const first = actions[0];
    if (first === undefined) throw new BitcoinActionError("no actions to build a transaction for");
    if (actions.length > this.maxBatch) {
      throw new BitcoinActionError(`${actions.length} actions exceed the batch limit of ${this.maxBatch}`);
    }
    for (const action of actions) {
      if (action.kind !== first.kind)
        throw new BitcoinActionError(`cannot batch ${action.kind} with ${first.kind}`);
      if (action.params.chain !== this.chain) {
        throw new BitcoinActionError(
          `action for chain ${action.params.chain} sent to the ${this.chain} executor`,
        );
      }
    }
    return first.kind;
  }

  /** The HTLC of an action, after checking that the solver holds the key that action needs. */
  #htlcFor(action: ActionRequest, kind: ActionKind): BitcoinHtlc {
    const role = kind === "fill" || kind === "refund" ? "initiator" : "redeemer";
    const key = action.params[role].toLowerCase().replace(/^0x/, "");
    if (key !== this.#key.xOnlyHex) {
      throw new BitcoinActionError(
        `${kind} of order ${action.orderId} needs the ${role} key ${key}, not the solver's`,
      );
    }
    return this.reader.htlcOf(action.params);
  }

  #secretOf(action: ActionRequest): Uint8Array {
    if (action.secret === undefined)
      throw new BitcoinActionError(`redeem of order ${action.orderId} has no secret`);
    const secret = fixedBytes(action.secret, 32, `secret of order ${action.orderId}`);
    const expected = action.params.secretHash.toLowerCase().replace(/^0x/, "");
    if (bytesToHex(btcCrypto.sha256(secret)) !== expected) {
      throw new BitcoinActionError(`secret of order ${action.orderId} does not hash to its secret hash`);
    }
    return secret;
  }

  /**
   * `read` of every action at once, each reading its HTLC's outputs (one after another, a batch of fifty
   * waited on fifty index syncs); when any fails, the first failing action in the batch's order is the
   * one reported, as when they were read in turn.
   */
  async #eachAction<T>(actions: ActionRequest[], read: (action: ActionRequest) => Promise<T>): Promise<T[]> {
    const settled = await Promise.allSettled(actions.map((action) => read(action)));
    return settled.map((result) => {
      if (result.status === "rejected") throw result.reason;
      return result.value;
    });
  }

  /**
   * The outputs of the HTLC that the planner chose for this action and that can still be spent: unspent,
   * mined where asked (an unconfirmed output its sender can evict would take the whole batch with it),
   * past their own relative lock for a refund (an immature input makes the refund non-final).
   */
  async #chosenLocks(
    action: ActionRequest,
    htlc: BitcoinHtlc,
    verb: string,
    require: { mined: boolean; refundable?: boolean },
  ): Promise<HtlcUtxo[]> {
    const chosen = new Set(action.locks ?? []);
    if (chosen.size === 0) {
      throw new BitcoinActionError(`${verb} of order ${action.orderId} names no HTLC output to spend`);
    }
    // Read by the chosen locks too, so that an address flooded past a read's bounds cannot hide them.
    const { outputs, tip } = await this.reader.fundingOutputs(action.params, { lockIds: [...chosen] });
    const spendable = outputs.filter((o: FundingOutput) => {
      if (!chosen.has(`${o.txid}:${o.vout}`) || o.spentBy !== null) return false;
      if (require.mined && o.height === null) return false;
      return !require.refundable || (o.height !== null && tip + 1 >= o.height + htlc.timelock);
    });
    if (spendable.length === 0) throw new NothingToSpendError(htlc.address, verb);
    return spendable.map((o) => ({ htlc, txid: o.txid, vout: o.vout, value: o.value }));
  }

  #initiatorAddress(htlc: BitcoinHtlc): string {
    const address = payments.p2tr({ internalPubkey: htlc.initiatorKey, network: htlc.network }).address;
    if (address === undefined)
      throw new BitcoinActionError("could not derive the initiator's refund address");
    return address;
  }
}

/** Every input carries only a 65-byte SIGHASH_SINGLE|ANYONECANPAY signature: the redeemer's half. */
export function isPartialInstantRefund(tx: Transaction): boolean {
  return tx.ins.every((input) => {
    const only = input.witness.length === 1 ? input.witness[0] : undefined;
    return only !== undefined && only.length === 65 && only[64] === SIGHASH_SINGLE_ANYONECANPAY;
  });
}
