/*
 * HTLC program for native SOL, wire-compatible with the live Anchor program "solana_native_swaps":
 * the swap account is a program address of [redeemer, refundee, secret_hash, swap_amount LE, timelock LE]
 * that holds its rent (paid by the rent sponsor) and the swapped lamports (paid by the funder). Redeem,
 * refund and instant refund pay the amount out and close the account to the rent sponsor.
 */
#include "accounts.h"

/* Program errors, numbered like Anchor's #[error_code] (6000 + position). The first five are the live
 * program's; the last two guard inputs the live program leaves unchecked (see docs/solana-programs.md). */
#define ERR_INVALID_REFUNDEE 6000
#define ERR_INVALID_REDEEMER 6001
#define ERR_INVALID_SECRET 6002
#define ERR_INVALID_RENT_SPONSOR 6003
#define ERR_REFUND_BEFORE_EXPIRY 6004
#define ERR_ZERO_SWAP_AMOUNT 6005
#define ERR_EXPIRY_OVERFLOW 6006

static const ErrorDef SWAP_ERRORS[] = {
    {ERR_INVALID_REFUNDEE, "InvalidRefundee", "The refundee account is not the swap's refundee"},
    {ERR_INVALID_REDEEMER, "InvalidRedeemer", "The redeemer account is not the swap's redeemer"},
    {ERR_INVALID_SECRET, "InvalidSecret", "The secret's sha256 is not the swap's secret hash"},
    {ERR_INVALID_RENT_SPONSOR, "InvalidRentSponsor", "The rent sponsor account is not the swap's rent sponsor"},
    {ERR_REFUND_BEFORE_EXPIRY, "RefundBeforeExpiry", "A refund needs the current slot to be past the expiry slot"},
    {ERR_ZERO_SWAP_AMOUNT, "ZeroSwapAmount", "The swap amount must be at least one lamport"},
    {ERR_EXPIRY_OVERFLOW, "ExpiryOverflow", "The current slot plus the timelock does not fit in a u64"},
};

static uint64_t swap_error(const char *account, uint32_t number) {
  return anchor_error(account, &SWAP_ERRORS[number - ERR_INVALID_REFUNDEE]);
}

/* SwapAccount: discriminator, then the Borsh fields at fixed offsets. */
#define SA_EXPIRY_SLOT 8
#define SA_BUMP 16
#define SA_REDEEMER 17
#define SA_REFUNDEE 49
#define SA_SECRET_HASH 81
#define SA_SWAP_AMOUNT 113
#define SA_RENT_SPONSOR 121
#define SA_TIMELOCK 153
#define SWAP_ACCOUNT_SPACE 161

/* The swap's identity as PDA seeds; the last seed is the bump, left out while searching for it. */
typedef struct {
  SolBytes seeds[6];
  uint8_t amount_le[8];
  uint8_t timelock_le[8];
  uint8_t bump;
} SwapSeeds;

typedef struct {
  const uint8_t *redeemer;
  const uint8_t *refundee;
  const uint8_t *secret_hash;
  uint64_t amount;
  uint64_t timelock;
} SwapTerms;

static void swap_seeds(SwapSeeds *s, const SwapTerms *t) {
  write_u64_le(s->amount_le, t->amount);
  write_u64_le(s->timelock_le, t->timelock);
  s->seeds[0] = (SolBytes){t->redeemer, PUBKEY_BYTES};
  s->seeds[1] = (SolBytes){t->refundee, PUBKEY_BYTES};
  s->seeds[2] = (SolBytes){t->secret_hash, 32};
  s->seeds[3] = (SolBytes){s->amount_le, 8};
  s->seeds[4] = (SolBytes){s->timelock_le, 8};
  s->seeds[5] = (SolBytes){&s->bump, 1};
}

static void stored_terms(const uint8_t *data, SwapTerms *t) {
  t->redeemer = data + SA_REDEEMER;
  t->refundee = data + SA_REFUNDEE;
  t->secret_hash = data + SA_SECRET_HASH;
  t->amount = read_u64_le(data + SA_SWAP_AMOUNT);
  t->timelock = read_u64_le(data + SA_TIMELOCK);
}

/* Redeemed, Refunded and InstantRefunded share one shape: the fourth field is the secret or its hash. */
static bool emit_settled(const uint8_t discriminator[DISCRIMINATOR_BYTES], const SwapTerms *t,
                         const uint8_t *secret_or_hash) {
  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, discriminator, DISCRIMINATOR_BYTES);
  event_bytes(&w, t->redeemer, PUBKEY_BYTES);
  event_bytes(&w, t->refundee, PUBKEY_BYTES);
  event_bytes(&w, secret_or_hash, 32);
  event_u64(&w, t->amount);
  event_u64(&w, t->timelock);
  return event_emit(&w);
}

/* initiate(redeemer, refundee, secret_hash, swap_amount, timelock, destination_data)
 * accounts: swap_account (mut, PDA, created), funder (mut, signer), rent_sponsor (mut, signer), system_program */
