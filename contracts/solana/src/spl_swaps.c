/*
 * HTLC program for SPL tokens, wire-compatible with the live Anchor program "solana_spl_swaps": the swap
 * state lives in a program address of [mint, redeemer, refundee, secret_hash, swap_amount LE, timelock LE];
 * the tokens of every swap of one mint sit in one vault, the token account at the program address [mint]
 * whose owner is the identity address (seeds []). Transfers out of the vault are signed by the identity.
 */
#include "token.h"

/* Program errors, numbered like Anchor's #[error_code]. The first four are the live program's; the last
 * two guard inputs the live program leaves unchecked (see docs/solana-programs.md). */
#define ERR_INVALID_REDEEMER 6000
#define ERR_INVALID_SECRET 6001
#define ERR_INVALID_RENT_SPONSOR 6002
#define ERR_REFUND_BEFORE_EXPIRY 6003
#define ERR_ZERO_SWAP_AMOUNT 6004
#define ERR_EXPIRY_OVERFLOW 6005

static const ErrorDef SWAP_ERRORS[] = {
    {ERR_INVALID_REDEEMER, "InvalidRedeemer", "The redeemer account is not the swap's redeemer"},
    {ERR_INVALID_SECRET, "InvalidSecret", "The secret's sha256 is not the swap's secret hash"},
    {ERR_INVALID_RENT_SPONSOR, "InvalidRentSponsor", "The rent sponsor account is not the swap's rent sponsor"},
    {ERR_REFUND_BEFORE_EXPIRY, "RefundBeforeExpiry", "A refund needs the current slot to be past the expiry slot"},
    {ERR_ZERO_SWAP_AMOUNT, "ZeroSwapAmount", "The swap amount must be at least one base unit"},
    {ERR_EXPIRY_OVERFLOW, "ExpiryOverflow", "The current slot plus the timelock does not fit in a u64"},
};

static uint64_t swap_error(const char *account, uint32_t number) {
  return anchor_error(account, &SWAP_ERRORS[number - ERR_INVALID_REDEEMER]);
}

/* SwapAccount (SPL layout): discriminator, then the Borsh fields at fixed offsets. */
#define SA_BUMP 8
#define SA_EXPIRY_SLOT 9
#define SA_IDENTITY_BUMP 17
#define SA_RENT_SPONSOR 18
#define SA_MINT 50
#define SA_REDEEMER 82
#define SA_REFUNDEE 114
#define SA_SECRET_HASH 146
#define SA_SWAP_AMOUNT 178
#define SA_TIMELOCK 186
#define SWAP_ACCOUNT_SPACE 194

typedef struct {
  const uint8_t *mint;
  const uint8_t *redeemer;
  const uint8_t *refundee;
  const uint8_t *secret_hash;
  uint64_t amount;
  uint64_t timelock;
} SwapTerms;

/* The swap's PDA seeds; the last one is the bump, left out while searching for it. */
typedef struct {
  SolBytes seeds[7];
  uint8_t amount_le[8];
  uint8_t timelock_le[8];
  uint8_t bump;
} SwapSeeds;

static void swap_seeds(SwapSeeds *s, const SwapTerms *t) {
  write_u64_le(s->amount_le, t->amount);
  write_u64_le(s->timelock_le, t->timelock);
  s->seeds[0] = (SolBytes){t->mint, PUBKEY_BYTES};
  s->seeds[1] = (SolBytes){t->redeemer, PUBKEY_BYTES};
  s->seeds[2] = (SolBytes){t->refundee, PUBKEY_BYTES};
  s->seeds[3] = (SolBytes){t->secret_hash, 32};
  s->seeds[4] = (SolBytes){s->amount_le, 8};
  s->seeds[5] = (SolBytes){s->timelock_le, 8};
  s->seeds[6] = (SolBytes){&s->bump, 1};
}

static void event_start(EventWriter *w, const uint8_t discriminator[DISCRIMINATOR_BYTES], const SwapTerms *t) {
  *w = (EventWriter){HEAP_START, 0, HEAP_BYTES};
  event_bytes(w, discriminator, DISCRIMINATOR_BYTES);
  event_bytes(w, t->mint, PUBKEY_BYTES);
  event_bytes(w, t->redeemer, PUBKEY_BYTES);
  event_bytes(w, t->refundee, PUBKEY_BYTES);
}

