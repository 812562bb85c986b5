/**
 * The Solana executor: fills (initiates a swap funded by the solver), redeems sources, refunds expired
 * fills, and sends instant refunds of declined sources itself (the redeemer's signature alone makes
 * one valid). It checks the chain, simulates, and signs one transaction per action; the runner journals
 * it, then calls `broadcast`.
 *
 * A Solana transaction carries a recent blockhash and can land only until the cluster's block height
 * passes the blockhash's last valid height. So a journaled transaction is sent again, byte for byte,
 * while it can still land, and is dead once the finalized block height is past that height and no node
 * has it: its actions are planned again, and a rebuilt one pays a higher priority fee. No replacement is
 * signed while the first can still land: two fills could then both land, one after the other's swap was
 * redeemed and closed.
 */
import { PublicKey, type Keypair, type TransactionInstruction } from "@solana/web3.js";
import type { Logger } from "pino";
import type {
  ActionRequest,
  ChainExecutor,
  NetworkFeeEstimate,
  FeeAllowance,
  JournalView,
  OperatorTransfers,
  SignedTx,
  TxAttemptRef,
  TxStatus,
} from "../chain.js";
import { resolveSolanaAsset, solanaCoin, type SolanaAsset } from "./assets.js";
import {
  describeTxError,
  FillAlreadyLandedError,
  SolanaActionError,
  SolanaBroadcastError,
  PayeeAccountMissingError,
  SolanaTxWouldFailError,
  SwapOccupiedError,
} from "./errors.js";
import { solanaRecipientProblem, transferInstructions } from "./operator-txs.js";
import { attemptCost, type RentTable } from "./outstanding.js";
import { allowanceBounds, computeUnitLimit, computeUnitPrice } from "./priority-fee.js";
import type { SolanaReader } from "./reader.js";
import { isAlreadyProcessed, type SolanaRpc } from "./rpc.js";
import { SolanaRpcError } from "./rpc-endpoint.js";
import { signDraft, wireOf, type TxDraft } from "./signed-tx.js";
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  decodeTokenAccount,
  TOKEN_ACCOUNT_SIZE,
} from "./spl-token.js";
import { hexBytes, secretMatches } from "./swap-params.js";
import { lockId, type LiveSwap } from "./swap-state.js";
import type { SolanaChainConfig } from "./config.js";
import type { SwapTerms } from "./swap-terms.js";
import { solanaNetworkFees } from "./network-fees.js";
import type { SolanaTxTerms } from "./tx-terms.js";

/** Units the simulation may use: far above any HTLC instruction, below the cluster's cap. */
const SIMULATION_UNIT_LIMIT = 400_000n;
/** Every transaction here is signed by the solver alone, its fee payer. */
const SOLVER_SIGNATURES = 1;

export interface SolanaExecutorOptions {
  config: SolanaChainConfig;
  keypair: Keypair;
  rpc: SolanaRpc;
  reader: SolanaReader;
  journal: JournalView;
  logger?: Logger;
}

export class SolanaExecutor implements ChainExecutor {
  readonly chain: string;
  readonly feeAsset: string | null;
  readonly maxBatch = 1;
  /** A declined source goes back to the user at once: the solver, its redeemer, signs the instant refund. */
  readonly offersInstantRefund = true;
  readonly instantRefundDelivery = "broadcast" as const;
  readonly #config: SolanaChainConfig;
  readonly #keypair: Keypair;
  readonly #rpc: SolanaRpc;
  readonly #reader: SolanaReader;
  readonly #journal: JournalView;
  readonly #log: Logger | undefined;

  constructor(options: SolanaExecutorOptions) {
    this.#config = options.config;
    this.chain = options.config.name;
    this.feeAsset = solanaCoin(options.config.assets)?.id ?? null;
    this.#keypair = options.keypair;
    this.#rpc = options.rpc;
    this.#reader = options.reader;
    this.#journal = options.journal;
    this.#log = options.logger?.child({ chain: this.chain, family: "solana" });
  }

  get address(): PublicKey {
    return this.#keypair.publicKey;
  }

