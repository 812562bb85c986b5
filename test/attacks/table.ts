/**
 * The attack table: every way a solver loses money, as classes, and for each class which chain families
 * run it. Each class is one test file here (`<slug>.test.ts`) that runs the class against every family
 * that can express it; a family that cannot says why, in words, in this table. A family is not done until
 * it runs every class it can express: adding a family to `FAMILIES` fails every class file until the class
 * says what the new family does (`forEachFamily`).
 *
 * `docs/attack-table.md` is rendered from this table (`npm run attack-table`); a test keeps the two equal.
 */
/**
 * `solana` runs the current Solana HTLC programs, `solana_legacy` the older ones a chain names with
 * `programVersion: "legacy"` (docs/solana-programs.md): their swap addresses commit to other terms, so
 * each class is run, or ruled out, on each version.
 */
export const FAMILIES = ["evm", "bitcoin", "solana", "solana_legacy", "starknet", "sui"] as const;
export type Family = (typeof FAMILIES)[number];

export interface AttackClass {
  slug: string;
  title: string;
  /** How the class shows on the families met so far. */
  looksLike: string;
  /** The rule that holds against it, and where it lives. */
  holds: string;
  /** Families that cannot express the class, each with the reason. */
  cannotExpress: Partial<Record<Family, string>>;
  /** Set while the project does not defend the class yet: what is missing. No family passes it then. */
  open?: string;
}