/* Redeemed, Refunded and InstantRefunded share one shape: the fifth field is the secret or its hash. */
static bool emit_settled(const uint8_t discriminator[DISCRIMINATOR_BYTES], const SwapTerms *t,
                         const uint8_t *secret_or_hash) {
  EventWriter w;
  event_start(&w, discriminator, t);
  event_bytes(&w, secret_or_hash, 32);
  event_u64(&w, t->amount);
  event_u64(&w, t->timelock);
  return event_emit(&w);
}

typedef struct {
  SolAccountInfo *identity;
  SolAccountInfo *swap;
  SolAccountInfo *vault;
  SolAccountInfo *funder;
  SolAccountInfo *funder_tokens;
  SolAccountInfo *mint;
  SolAccountInfo *sponsor;
} InitiateAccounts;

/* Anchor's account loading and constraints for Initiate, in field order. */
static uint64_t check_initiate_accounts(ProgramInput *in, const InitiateAccounts *a, uint8_t *identity_bump) {
  SolSignerSeeds no_seeds = {NULL, 0};
  uint64_t err;
  if ((err = require_canonical_pda(a->identity, &no_seeds, in->program_id, identity_bump, "identity_pda")) ||
      (err = require_signer(a->funder, "funder")) ||
      (err = require_token_account(a->funder_tokens, "funder_token_account")) ||
      (err = require_mint(a->mint, "mint")) || (err = require_signer(a->sponsor, "rent_sponsor")) ||
      (err = require_program(&in->accounts[7], &TOKEN_PROGRAM_ID, "token_program")) ||
      (err = require_program(&in->accounts[8], &SYSTEM_PROGRAM_ID, "system_program")) ||
      (err = require_writable(a->swap, "swap_data")) || (err = require_writable(a->vault, "token_vault")) ||
      (err = require_writable(a->funder_tokens, "funder_token_account")) ||
      (err = require_token_fields(a->funder_tokens, a->mint->key->bytes, a->funder->key->bytes,
                                  "funder_token_account")) ||
      (err = require_writable(a->sponsor, "rent_sponsor"))) {
    return err;
  }
  return 0;
}

/* Anchor's `init_if_needed` for the vault: create and initialize it on a mint's first swap; afterwards
 * it must be a token account of that mint owned by the identity address. */
static uint64_t ensure_vault(ProgramInput *in, const InitiateAccounts *a) {
  uint8_t bump;
  uint64_t err;
  if ((err = require_vault_address(a->vault, a->mint->key->bytes, in->program_id, &bump))) return err;
  if (!pubkey_equal(a->vault->owner, &SYSTEM_PROGRAM_ID)) {
    if ((err = require_token_account(a->vault, "token_vault"))) return err;
    return require_token_fields(a->vault, a->mint->key->bytes, a->identity->key->bytes, "token_vault");
  }
  SolBytes seeds[2] = {{a->mint->key->bytes, PUBKEY_BYTES}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  AccountInit init = {a->sponsor, a->vault, &signer, &TOKEN_PROGRAM_ID, TOKEN_ACCOUNT_LEN};
  bool rent_ok;
  if ((err = init_account(&init, &rent_ok))) return err;
  return token_initialize_account(a->vault, a->mint, a->identity->key);
}

/* initiate(redeemer, refundee, secret_hash, swap_amount, timelock, destination_data)
 * accounts: identity_pda, swap_data (mut), token_vault (mut), funder (signer), funder_token_account (mut),
 * mint, rent_sponsor (mut, signer), token_program, system_program */
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
  if (in->account_count < 9) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  InitiateAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                        &in->accounts[4], &in->accounts[5], &in->accounts[6]};
  uint8_t identity_bump;
  uint64_t err;
  if ((err = check_initiate_accounts(in, &a, &identity_bump))) return err;
  if (t.amount == 0) return swap_error(NULL, ERR_ZERO_SWAP_AMOUNT);
  t.mint = a.mint->key->bytes;

  SwapSeeds s;
  swap_seeds(&s, &t);
  SolSignerSeeds search = {s.seeds, 6};
  if ((err = require_canonical_pda(a.swap, &search, in->program_id, &s.bump, "swap_data"))) return err;
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot > UINT64_MAX - t.timelock) return swap_error(NULL, ERR_EXPIRY_OVERFLOW);

  SolSignerSeeds signer = {s.seeds, 7};
  AccountInit init = {a.sponsor, a.swap, &signer, in->program_id, SWAP_ACCOUNT_SPACE};
  bool rent_ok;
  if ((err = init_account(&init, &rent_ok)) || (err = ensure_vault(in, &a)) ||
      (err = token_transfer(a.funder_tokens, a.vault, a.funder, t.amount, NULL))) {
    return err;
  }

  uint8_t *d = a.swap->data;
  bytes_copy(d, SWAP_ACCOUNT_DISCRIMINATOR, DISCRIMINATOR_BYTES);
  d[SA_BUMP] = s.bump;
  write_u64_le(d + SA_EXPIRY_SLOT, slot + t.timelock);
  d[SA_IDENTITY_BUMP] = identity_bump;
  bytes_copy(d + SA_RENT_SPONSOR, a.sponsor->key, PUBKEY_BYTES);
  bytes_copy(d + SA_MINT, t.mint, PUBKEY_BYTES);
  bytes_copy(d + SA_REDEEMER, t.redeemer, PUBKEY_BYTES);
  bytes_copy(d + SA_REFUNDEE, t.refundee, PUBKEY_BYTES);
  bytes_copy(d + SA_SECRET_HASH, t.secret_hash, 32);
  write_u64_le(d + SA_SWAP_AMOUNT, t.amount);
  write_u64_le(d + SA_TIMELOCK, t.timelock);

  EventWriter w;
  event_start(&w, EV_INITIATED, &t);
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
  event_bytes(&w, a.funder->key, PUBKEY_BYTES);
  return event_emit(&w) ? 0 : ERR_EVENT_TOO_LARGE;
}

