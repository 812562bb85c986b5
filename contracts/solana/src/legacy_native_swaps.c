/*
 * HTLC program for native SOL with the older interface (the service's "solana_native_swaps" v0.3.0, still
 * named for mainnet at 2bag6x...): the swap account is the program address of
 * ["swap_account", initiator, secret_hash]; the initiator pays its rent and the amount, and gets the rent
 * back when redeem, refund or instant refund close it. The address commits to neither the redeemer, the
 * amount nor the expiry: those are only in the account's data.
 */
#include "accounts.h"

/* Program errors, numbered like Anchor's #[error_code] (6000 + position). The first four are the older
 * program's; the last two guard inputs it leaves unchecked (see docs/solana-programs.md). */
#define ERR_INVALID_INITIATOR 6000
#define ERR_INVALID_REDEEMER 6001
#define ERR_INVALID_SECRET 6002
#define ERR_REFUND_BEFORE_EXPIRY 6003
#define ERR_ZERO_SWAP_AMOUNT 6004
#define ERR_EXPIRY_OVERFLOW 6005

static const ErrorDef SWAP_ERRORS[] = {
    {ERR_INVALID_INITIATOR, "InvalidInitiator", "The initiator account is not the swap's initiator"},
    {ERR_INVALID_REDEEMER, "InvalidRedeemer", "The redeemer account is not the swap's redeemer"},
    {ERR_INVALID_SECRET, "InvalidSecret", "The secret's sha256 is not the swap's secret hash"},
    {ERR_REFUND_BEFORE_EXPIRY, "RefundBeforeExpiry", "A refund needs the current slot to be past the expiry slot"},
    {ERR_ZERO_SWAP_AMOUNT, "ZeroSwapAmount", "The swap amount must be at least one lamport"},
    {ERR_EXPIRY_OVERFLOW, "ExpiryOverflow", "The current slot plus expires_in_slots does not fit in a u64"},
};

static uint64_t swap_error(const char *account, uint32_t number) {
  return anchor_error(account, &SWAP_ERRORS[number - ERR_INVALID_INITIATOR]);
}

/* SwapAccount: discriminator, then amount_lamports, expiry_slot, initiator, redeemer, secret_hash. */
#define SA_AMOUNT 8
#define SA_EXPIRY_SLOT 16
#define SA_INITIATOR 24
#define SA_REDEEMER 56
#define SA_SECRET_HASH 88
#define SWAP_ACCOUNT_SPACE 120

static const uint8_t SWAP_SEED_PREFIX[] = {'s', 'w', 'a', 'p', '_', 'a', 'c', 'c', 'o', 'u', 'n', 't'};

/* initiate(amount_lamports, expires_in_slots, redeemer, secret_hash)
 * accounts: swap_account (mut, PDA, created), initiator (mut, signer), system_program */
static uint64_t initiate(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  uint64_t amount;
  uint64_t expires_in;
  const uint8_t *redeemer;
  const uint8_t *secret_hash;
  if (!read_u64(&r, &amount) || !read_u64(&r, &expires_in) || !read_bytes(&r, PUBKEY_BYTES, &redeemer) ||
      !read_bytes(&r, 32, &secret_hash)) {
    return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  }
  if (in->account_count < 3) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *initiator = &in->accounts[1];
  uint64_t err;
  if ((err = require_signer(initiator, "initiator")) ||
      (err = require_program(&in->accounts[2], &SYSTEM_PROGRAM_ID, "system_program")) ||
      (err = require_writable(swap, "swap_account")) || (err = require_writable(initiator, "initiator"))) {
    return err;
  }
  if (amount == 0) return swap_error(NULL, ERR_ZERO_SWAP_AMOUNT);

  uint8_t bump;
  SolBytes seeds[4] = {
      {SWAP_SEED_PREFIX, sizeof(SWAP_SEED_PREFIX)}, {initiator->key->bytes, PUBKEY_BYTES}, {secret_hash, 32}, {&bump, 1}};
  SolSignerSeeds search = {seeds, 3};
  if ((err = require_canonical_pda(swap, &search, in->program_id, &bump, "swap_account"))) return err;
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot > UINT64_MAX - expires_in) return swap_error(NULL, ERR_EXPIRY_OVERFLOW);

  SolSignerSeeds signer = {seeds, 4};
  AccountInit init = {initiator, swap, &signer, in->program_id, SWAP_ACCOUNT_SPACE};
  bool rent_ok;
  if ((err = init_account(&init, &rent_ok))) return err;
  if ((err = system_transfer(initiator, swap, amount, NULL))) return err;

  uint8_t *d = swap->data;
  bytes_copy(d, SWAP_ACCOUNT_DISCRIMINATOR, DISCRIMINATOR_BYTES);
  write_u64_le(d + SA_AMOUNT, amount);
  write_u64_le(d + SA_EXPIRY_SLOT, slot + expires_in);
  bytes_copy(d + SA_INITIATOR, initiator->key, PUBKEY_BYTES);
  bytes_copy(d + SA_REDEEMER, redeemer, PUBKEY_BYTES);
  bytes_copy(d + SA_SECRET_HASH, secret_hash, 32);

  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, EV_INITIATED, DISCRIMINATOR_BYTES);
  event_u64(&w, amount);
  event_u64(&w, expires_in);
  event_bytes(&w, initiator->key, PUBKEY_BYTES);
  event_bytes(&w, redeemer, PUBKEY_BYTES);
  event_bytes(&w, secret_hash, 32);
  return event_emit(&w) ? 0 : ERR_EVENT_TOO_LARGE;
}