static uint64_t initiate(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  SwapTerms t;
  bool has_destination;
  const uint8_t *destination;
  uint32_t destination_len;
  if (!read_bytes(&r, PUBKEY_BYTES, &t.redeemer) || !read_bytes(&r, PUBKEY_BYTES, &t.refundee) ||
      !read_bytes(&r, 32, &t.secret_hash) || !read_u64(&r, &t.amount) || !read_u64(&r, &t.timelock) ||
      !read_option_bytes(&r, &has_destination, &destination, &destination_len)) {
    return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  }
  if (in->account_count < 4) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *funder = &in->accounts[1];
  SolAccountInfo *sponsor = &in->accounts[2];
  uint64_t err;
  if ((err = require_signer(funder, "funder")) || (err = require_signer(sponsor, "rent_sponsor")) ||
      (err = require_program(&in->accounts[3], &SYSTEM_PROGRAM_ID, "system_program")) ||
      (err = require_writable(swap, "swap_account")) || (err = require_writable(funder, "funder")) ||
      (err = require_writable(sponsor, "rent_sponsor"))) {
    return err;
  }
  if (t.amount == 0) return swap_error(NULL, ERR_ZERO_SWAP_AMOUNT);

  SwapSeeds s;
  swap_seeds(&s, &t);
  SolSignerSeeds search = {s.seeds, 5};
  if ((err = require_canonical_pda(swap, &search, in->program_id, &s.bump, "swap_account"))) return err;
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot > UINT64_MAX - t.timelock) return swap_error(NULL, ERR_EXPIRY_OVERFLOW);

  SolSignerSeeds signer = {s.seeds, 6};
  AccountInit init = {sponsor, swap, &signer, in->program_id, SWAP_ACCOUNT_SPACE};
  bool rent_ok;
  if ((err = init_account(&init, &rent_ok))) return err;
  if ((err = system_transfer(funder, swap, t.amount, NULL))) return err;

  uint8_t *d = swap->data;
  bytes_copy(d, SWAP_ACCOUNT_DISCRIMINATOR, DISCRIMINATOR_BYTES);
  write_u64_le(d + SA_EXPIRY_SLOT, slot + t.timelock);
  d[SA_BUMP] = s.bump;
  bytes_copy(d + SA_REDEEMER, t.redeemer, PUBKEY_BYTES);
  bytes_copy(d + SA_REFUNDEE, t.refundee, PUBKEY_BYTES);
  bytes_copy(d + SA_SECRET_HASH, t.secret_hash, 32);
  write_u64_le(d + SA_SWAP_AMOUNT, t.amount);
  bytes_copy(d + SA_RENT_SPONSOR, sponsor->key, PUBKEY_BYTES);
  write_u64_le(d + SA_TIMELOCK, t.timelock);

  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, EV_INITIATED, DISCRIMINATOR_BYTES);
  event_bytes(&w, t.redeemer, PUBKEY_BYTES);
  event_bytes(&w, t.refundee, PUBKEY_BYTES);
  event_bytes(&w, t.secret_hash, 32);
  event_u64(&w, t.amount);
  event_u64(&w, t.timelock);
  uint8_t tag = has_destination ? 1 : 0;
  event_bytes(&w, &tag, 1);
  if (has_destination) {
    uint8_t len_le[4];
    write_u32_le(len_le, destination_len);
    event_bytes(&w, len_le, 4);
    event_bytes(&w, destination, destination_len);
  }
  event_bytes(&w, funder->key, PUBKEY_BYTES);
  return event_emit(&w) ? 0 : ERR_EVENT_TOO_LARGE;
}

/*
 * Loads the swap account for redeem / refund / instant refund: owned by this program, a SwapAccount,
 * writable, and the program address of its own stored terms and bump (Anchor's `seeds` + `bump`).
 */
static uint64_t load_swap(ProgramInput *in, SwapTerms *t) {
  SolAccountInfo *swap = &in->accounts[0];
  uint64_t err;
  if ((err = require_account(swap, in->program_id, SWAP_ACCOUNT_DISCRIMINATOR, SWAP_ACCOUNT_SPACE,
                             "swap_account"))) {
    return err;
  }
  stored_terms(swap->data, t);
  return 0;
}

static uint64_t check_swap_address(ProgramInput *in, const SwapTerms *t) {
  SolAccountInfo *swap = &in->accounts[0];
  uint64_t err;
  if ((err = require_writable(swap, "swap_account"))) return err;
  SwapSeeds s;
  swap_seeds(&s, t);
  s.bump = swap->data[SA_BUMP];
  SolSignerSeeds seeds = {s.seeds, 6};
  return require_pda(swap, &seeds, in->program_id, "swap_account");
}

/* A party account (payee or rent sponsor): writable, and the key the swap stored for that party. */
static uint64_t check_party(SolAccountInfo *account, const uint8_t *stored, const char *name, uint32_t error) {
  uint64_t err;
  if ((err = require_writable(account, name))) return err;
  return bytes_equal(account->key, stored, PUBKEY_BYTES) ? 0 : swap_error(name, error);
}

