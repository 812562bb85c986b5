/*
 * HTLC program for SPL tokens with the older interface (the service's "solana_spl_swaps" IDL v0.4.0, still
 * named for mainnet at gdnvdM...): the swap state is the program address of [initiator, secret_hash],
 * its rent paid by a sponsor who gets it back on close; the tokens of every swap of one mint sit in the
 * vault at the program address [mint], owned by the identity address (seeds []), which signs transfers
 * out of it. The swap account stores no mint: nothing on chain ties a settlement to the mint its
 * initiation locked (docs/solana-programs.md says what follows for the solver).
 */
#include "token.h"

/* Program errors, numbered like Anchor's #[error_code]. The first four are the older program's; the last
 * two guard inputs it leaves unchecked (see docs/solana-programs.md). */
#define ERR_INVALID_REDEEMER 6000
#define ERR_INVALID_SECRET 6001
#define ERR_INVALID_SPONSOR 6002
#define ERR_REFUND_BEFORE_EXPIRY 6003
#define ERR_ZERO_SWAP_AMOUNT 6004
#define ERR_EXPIRY_OVERFLOW 6005

static const ErrorDef SWAP_ERRORS[] = {
    {ERR_INVALID_REDEEMER, "InvalidRedeemer", "The redeemer account is not the swap's redeemer"},
    {ERR_INVALID_SECRET, "InvalidSecret", "The secret's sha256 is not the swap's secret hash"},
    {ERR_INVALID_SPONSOR, "InvalidSponsor", "The sponsor account is not the swap's sponsor"},
    {ERR_REFUND_BEFORE_EXPIRY, "RefundBeforeExpiry", "A refund needs the current slot to be past the expiry slot"},
    {ERR_ZERO_SWAP_AMOUNT, "ZeroSwapAmount", "The swap amount must be at least one base unit"},
    {ERR_EXPIRY_OVERFLOW, "ExpiryOverflow", "The current slot plus expires_in_slots does not fit in a u64"},
};

static uint64_t swap_error(const char *account, uint32_t number) {
  return anchor_error(account, &SWAP_ERRORS[number - ERR_INVALID_REDEEMER]);
}

/* SwapAccount: discriminator, expiry_slot, initiator, redeemer, secret_hash, swap_amount, identity_pda_bump,
 * sponsor. */
#define SA_EXPIRY_SLOT 8
#define SA_INITIATOR 16
#define SA_REDEEMER 48
#define SA_SECRET_HASH 80
#define SA_SWAP_AMOUNT 112
#define SA_IDENTITY_BUMP 120
#define SA_SPONSOR 121
#define SWAP_ACCOUNT_SPACE 153

/* Redeemed{initiator, secret}, Refunded and InstantRefunded{initiator, secret_hash}. */
static bool emit_settled(const uint8_t discriminator[DISCRIMINATOR_BYTES], const uint8_t *initiator,
                         const uint8_t *secret_or_hash) {
  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, discriminator, DISCRIMINATOR_BYTES);
  event_bytes(&w, initiator, PUBKEY_BYTES);
  event_bytes(&w, secret_or_hash, 32);
  return event_emit(&w);
}

typedef struct {
  SolAccountInfo *identity;
  SolAccountInfo *swap;
  SolAccountInfo *vault;
  SolAccountInfo *initiator;
  SolAccountInfo *initiator_tokens;
  SolAccountInfo *mint;
  SolAccountInfo *sponsor;
} InitiateAccounts;

/* Anchor's account loading and constraints for Initiate, in field order. */
static uint64_t check_initiate_accounts(ProgramInput *in, const InitiateAccounts *a, uint8_t *identity_bump) {
  SolSignerSeeds no_seeds = {NULL, 0};
  uint64_t err;
  if ((err = require_canonical_pda(a->identity, &no_seeds, in->program_id, identity_bump, "identity_pda")) ||
      (err = require_signer(a->initiator, "initiator")) ||
      (err = require_token_account(a->initiator_tokens, "initiator_token_account")) ||
      (err = require_mint(a->mint, "mint")) || (err = require_signer(a->sponsor, "sponsor")) ||
      (err = require_program(&in->accounts[7], &TOKEN_PROGRAM_ID, "token_program")) ||
      (err = require_program(&in->accounts[8], &SYSTEM_PROGRAM_ID, "system_program")) ||
      (err = require_writable(a->swap, "swap_data")) || (err = require_writable(a->vault, "token_vault")) ||
      (err = require_writable(a->initiator_tokens, "initiator_token_account")) ||
      (err = require_token_fields(a->initiator_tokens, a->mint->key->bytes, a->initiator->key->bytes,
                                  "initiator_token_account")) ||
      (err = require_writable(a->sponsor, "sponsor"))) {
    return err;
  }
  return 0;
}

/* Anchor's `init_if_needed` for the vault: created and initialized on a mint's first swap; afterwards it
 * must be a token account of that mint owned by the identity address. */
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