  /**
   * The operator's payments out of the wallet, signed at the configured floor price over a recent
   * blockhash after a simulation; the fee ceiling counts the rent of a recipient token account it creates.
   */
  get transfers(): OperatorTransfers {
    return {
      addressProblem: solanaRecipientProblem,
      buildTransfer: async ({ asset: assetId, amount, to }) => {
        const asset = resolveSolanaAsset(this.#config, assetId);
        const recipient = new PublicKey(to);
        const recipientAccount = asset.mint === null ? null : associatedTokenAddress(recipient, asset.mint);
        const exists =
          recipientAccount === null ||
          (await this.#rpc.getAccount(recipientAccount, "processed")).account !== null;
        const rent = exists ? 0n : await this.#rpc.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE);
        const instructions = transferInstructions(asset, this.address, recipient, amount, exists);
        const latest = await this.#rpc.getLatestBlockhash("confirmed");
        const draft: TxDraft = {
          instructions,
          blockhash: latest.blockhash,
          lastValidBlockHeight: latest.lastValidBlockHeight,
          computeUnitPriceMicroLamports: this.#config.computeUnitPriceFloorMicroLamports,
          computeUnitLimit: SIMULATION_UNIT_LIMIT,
        };
        const probe = signDraft(this.chain, draft, this.#keypair);
        const result = await this.#rpc.simulate(wireOf(probe.raw));
        if (result.err !== null && result.err !== undefined)
          throw new SolanaTxWouldFailError(
            `withdrawal of ${assetId}`,
            describeTxError(result.err, asset.kind),
            result.logs ?? [],
          );
        const signed = signDraft(
          this.chain,
          { ...draft, computeUnitLimit: computeUnitLimit(result.unitsConsumed ?? SIMULATION_UNIT_LIMIT) },
          this.#keypair,
        );
        return { signed, maxFee: solanaTerms(signed).feeLamports + rent };
      },
    };
  }

  /**
   * `allowance` lets the priority fee pass the configured ceiling, up to the allowance's whole fee: an
   * urgent source redeem cannot be replaced here, only built again once its attempt expired, at a price
   * doubled for each expiry.
   */
  async build(actions: ActionRequest[], allowance?: FeeAllowance): Promise<SignedTx> {
    const action = actions[0];
    if (action === undefined || actions.length !== 1) {
      throw new SolanaActionError(
        `the Solana executor builds one action per transaction, got ${actions.length}`,
      );
    }
    if (action.params.chain !== this.chain) {
      throw new SolanaActionError(
        `action for chain ${action.params.chain} sent to the ${this.chain} executor`,
      );
    }
    const { asset, instructions } = await this.#instructions(action);
    const { draft, fees } = await this.#draft(action, instructions);
    const simulated = await this.#simulate(action, asset, draft);
    const unitLimit = computeUnitLimit(simulated);
    const bounds = allowanceBounds(this.#config, SOLVER_SIGNATURES, unitLimit, allowance);
    const unitPrice = computeUnitPrice(fees.recent, fees.expired, bounds);
    const signed = signDraft(
      this.chain,
      { ...draft, computeUnitLimit: unitLimit, computeUnitPriceMicroLamports: unitPrice },
      this.#keypair,
    );
    if (allowance !== undefined && unitPrice > this.#config.computeUnitPriceCeilingMicroLamports) {
      this.#log?.warn(
        {
          orderId: action.orderId,
          txHash: signed.txHash,
          computeUnitPrice: unitPrice.toString(),
          ceiling: this.#config.computeUnitPriceCeilingMicroLamports.toString(),
          reason: allowance.reason,
        },
        "paying above the fee ceiling",
      );
    }
    this.#log?.info(
      {
        kind: action.kind,
        orderId: action.orderId,
        txHash: signed.txHash,
        computeUnits: simulated.toString(),
        computeUnitPrice: unitPrice.toString(),
      },
      "signed",
    );
    return signed;
  }

  async broadcast(tx: Pick<SignedTx, "raw" | "txHash">): Promise<void> {
    try {
      const signature = await this.#rpc.sendTransaction(wireOf(tx.raw));
      if (signature !== tx.txHash) {
        throw new SolanaBroadcastError(this.chain, tx.txHash, `the node reports signature ${signature}`);
      }
    } catch (error) {
      if (isAlreadyProcessed(error)) return;
      if (error instanceof SolanaRpcError)
        throw new SolanaBroadcastError(this.chain, tx.txHash, preflightText(error));
      throw error;
    }
    this.#log?.info({ txHash: tx.txHash }, "broadcast");
  }

  /**
   * Landed and `confirmed`: mined (its fee from the transaction's meta); only `processed`: pending; not
   * known to the node: dead once the finalized block height is past its blockhash's last valid height
   * (every block that could hold it is final and none does), otherwise unknown (sent again). The height
   * and the status are read from one node, height first.
   */
  async txStatus(attempt: TxAttemptRef, actions: ActionRequest[]): Promise<TxStatus> {
    const terms = solanaTerms(attempt);
    return this.#rpc.sticky("transaction status", async () => {
      const finalizedHeight = await this.#rpc.getBlockHeight("finalized");
      const [status] = await this.#rpc.getSignatureStatuses([attempt.txHash]);
      if (status === null || status === undefined) {
        if (finalizedHeight <= terms.lastValidBlockHeight) return { state: "unknown" };
        const reason = `blockhash ${terms.blockhash} expired at block height ${terms.lastValidBlockHeight} (finalized height ${finalizedHeight}) and the transaction never landed`;
        return { state: "dead", reason };
      }
      if (status.confirmationStatus !== "confirmed" && status.confirmationStatus !== "finalized") {
        return { state: "pending" };
      }
      const [tip, tx] = await Promise.all([
        this.#rpc.getSlot("confirmed"),
        this.#rpc.getTransaction(attempt.txHash, "confirmed"),
      ]);
      const feePaid = tx?.meta?.fee ?? terms.feeLamports;
      if (status.err !== null && status.err !== undefined) {
        const kind =
          actions[0] === undefined
            ? "native"
            : resolveSolanaAsset(this.#config, actions[0].params.asset).kind;
        return {
          state: "failed",
          blockHeight: status.slot,
          reason: describeTxError(status.err, kind, this.#config.programVersion),
          feePaid,
        };
      }
      const confirmations = Number(tip >= status.slot ? tip - status.slot + 1n : 1n);
      return { state: "confirmed", blockHeight: status.slot, confirmations, feePaid };
    });
  }

  /**
   * Never a replacement while the transaction can still land (see the file's comment): a pending one
   * is already in a block, and one the cluster never took is sent again until it expires, then rebuilt
   * at a higher price.
   */
  bump(): Promise<SignedTx | null> {
    return Promise.resolve(null);
  }

  /**
   * Nothing can take a Solana transaction's place: it lands or its blockhash expires. A fill no longer
   * safe is cancelled by not sending it again; it is dead within the blockhash's validity.
   */
  cancel(): Promise<SignedTx | null> {
    return Promise.resolve(null);
  }

  /** Recent prices paid to write the solver's own account, which every transaction of its writes. */
  async networkFees(): Promise<NetworkFeeEstimate> {
    return solanaNetworkFees(await this.#rpc.getRecentPrioritizationFees([this.address]), this.#config);
  }

  /**
   * The solver's balance once every live journaled transaction lands: lamports or tokens at the latest
   * slot, less what each journaled transaction not yet in that slot's state takes (read from its
   * bytes). The journal is read first: a transaction landing in between is counted once, by the chain.
   */
  async balance(assetId: string): Promise<bigint> {
    const asset = resolveSolanaAsset(this.#config, assetId);
    const live = this.#journal.liveAttempts(this.chain);
    const held = await this.#held(asset);
    const statuses = await this.#rpc.getSignatureStatuses(live.map((a) => a.txHash));
    const rent = await this.#rentTable();
    const programs = { native: this.#reader.nativeProgram, spl: this.#reader.splProgram };
    let outstanding = 0n;
    live.forEach((attempt, i) => {
      const status = statuses[i];
      if (status !== null && status !== undefined && status.slot <= held.slot) return;
      outstanding += attemptCost(
        { raw: attempt.raw, terms: solanaTerms(attempt) },
        asset.mint,
        programs,
        rent,
        this.#reader.htlc,
      );
    });
    return held.amount - outstanding;
  }

  async #held(asset: SolanaAsset): Promise<{ slot: bigint; amount: bigint }> {
    if (asset.mint === null) {
      const { slot, lamports } = await this.#rpc.getBalance(this.address, "processed");
      return { slot, amount: lamports };
    }
    const { slot, account } = await this.#rpc.getAccount(
      associatedTokenAddress(this.address, asset.mint),
      "processed",
    );
    if (account === null || account.data.length !== TOKEN_ACCOUNT_SIZE) return { slot, amount: 0n };
    return { slot, amount: decodeTokenAccount(account.data).amount };
  }

  async #rentTable(): Promise<RentTable> {
    const [nativeSwap, splSwap, tokenAccount] = await Promise.all([
      this.#rpc.getMinimumBalanceForRentExemption(this.#reader.htlc.swapSpace("native")),
      this.#rpc.getMinimumBalanceForRentExemption(this.#reader.htlc.swapSpace("spl")),
      this.#rpc.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE),
    ]);
    return { nativeSwap, splSwap, tokenAccount };
  }

  async #instructions(
    action: ActionRequest,
  ): Promise<{ asset: SolanaAsset; instructions: TransactionInstruction[] }> {
    const { asset, terms, address } = this.#reader.swapAccount(action.params);
    const htlc = this.#reader.htlc;
    if (action.kind === "fill") {
      await this.#checkFill(action, asset, address);
      return { asset, instructions: [htlc.fill(asset, terms, this.address)] };
    }
    const swap = await this.#chosenSwap(action, asset, address, terms);
    switch (action.kind) {
      case "redeem": {
        this.#mustBe("redeemer", swap.redeemer, action);
        const secret = this.#secretOf(action, terms.secretHash);
        return {
          asset,
          instructions: [
            ...(await this.#payeeAccount(asset, swap.redeemer)),
            htlc.redeem(asset, swap, secret),
          ],
        };
      }
      case "refund":
        this.#mustBe("refundee", swap.refundee, action);
        return {
          asset,
          instructions: [...(await this.#payeeAccount(asset, swap.refundee)), htlc.refund(asset, swap)],
        };
      case "instant_refund":
        this.#mustBe("redeemer", swap.redeemer, action);
        // The user's own account: an instant refund is the solver's courtesy, never a cost it pays for them.
        await this.#mustExist(asset, swap.refundee, action);
        return { asset, instructions: [htlc.instantRefund(asset, swap)] };
    }
  }

  /**
   * Never fill twice: not when any journaled fill of the order landed (its swap may since have been
   * redeemed and closed, leaving the address empty or holding someone else's initiation). A swap of these
   * terms live on chain that is not the solver's holds the address: the fill would fail until it closes.
   */
  async #checkFill(action: ActionRequest, asset: SolanaAsset, address: PublicKey): Promise<void> {
    if (action.params.initiator !== this.address.toBase58()) {
      throw new SolanaActionError(
        `fill of order ${action.orderId}: initiator ${action.params.initiator} is not the solver (${this.address.toBase58()})`,
      );
    }
    const swapId = this.#reader.computeSwapId(action.params);
    if (swapId !== action.params.swapId.toLowerCase()) {
      throw new SolanaActionError(
        `fill of order ${action.orderId}: stated swap id ${action.params.swapId} differs from ${swapId}`,
      );
    }
    const journaled = this.#journal.actionTxids(action.orderId, "fill");
    const statuses = await this.#rpc.getSignatureStatuses(journaled);
    statuses.forEach((status, i) => {
      if (status !== null && (status.err === null || status.err === undefined)) {
        throw new FillAlreadyLandedError(action.orderId, journaled[i] ?? "");
      }
    });
    if ((await this.#reader.storedSwap(asset, address)) !== null) {
      throw new SwapOccupiedError(address.toBase58(), asset.id);
    }
  }

  /**
   * The live swap the planner chose (its lock: this address, this initiation) with the order's terms,
   * or an error. The terms matter where the address does not commit to them (legacy programs).
   */
  async #chosenSwap(
    action: ActionRequest,
    asset: SolanaAsset,
    address: PublicKey,
    terms: SwapTerms,
  ): Promise<LiveSwap> {
    const swap = await this.#reader.liveSwap(asset, address);
    if (swap === null) {
      throw new SolanaActionError(
        `${action.kind} of order ${action.orderId}: no live swap at ${address.toBase58()} tied to its initiation`,
      );
    }
    const id = lockId(address, swap.expirySlot - swap.timelock);
    if (!(action.locks ?? []).includes(id)) {
      throw new SolanaActionError(
        `${action.kind} of order ${action.orderId}: the swap at ${address.toBase58()} is initiation ${id}, not one the plan named`,
      );
    }
    // An instant refund pays the stored initiator back whatever it locked: only the parties must be the order's.
    const differs = action.kind === "instant_refund" ? partiesDiffer(swap, terms) : termsDiffer(swap, terms);
    if (differs !== null) {
      throw new SolanaActionError(
        `${action.kind} of order ${action.orderId}: the swap at ${address.toBase58()} holds ${differs}`,
      );
    }
    return swap;
  }

  #mustBe(role: "redeemer" | "refundee", stored: PublicKey, action: ActionRequest): void {
    if (!stored.equals(this.address)) {
      throw new SolanaActionError(
        `${action.kind} of order ${action.orderId} needs the swap's ${role} ${stored.toBase58()} to be the solver`,
      );
    }
  }

  #secretOf(action: ActionRequest, secretHash: Uint8Array): Uint8Array {
    if (action.secret === undefined)
      throw new SolanaActionError(`redeem of order ${action.orderId} has no secret`);
    const secret = hexBytes(action.secret, 32, `secret of order ${action.orderId}`);
    if (!secretMatches(secret, secretHash)) {
      throw new SolanaActionError(`secret of order ${action.orderId} does not hash to its secret hash`);
    }
    return secret;
  }

  /**
   * SPL: the user's token account must exist for their instant refund. Someone who closed it after
   * locking their source would otherwise have the solver pay its rent, once per declined order.
   */
  async #mustExist(asset: SolanaAsset, owner: PublicKey, action: ActionRequest): Promise<void> {
    if (asset.mint === null) return;
    const tokenAccount = associatedTokenAddress(owner, asset.mint);
    const { account } = await this.#rpc.getAccount(tokenAccount, "processed");
    if (account === null)
      throw new PayeeAccountMissingError(action.orderId, tokenAccount.toBase58(), asset.id);
  }