/* Redeemed{initiator, secret}, Refunded and InstantRefunded{initiator, secret_hash}. */
static bool emit_settled(const uint8_t discriminator[DISCRIMINATOR_BYTES], const uint8_t *initiator,
                         const uint8_t *secret_or_hash) {
  EventWriter w = {HEAP_START, 0, HEAP_BYTES};
  event_bytes(&w, discriminator, DISCRIMINATOR_BYTES);
  event_bytes(&w, initiator, PUBKEY_BYTES);
  event_bytes(&w, secret_or_hash, 32);
  return event_emit(&w);
}

/*
 * The swap account of redeem / refund / instant refund: owned by this program, a SwapAccount of full
 * length, writable, and the initiator account the stored initiator (it receives the rent on close).
 * Only initiate creates accounts of this program, and only at the program address of its initiator and
 * secret hash, so ownership is the check that the account is one.
 */
static uint64_t load_swap(ProgramInput *in) {
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *initiator = &in->accounts[1];
  uint64_t err;
  if ((err = require_account(swap, in->program_id, SWAP_ACCOUNT_DISCRIMINATOR, SWAP_ACCOUNT_SPACE,
                             "swap_account")) ||
      (err = require_writable(swap, "swap_account")) || (err = require_writable(initiator, "initiator"))) {
    return err;
  }
  if (!bytes_equal(initiator->key, swap->data + SA_INITIATOR, PUBKEY_BYTES)) {
    return swap_error("initiator", ERR_INVALID_INITIATOR);
  }
  return 0;
}

/* redeem(secret). accounts: swap_account (mut), initiator (mut, = stored), redeemer (mut, = stored) */
static uint64_t redeem(ProgramInput *in) {
  Reader r = {in->data + DISCRIMINATOR_BYTES, in->data_len - DISCRIMINATOR_BYTES};
  const uint8_t *secret;
  if (!read_bytes(&r, 32, &secret)) return framework_error(NULL, ERR_INSTRUCTION_DID_NOT_DESERIALIZE);
  if (in->account_count < 3) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *initiator = &in->accounts[1];
  SolAccountInfo *redeemer = &in->accounts[2];
  uint64_t err;
  if ((err = load_swap(in)) || (err = require_writable(redeemer, "redeemer"))) return err;
  if (!bytes_equal(redeemer->key, swap->data + SA_REDEEMER, PUBKEY_BYTES)) {
    return swap_error("redeemer", ERR_INVALID_REDEEMER);
  }
  uint8_t hash[32];
  SolBytes preimage = {secret, 32};
  if ((err = sol_sha256(&preimage, 1, hash))) return err;
  if (!bytes_equal(hash, swap->data + SA_SECRET_HASH, 32)) return swap_error(NULL, ERR_INVALID_SECRET);

  if ((err = move_lamports(swap, redeemer, read_u64_le(swap->data + SA_AMOUNT)))) return err;
  if (!emit_settled(EV_REDEEMED, swap->data + SA_INITIATOR, secret)) return ERR_EVENT_TOO_LARGE;
  return close_account(swap, initiator);
}

/* Pays the amount back to the initiator and closes the account to it (refund and instant refund). */
static uint64_t pay_back(SolAccountInfo *swap, SolAccountInfo *initiator, const uint8_t *event) {
  uint64_t err;
  if ((err = move_lamports(swap, initiator, read_u64_le(swap->data + SA_AMOUNT)))) return err;
  if (!emit_settled(event, swap->data + SA_INITIATOR, swap->data + SA_SECRET_HASH)) return ERR_EVENT_TOO_LARGE;
  return close_account(swap, initiator);
}

/* refund(). accounts: swap_account (mut), initiator (mut, = stored) */
static uint64_t refund(ProgramInput *in) {
  if (in->account_count < 2) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  uint64_t err;
  if ((err = load_swap(in))) return err;
  uint64_t slot;
  if ((err = current_slot(&slot))) return err;
  if (slot <= read_u64_le(swap->data + SA_EXPIRY_SLOT)) return swap_error(NULL, ERR_REFUND_BEFORE_EXPIRY);
  return pay_back(swap, &in->accounts[1], EV_REFUNDED);
}

/* instant_refund(). accounts: swap_account (mut), initiator (mut, = stored), redeemer (signer, = stored) */
static uint64_t instant_refund(ProgramInput *in) {
  if (in->account_count < 3) return framework_error(NULL, ERR_ACCOUNT_NOT_ENOUGH_KEYS);
  SolAccountInfo *swap = &in->accounts[0];
  SolAccountInfo *redeemer = &in->accounts[2];
  uint64_t err;
  if ((err = require_signer(redeemer, "redeemer")) || (err = load_swap(in))) return err;
  if (!bytes_equal(redeemer->key, swap->data + SA_REDEEMER, PUBKEY_BYTES)) {
    return swap_error("redeemer", ERR_INVALID_REDEEMER);
  }
  return pay_back(swap, &in->accounts[1], EV_INSTANT_REFUNDED);
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