/* initiate(expires_in_slots, redeemer, secret_hash, swap_amount, destination_data)
 * accounts: identity_pda (mut), swap_data (mut, created), token_vault (mut), initiator (signer),
 * initiator_token_account (mut), mint, sponsor (mut, signer), token_program, system_program */
static uint64_t initiate(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  uint64_t expires_in;
  const uint8_t *redeemer;
  const uint8_t *secret_hash;
  uint64_t amount;
  bool has_destination;
  const uint8_t *destination;
  uint32_t destination_len;
  if (!read_u64(&r, &expires_in) || !read_bytes(&r, PUBKEY_BYTES, &redeemer) ||
      !read_bytes(&r, 32, &secret_hash) || !read_u64(&r, &amount) ||
      !read_option_bytes(&r, &has_destination, &destination, &destination_len)) {
    return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  }
  if (in->account_count < 9) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  InitiateAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                        &in->accounts[4], &in->accounts[5], &in->accounts[6]};
  uint8_t identity_bump;
  uint64_t err;
  if ((err = check_initiate_accounts(in, &a, &identity_bump))) return err;
  if (amount == 0) return swap_error(NULL, ERR_ZERO_SWAP_AMOUNT);

  uint8_t bump;
  SolBytes seeds[3] = {{a.initiator->key->bytes, PUBKEY_BYTES}, {secret_hash, 32}, {&bump, 1}};
  SolSignerSeeds search = {seeds, 2};
  if ((err = require_canonical_pda(a.swap, &search, in->program_id, &bump, "swap_data"))) return err;
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot > UINT64_MAX - expires_in) return swap_error(NULL, ERR_EXPIRY_OVERFLOW);

  SolSignerSeeds signer = {seeds, 3};
  AccountInit init = {a.sponsor, a.swap, &signer, in->program_id, SWAP_ACCOUNT_SPACE};
  bool rent_ok;
  if ((err = init_account(&init, &rent_ok)) || (err = ensure_vault(in, &a)) ||
      (err = token_transfer(a.initiator_tokens, a.vault, a.initiator, amount, NULL))) {
    return err;
  }

  uint8_t *d = a.swap->data;
  bytes_copy(d, SWAP_ACCOUNT_DISCRIMINATOR, DISCRIMINATOR_BYTES);
  write_u64_le(d + SA_EXPIRY_SLOT, slot + expires_in);
  bytes_copy(d + SA_INITIATOR, a.initiator->key, PUBKEY_BYTES);
  bytes_copy(d + SA_REDEEMER, redeemer, PUBKEY_BYTES);
  bytes_copy(d + SA_SECRET_HASH, secret_hash, 32);
  write_u64_le(d + SA_SWAP_AMOUNT, amount);
  d[SA_IDENTITY_BUMP] = identity_bump;
  bytes_copy(d + SA_SPONSOR, a.sponsor->key, PUBKEY_BYTES);

  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, EV_INITIATED, DISCRIMINATOR_BYTES);
  event_u64(&w, amount);
  event_u64(&w, expires_in);
  event_bytes(&w, a.initiator->key, PUBKEY_BYTES);
  event_bytes(&w, a.mint->key, PUBKEY_BYTES);
  event_bytes(&w, redeemer, PUBKEY_BYTES);
  event_bytes(&w, secret_hash, 32);
  uint8_t tag = has_destination ? 1 : 0;
  event_bytes(&w, &tag, 1);
  if (has_destination) {
    uint8_t len_le[4];
    write_u32_le(len_le, destination_len);
    event_bytes(&w, len_le, 4);
    event_bytes(&w, destination, destination_len);
  }
  return event_emit(&w) ? 0 : ERR_EVENT_TOO_LARGE;
}

/* The accounts redeem, refund and instant refund share: identity, swap data, vault, the payee's token
 * account and the sponsor, at these positions, and the token program at `token_program`. */
typedef struct {
  SolAccountInfo *identity;
  SolAccountInfo *swap;
  SolAccountInfo *vault;
  SolAccountInfo *payee_tokens;
  SolAccountInfo *sponsor;
  const char *payee_tokens_name;
} SettleAccounts;

/*
 * Loads the swap (owned by this program, a SwapAccount; only initiate creates one, at the address of its
 * initiator and secret hash) and checks what a settlement relies on: the identity from the stored bump;
 * the vault, a token account owned by the identity at the [mint] address of its own mint; the payee's
 * token account, of the vault's mint and owned by `payee`.
 */