/* The accounts redeem, refund and instant refund share: identity, swap data, vault, the payee's token
 * account and the rent sponsor, at these positions, and the token program at `token_program`. */
typedef struct {
  SolAccountInfo *identity;
  SolAccountInfo *swap;
  SolAccountInfo *vault;
  SolAccountInfo *payee_tokens;
  SolAccountInfo *sponsor;
  const char *payee_tokens_name;
} SettleAccounts;

/*
 * Loads the swap (owned by this program, a SwapAccount) and checks everything a settlement relies on:
 * the identity and swap addresses from the stored bumps, the vault (the [mint] address, that mint, the
 * identity as owner), the payee's token account (that mint, owned by `payee`), and the rent sponsor.
 */
static uint64_t load_settlement(ProgramInput *in, const SettleAccounts *a, uint64_t token_program,
                                SwapTerms *t) {
  uint64_t err;
  if ((err = require_account(a->swap, in->program_id, SWAP_ACCOUNT_DISCRIMINATOR, SWAP_ACCOUNT_SPACE,
                             "swap_data")) ||
      (err = require_token_account(a->vault, "token_vault")) ||
      (err = require_token_account(a->payee_tokens, a->payee_tokens_name)) ||
      (err = require_program(&in->accounts[token_program], &TOKEN_PROGRAM_ID, "token_program"))) {
    return err;
  }
  const uint8_t *d = a->swap->data;
  t->mint = d + SA_MINT;
  t->redeemer = d + SA_REDEEMER;
  t->refundee = d + SA_REFUNDEE;
  t->secret_hash = d + SA_SECRET_HASH;
  t->amount = read_u64_le(d + SA_SWAP_AMOUNT);
  t->timelock = read_u64_le(d + SA_TIMELOCK);

  SolBytes identity_seed = {d + SA_IDENTITY_BUMP, 1};
  SolSignerSeeds identity_seeds = {&identity_seed, 1};
  if ((err = require_pda(a->identity, &identity_seeds, in->program_id, "identity_pda"))) return err;
  SwapSeeds s;
  swap_seeds(&s, t);
  s.bump = d[SA_BUMP];
  SolSignerSeeds swap_seeds_all = {s.seeds, 7};
  uint8_t vault_bump;
  if ((err = require_writable(a->swap, "swap_data")) ||
      (err = require_pda(a->swap, &swap_seeds_all, in->program_id, "swap_data")) ||
      (err = require_writable(a->vault, "token_vault")) ||
      (err = require_vault_address(a->vault, t->mint, in->program_id, &vault_bump)) ||
      (err = require_token_fields(a->vault, t->mint, a->identity->key->bytes, "token_vault")) ||
      (err = require_writable(a->payee_tokens, a->payee_tokens_name))) {
    return err;
  }
  return 0;
}