/* redeem(secret). accounts: swap_account (mut), redeemer (mut, = stored), rent_sponsor (mut, = stored) */
static uint64_t redeem(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  const uint8_t *secret;
  if (!read_bytes(&r, 32, &secret)) return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  if (in->account_count < 3) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *redeemer = &in->accounts[1];
  SolAccountInfo *sponsor = &in->accounts[2];
  SwapTerms t;
  uint64_t err;
  if ((err = load_swap(in, &t)) || (err = check_swap_address(in, &t)) ||
      (err = check_party(redeemer, t.redeemer, "redeemer", ERR_INVALID_REDEEMER)) ||
      (err = check_party(sponsor, swap->data + SA_RENT_SPONSOR, "rent_sponsor", ERR_INVALID_RENT_SPONSOR))) {
    return err;
  }
  uint8_t hash[32];
  SolBytes preimage = {secret, 32};
  if ((err = sol_sha256(&preimage, 1, hash))) return err;
  if (!bytes_equal(hash, t.secret_hash, 32)) return swap_error(NULL, ERR_INVALID_SECRET);

  if ((err = move_lamports(swap, redeemer, t.amount))) return err;
  if (!emit_settled(EV_REDEEMED, &t, secret)) return ERR_EVENT_TOO_LARGE;
  return close_account(swap, sponsor);
}

/* refund(). accounts: swap_account (mut), refundee (mut, = stored), rent_sponsor (mut, = stored) */
static uint64_t refund(ProgramInput *in) {
  if (in->account_count < 3) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *refundee = &in->accounts[1];
  SolAccountInfo *sponsor = &in->accounts[2];
  SwapTerms t;
  uint64_t err;
  if ((err = load_swap(in, &t)) || (err = check_swap_address(in, &t)) ||
      (err = check_party(refundee, t.refundee, "refundee", ERR_INVALID_REFUNDEE)) ||
      (err = check_party(sponsor, swap->data + SA_RENT_SPONSOR, "rent_sponsor", ERR_INVALID_RENT_SPONSOR))) {
    return err;
  }
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot <= read_u64_le(swap->data + SA_EXPIRY_SLOT)) return swap_error(NULL, ERR_REFUND_BEFORE_EXPIRY);

  if ((err = move_lamports(swap, refundee, t.amount))) return err;
  if (!emit_settled(EV_REFUNDED, &t, t.secret_hash)) return ERR_EVENT_TOO_LARGE;
  return close_account(swap, sponsor);
}

/* instant_refund(). accounts: swap_account (mut), refundee (mut, = stored), redeemer (signer, = stored),
 * rent_sponsor (mut, = stored) */
static uint64_t instant_refund(ProgramInput *in) {
  if (in->account_count < 4) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *refundee = &in->accounts[1];
  SolAccountInfo *redeemer = &in->accounts[2];
  SolAccountInfo *sponsor = &in->accounts[3];
  SwapTerms t;
  uint64_t err;
  if ((err = load_swap(in, &t)) || (err = require_signer(redeemer, "redeemer")) ||
      (err = check_swap_address(in, &t)) ||
      (err = check_party(refundee, t.refundee, "refundee", ERR_INVALID_REFUNDEE))) {
    return err;
  }
  if (!bytes_equal(redeemer->key, t.redeemer, PUBKEY_BYTES)) return swap_error("redeemer", ERR_INVALID_REDEEMER);
  if ((err = check_party(sponsor, swap->data + SA_RENT_SPONSOR, "rent_sponsor", ERR_INVALID_RENT_SPONSOR))) {
    return err;
  }

  if ((err = move_lamports(swap, refundee, t.amount))) return err;
  if (!emit_settled(EV_INSTANT_REFUNDED, &t, t.secret_hash)) return ERR_EVENT_TOO_LARGE;
  return close_account(swap, sponsor);
}

uint64_t entrypoint(uint8_t *input) {
  ProgramInput in;
  parse_input(input, &in);
  if (in.data_len < DISCRIMINATOR_BYTES) return framework_error(NULL, ERR_INSTRUCTION_MISSING);
  if (bytes_equal(in.data, IX_INITIATE, DISCRIMINATOR_BYTES)) {
    log_text("Instruction: Initiate");
    return initiate(&in);
  }
  if (bytes_equal(in.data, IX_REDEEM, DISCRIMINATOR_BYTES)) {
    log_text("Instruction: Redeem");
    return redeem(&in);
  }
  if (bytes_equal(in.data, IX_REFUND, DISCRIMINATOR_BYTES)) {
    log_text("Instruction: Refund");
    return refund(&in);
  }
  if (bytes_equal(in.data, IX_INSTANT_REFUND, DISCRIMINATOR_BYTES)) {
    log_text("Instruction: InstantRefund");
    return instant_refund(&in);
  }
  return framework_error(NULL, ERR_INSTRUCTION_FALLBACK_NOT_FOUND);
}