static uint64_t load_settlement(ProgramInput *in, const SettleAccounts *a, uint64_t token_program,
                                const uint8_t *payee) {
  /* `payee` points into the swap's data: read only once the swap is loaded. */
  uint64_t err;
  if ((err = require_account(a->swap, in->program_id, SWAP_ACCOUNT_DISCRIMINATOR, SWAP_ACCOUNT_SPACE,
                             "swap_data")) ||
      (err = require_token_account(a->vault, "token_vault")) ||
      (err = require_token_account(a->payee_tokens, a->payee_tokens_name)) ||
      (err = require_program(&in->accounts[token_program], &TOKEN_PROGRAM_ID, "token_program"))) {
    return err;
  }
  const uint8_t *d = a->swap->data;
  const uint8_t *mint = a->vault->data + TOKEN_ACCOUNT_MINT;
  SolBytes identity_seed = {d + SA_IDENTITY_BUMP, 1};
  SolSignerSeeds identity_seeds = {&identity_seed, 1};
  uint8_t vault_bump;
  if ((err = require_pda(a->identity, &identity_seeds, in->program_id, "identity_pda")) ||
      (err = require_writable(a->swap, "swap_data")) || (err = require_writable(a->vault, "token_vault")) ||
      (err = require_vault_address(a->vault, mint, in->program_id, &vault_bump)) ||
      (err = require_token_fields(a->vault, mint, a->identity->key->bytes, "token_vault")) ||
      (err = require_writable(a->payee_tokens, a->payee_tokens_name)) ||
      (err = require_token_fields(a->payee_tokens, mint, payee, a->payee_tokens_name))) {
    return err;
  }
  return 0;
}

static uint64_t check_sponsor(const SettleAccounts *a) {
  uint64_t err;
  if ((err = require_writable(a->sponsor, "sponsor"))) return err;
  if (!bytes_equal(a->sponsor->key, a->swap->data + SA_SPONSOR, PUBKEY_BYTES)) {
    return swap_error("sponsor", ERR_INVALID_SPONSOR);
  }
  return 0;
}

/* Pays the swap amount out of the vault (signed by the identity), emits the event, closes the swap. */
static uint64_t settle(const SettleAccounts *a, const uint8_t discriminator[DISCRIMINATOR_BYTES],
                       const uint8_t *secret_or_hash) {
  const uint8_t *d = a->swap->data;
  SolBytes identity_seed = {d + SA_IDENTITY_BUMP, 1};
  SolSignerSeeds identity = {&identity_seed, 1};
  uint64_t err;
  if ((err = token_transfer(a->vault, a->payee_tokens, a->identity, read_u64_le(d + SA_SWAP_AMOUNT),
                            &identity))) {
    return err;
  }
  if (!emit_settled(discriminator, d + SA_INITIATOR, secret_or_hash)) return ERR_EVENT_TOO_LARGE;
  return close_account(a->swap, a->sponsor);
}

/* redeem(secret). accounts: identity_pda, swap_data (mut), token_vault (mut), redeemer_token_account (mut,
 * owner = stored redeemer), sponsor (mut, = stored), token_program */
static uint64_t redeem(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  const uint8_t *secret;
  if (!read_bytes(&r, 32, &secret)) return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  if (in->account_count < 6) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[4], "redeemer_token_account"};
  uint64_t err;
  if ((err = load_settlement(in, &a, 5, a.swap->data + SA_REDEEMER)) || (err = check_sponsor(&a))) {
    return err;
  }
  uint8_t hash[32];
  SolBytes preimage = {secret, 32};
  if ((err = sol_sha256(&preimage, 1, hash))) return err;
  if (!bytes_equal(hash, a.swap->data + SA_SECRET_HASH, 32)) return swap_error(NULL, ERR_INVALID_SECRET);
  return settle(&a, EV_REDEEMED, secret);
}

/* refund(). accounts: identity_pda, swap_data (mut), token_vault (mut), initiator_token_account (mut,
 * owner = stored initiator), sponsor (mut, = stored), token_program */
static uint64_t refund(ProgramInput *in) {
  if (in->account_count < 6) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[4], "initiator_token_account"};
  uint64_t err;
  if ((err = load_settlement(in, &a, 5, a.swap->data + SA_INITIATOR)) || (err = check_sponsor(&a))) {
    return err;
  }
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot <= read_u64_le(a.swap->data + SA_EXPIRY_SLOT)) return swap_error(NULL, ERR_REFUND_BEFORE_EXPIRY);
  return settle(&a, EV_REFUNDED, a.swap->data + SA_SECRET_HASH);
}

/* instant_refund(). accounts: identity_pda, swap_data (mut), token_vault (mut), initiator_token_account
 * (mut), redeemer (mut, signer, = stored), sponsor (mut, = stored), token_program */
static uint64_t instant_refund(ProgramInput *in) {
  if (in->account_count < 7) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SettleAccounts a = {&in->accounts[0], &in->accounts[1], &in->accounts[2], &in->accounts[3],
                      &in->accounts[5], "initiator_token_account"};
  SolAccountInfo *redeemer = &in->accounts[4];
  uint64_t err;
  if ((err = require_signer(redeemer, "redeemer")) ||
      (err = load_settlement(in, &a, 6, a.swap->data + SA_INITIATOR)) ||
      (err = require_writable(redeemer, "redeemer"))) {
    return err;
  }
  if (!bytes_equal(redeemer->key, a.swap->data + SA_REDEEMER, PUBKEY_BYTES)) {
    return swap_error("redeemer", ERR_INVALID_REDEEMER);
  }
  if ((err = check_sponsor(&a))) return err;
  return settle(&a, EV_INSTANT_REFUNDED, a.swap->data + SA_SECRET_HASH);
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