static uint64_t check_sponsor(const SettleAccounts *a) {
  uint64_t err;
  if ((err = require_writable(a->sponsor, "rent_sponsor"))) return err;
  if (!bytes_equal(a->sponsor->key, a->swap->data + SA_RENT_SPONSOR, PUBKEY_BYTES)) {
    return swap_error("rent_sponsor", ERR_INVALID_RENT_SPONSOR);
  }
  return 0;
}

/* Pays the swap amount out of the vault (signed by the identity), emits the event, closes the swap. */
static uint64_t settle(const SettleAccounts *a, const SwapTerms *t, const uint8_t discriminator[DISCRIMINATOR_BYTES],
                       const uint8_t *secret_or_hash) {
  SolBytes identity_seed = {a->swap->data + SA_IDENTITY_BUMP, 1};
  SolSignerSeeds identity = {&identity_seed, 1};
  uint64_t err;
  if ((err = token_transfer(a->vault, a->payee_tokens, a->identity, t->amount, &identity))) return err;
  if (!emit_settled(discriminator, t, secret_or_hash)) return ERR_EVENT_TOO_LARGE;
  return close_account(a->swap, a->sponsor);
}

/* redeem(secret). accounts: identity_pda, swap_data (mut), token_vault (mut), redeemer_token_account (mut,
 * owner = stored redeemer), rent_sponsor (mut, = stored), token_program */
static uint64_t redeem(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  const uint8_t *secret;
  if (!read_bytes(&r, 32, &secret)) return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  if (in->account_count < 6) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[4], "redeemer_token_account"};
  SwapTerms t;
  uint64_t err;
  if ((err = load_settlement(in, &a, 5, &t)) ||
      (err = require_token_fields(a.payee_tokens, t.mint, t.redeemer, a.payee_tokens_name)) ||
      (err = check_sponsor(&a))) {
    return err;
  }
  uint8_t hash[32];
  SolBytes preimage = {secret, 32};
  if ((err = sol_sha256(&preimage, 1, hash))) return err;
  if (!bytes_equal(hash, t.secret_hash, 32)) return swap_error(NULL, ERR_INVALID_SECRET);
  return settle(&a, &t, EV_REDEEMED, secret);
}

/* refund(). accounts: identity_pda, swap_data (mut), token_vault (mut), refundee_token_account (mut,
 * owner = stored refundee), rent_sponsor (mut, = stored), token_program */
static uint64_t refund(ProgramInput *in) {
  if (in->account_count < 6) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[4], "refundee_token_account"};
  SwapTerms t;
  uint64_t err;
  if ((err = load_settlement(in, &a, 5, &t)) ||
      (err = require_token_fields(a.payee_tokens, t.mint, t.refundee, a.payee_tokens_name)) ||
      (err = check_sponsor(&a))) {
    return err;
  }
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot <= read_u64_le(a.swap->data + SA_EXPIRY_SLOT)) return swap_error(NULL, ERR_REFUND_BEFORE_EXPIRY);
  return settle(&a, &t, EV_REFUNDED, t.secret_hash);
}

/* instant_refund(). accounts: identity_pda, swap_data (mut), token_vault (mut), refundee_token_account
 * (mut), redeemer (mut, signer, = stored), rent_sponsor (mut, = stored), token_program */
static uint64_t instant_refund(ProgramInput *in) {
  if (in->account_count < 7) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[5], "refundee_token_account"};
  SolAccountInfo *redeemer = &in->accounts[4];
  SwapTerms t;
  uint64_t err;
  if ((err = require_signer(redeemer, "redeemer")) || (err = load_settlement(in, &a, 6, &t)) ||
      (err = require_token_fields(a.payee_tokens, t.mint, t.refundee, a.payee_tokens_name)) ||
      (err = require_writable(redeemer, "redeemer"))) {
    return err;
  }
  if (!bytes_equal(redeemer->key, t.redeemer, PUBKEY_BYTES)) return swap_error("redeemer", ERR_INVALID_REDEEMER);
  if ((err = check_sponsor(&a))) return err;
  return settle(&a, &t, EV_INSTANT_REFUNDED, t.secret_hash);
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