  /** SPL: the solver's own associated token account is created when it does not exist yet. */
  async #payeeAccount(asset: SolanaAsset, owner: PublicKey): Promise<TransactionInstruction[]> {
    if (asset.mint === null) return [];
    const { account } = await this.#rpc.getAccount(associatedTokenAddress(owner, asset.mint), "processed");
    if (account !== null) return [];
    return [createAssociatedTokenAccountIdempotentInstruction(this.address, owner, asset.mint)];
  }

  /**
   * The transaction to simulate, at the price the configured bounds give, and what its final price is
   * made from once its unit limit is known: recent fees, and how many attempts of the action expired.
   */
  async #draft(
    action: ActionRequest,
    instructions: TransactionInstruction[],
  ): Promise<{ draft: TxDraft; fees: { recent: bigint[]; expired: number } }> {
    const writable = instructions.flatMap((ix) => ix.keys.filter((k) => k.isWritable).map((k) => k.pubkey));
    const [recent, latest] = await Promise.all([
      this.#rpc.getRecentPrioritizationFees(writable),
      this.#rpc.getLatestBlockhash("confirmed"),
    ]);
    // Every earlier transaction of this action that is not live anymore expired or failed unlanded.
    const expired = this.#journal.actionTxids(action.orderId, action.kind).length;
    return {
      draft: {
        instructions,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        computeUnitPriceMicroLamports: computeUnitPrice(recent, expired, this.#config),
        computeUnitLimit: SIMULATION_UNIT_LIMIT,
      },
      fees: { recent, expired },
    };
  }

  /** Units the transaction uses; a failing simulation is refused, naming the program's error. */
  async #simulate(action: ActionRequest, asset: SolanaAsset, draft: TxDraft): Promise<bigint> {
    const probe = signDraft(this.chain, draft, this.#keypair);
    const result = await this.#rpc.simulate(wireOf(probe.raw));
    if (result.err !== null && result.err !== undefined) {
      throw new SolanaTxWouldFailError(
        `${action.kind} of order ${action.orderId}`,
        describeTxError(result.err, asset.kind, this.#config.programVersion),
        result.logs ?? [],
      );
    }
    return result.unitsConsumed ?? SIMULATION_UNIT_LIMIT;
  }
}

/** Which stored party is not the order's, in words; null when both are. */
function partiesDiffer(swap: LiveSwap, terms: SwapTerms): string | null {
  if (!swap.redeemer.equals(terms.redeemer)) return `redeemer ${swap.redeemer.toBase58()}, not the order's`;
  if (!swap.refundee.equals(terms.refundee)) return `initiator ${swap.refundee.toBase58()}, not the order's`;
  return null;
}

/** Which stored term is not the order's, in words; null when all are. */
function termsDiffer(swap: LiveSwap, terms: SwapTerms): string | null {
  if (swap.swapAmount !== terms.swapAmount) return `amount ${swap.swapAmount}, not ${terms.swapAmount}`;
  if (swap.timelock !== terms.timelock) return `timelock ${swap.timelock}, not ${terms.timelock}`;
  return partiesDiffer(swap, terms);
}

function solanaTerms(attempt: Pick<TxAttemptRef, "terms" | "txHash">): SolanaTxTerms {
  if (attempt.terms.family !== "solana") {
    throw new SolanaActionError(`attempt ${attempt.txHash} was not signed by the Solana executor`);
  }
  return attempt.terms;
}

/** A preflight refusal in words: the error, and the program's last log line when it has one. */
function preflightText(error: SolanaRpcError): string {
  const logs = (error.data as { logs?: unknown } | undefined)?.logs;
  const last = Array.isArray(logs)
    ? logs.filter((l): l is string => typeof l === "string").at(-1)
    : undefined;
  return last === undefined ? error.nodeMessage : `${error.nodeMessage} (${last})`;
}