export const ATTACK_CLASSES: readonly AttackClass[] = [
  {
    slug: "lying-service",
    title: "The service lies",
    looksLike:
      "any order field (amounts, parties, secret hash, timelock, swap id, confirmations, status, secret); " +
      "two orders on one source; terms or amounts changed after the solver committed; a Starknet order id " +
      "spelled another way (0x, upper case, leading zeros) or computed in the other contract version's layout",
    holds:
      "every fact that moves money is read from the chain or recomputed (`src/solver/filters/`); terms are " +
      "frozen at the first commitment (`order-terms.ts`); one source backs one order (`source_claims`)",
    cannotExpress: {},
  },
  {
    slug: "source-value",
    title: "Source value that is not there",
    looksLike:
      "value unconfirmed or confirmed as dust beside an evictable deposit; a deposit reorganised away; part " +
      "of a source refunded; an instant refund the solver signed followed by a fill; a source on another contract " +
      "(on Starknet a second HTLC of the same token takes the same terms, under the deployed layout the same id)",
    holds:
      "only value at the required depth on the solver's own node counts, lock by lock (`source-cover.ts`, " +
      "`htlc-locks.ts`); a fill and an instant refund exclude each other (`exclusive-claims.ts`); only the " +
      "configured contract or program is read",
    cannotExpress: {},
  },
  {
    slug: "foreign-value",
    title: "Foreign value at an HTLC address or id",
    looksLike:
      "dust or late outputs at a Bitcoin destination; a destination the user funded themselves with the " +
      "solver named as its initiator or refundee (on the legacy Solana programs the initiator must sign: the " +
      "user's attempt is refused; on Starknet `initiate_on_behalf` takes the order id for good); lamports " +
      "sent to a Solana swap account before the fill; tokens sent straight to an HTLC contract",
    holds:
      "the solver's fill is the transaction it journaled (`own-fill.ts`); a record the solver did not make " +
      "holds the address and the fill waits (`destination_occupied`); refunds take only mature outputs",
    cannotExpress: {},
  },
  {
    slug: "reuse-after-close",
    title: "Re-use after close",
    looksLike:
      "the same address initiated again after a redeem (current Solana addresses are derived from the terms; " +
      "legacy ones from the initiator and the secret hash, so only the initiator can try); an " +
      "order id or a signed initiation used again; a Bitcoin address paid again after the swap; the solver's " +
      "Starknet instant refund signature replayed at another HTLC (the deployed contract signs no contract); " +
      "on Sui an order id is initiated again (the module keeps every order as a field: abort 7), and there is " +
      "no instant refund signature to replay (`instant_refund` checks that the redeemer sends it)",
    holds:
      "what lives at an address is judged against the solver's journaled initiation, and what closed that " +
      "one is found wherever it is (`initiation-follower.ts`); a settled order's source backs nothing more",
    cannotExpress: {},
  },
  {
    slug: "hidden-redeem",
    title: "Hiding the redeem",
    looksLike:
      "history spam past a reader's page limit; a redeem made through another contract or program (on " +
      "Starknet, another account's multicall); an address flooded with outputs; events shaped like the " +
      "HTLC's `Redeemed` at the order id from another contract (on Sui, another package's `AtomicSwap`, also " +
      "inside the redeeming transaction)",
    holds:
      "follow from the solver's own fill forward with a kept position, never give up, attribute what is " +
      "found to the configured contract or program (`address-scan.ts`, EVM `Redeemed` logs of the HTLC, " +
      "Starknet `Redeemed` events of the HTLC from the order's block, paged, `reader.ts`; on Sui the order " +
      "field's last transaction, its `Redeemed` of the configured package whose secret hashes to the order's)",
    cannotExpress: {},
  },
  {
    slug: "secret",
    title: "The secret",
    looksLike:
      "a secret of another length than the source accepts (Bitcoin's leaf checks only the hash; the Starknet " +
      "HTLC takes any whole number of u32 words), whoever the service says holds it; a secret that does not " +
      "hash to the order's",
    holds:
      "the destination accepts no secret the source would refuse, or the order is not filled nor quoted " +
      "(`checkSecretUsable`); only a preimage of the hash is ever used (`known-secret.ts`)",
    // Run per source family: the source is the chain that refuses what the destination's redeem revealed.
    cannotExpress: {
      bitcoin:
        "a Bitcoin source takes any preimage of the hash: no destination can reveal a secret it refuses",
    },
  },
  {
    slug: "time",
    title: "Time",
    looksLike:
      "a fill held back (a fee floor, a node that does not relay, gas prices above the ceiling) until the " +
      "source can be refunded; a secret revealed close to the source's refund; stale chain heads; a " +
      "destination timelock in blocks against a source's in another chain's blocks (a Sui one in ms of its " +
      "clock)",
    holds:
      "every rule is asked again before a fill is re-sent; an unsafe fill is cancelled (`attempt-follower.ts`; " +
      "a signed Sui transaction cannot be replaced, so none is signed above the gas price ceiling); " +
      "an urgent redeem may pay past the fee ceiling (`fee-allowance.ts`); a head whose block lags the clock " +
      "is not used (`endpoint-pool.ts`)",
    cannotExpress: {},
  },
  {
    slug: "price-inventory",
    title: "Price, inventory and cost",
    looksLike:
      "a burst of orders against the inventory and the exposure limit; an order asking more than the quote; " +
      "amounts restated after the terms froze; a quote flood",
    holds:
      "each fill is judged after those before it on fresh balances (`fill-gate.ts`, `capacity-ledger.ts`); " +
      "pricing at fill time of the terms the fill carries; the quote endpoint bounded per client",
    cannotExpress: {},
  },
  {
    slug: "faults",
    title: "Faults of the process and its nodes",
    looksLike:
      "a crash between each step of a fill; a transaction the node forgot; two instances on one journal; a " +
      "reorganisation taking out a redeem; a payment chained on one later replaced; a nonce taken by " +
      "another transaction of the solver's account (on Sui, a gas coin spent between the dry run and the send); " +
      "a node stuck at an old head",
    holds:
      "journal first, broadcast second; every attempt ends (`attempt-follower.ts`); one instance by lease " +
      "(`lease.ts`); replacements follow the chain's rules for descendants",
    cannotExpress: {},
  },
  {
    slug: "host",
    title: "The host",
    looksLike: "keys read from the daemon's memory; ERC20 allowances without a bound",
    holds: "keys apart from the daemon, with a policy and limits of their own",
    cannotExpress: {},
    open:
      "the daemon holds every key in its own memory and approves ERC20 allowances without a bound; a signer " +
      "apart, with its own policy and limits, is not built yet",
  },
];

export function attackClass(slug: string): AttackClass {
  const found = ATTACK_CLASSES.find((c) => c.slug === slug);
  if (found === undefined) throw new Error(`no attack class ${slug} in test/attacks/table.ts`);
  return found;
}
