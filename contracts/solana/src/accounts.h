/*
 * Account checks and account lifecycle shared by both HTLC programs: Anchor's account constraints
 * (signer, mut, program id, owner, discriminator, seeds) and its `init` / `close` behaviour.
 */
#ifndef HTLC_ACCOUNTS_H
#define HTLC_ACCOUNTS_H

#include "anchor.h"

/* The System program's id is 32 zero bytes; accounts it owns have that owner. */
static const Pubkey SYSTEM_PROGRAM_ID = {{0}};

static inline uint64_t require_signer(const SolAccountInfo *account, const char *name) {
  return account->is_signer ? 0 : framework_error(name, ERR_ACCOUNT_NOT_SIGNER);
}

static inline uint64_t require_writable(const SolAccountInfo *account, const char *name) {
  return account->is_writable ? 0 : framework_error(name, ERR_CONSTRAINT_MUT);
}

static inline uint64_t require_program(const SolAccountInfo *account, const Pubkey *id, const char *name) {
  return pubkey_equal(account->key, id) ? 0 : framework_error(name, ERR_INVALID_PROGRAM_ID);
}

/*
 * Anchor's Account<T> load: a closed or never created account is "not initialized"; any other owner than
 * the expected program is refused before the data is looked at, which is what stops a look-alike account
 * created by an attacker's program; then the discriminator and the field bytes must be there.
 */
static inline uint64_t require_account(const SolAccountInfo *account, const Pubkey *owner,
                                       const uint8_t discriminator[DISCRIMINATOR_BYTES], uint64_t min_len,
                                       const char *name) {
  if (pubkey_equal(account->owner, &SYSTEM_PROGRAM_ID) && *account->lamports == 0) {
    return framework_error(name, ERR_ACCOUNT_NOT_INITIALIZED);
  }
  if (!pubkey_equal(account->owner, owner)) return framework_error(name, ERR_ACCOUNT_OWNED_BY_WRONG_PROGRAM);
  uint64_t len = account_data_len(account);
  if (len < DISCRIMINATOR_BYTES) return framework_error(name, ERR_ACCOUNT_DISCRIMINATOR_NOT_FOUND);
  if (!bytes_equal(account->data, discriminator, DISCRIMINATOR_BYTES)) {
    return framework_error(name, ERR_ACCOUNT_DISCRIMINATOR_MISMATCH);
  }
  if (len < min_len) return framework_error(name, ERR_ACCOUNT_DID_NOT_DESERIALIZE);
  return 0;
}

/* The account must be the program address of `seeds` plus `bump` (a bump stored at creation). */
static inline uint64_t require_pda(const SolAccountInfo *account, const SolSignerSeeds *seeds,
                                   const Pubkey *program_id, const char *name) {
  Pubkey derived;
  if (sol_create_program_address(seeds->addr, seeds->len, program_id, &derived) != 0 ||
      !pubkey_equal(&derived, account->key)) {
    return framework_error(name, ERR_CONSTRAINT_SEEDS);
  }
  return 0;
}

/* Finds the canonical bump of `seeds` and requires the account to be that address. */
static inline uint64_t require_canonical_pda(const SolAccountInfo *account, const SolSignerSeeds *seeds,
                                             const Pubkey *program_id, uint8_t *bump_out, const char *name) {
  Pubkey derived;
  if (sol_try_find_program_address(seeds->addr, seeds->len, program_id, &derived, bump_out) != 0 ||
      !pubkey_equal(&derived, account->key)) {
    return framework_error(name, ERR_CONSTRAINT_SEEDS);
  }
  return 0;
}

/* ---- Rent --------------------------------------------------------------------------------------- */

#define ACCOUNT_STORAGE_OVERHEAD 128
/* ProgramError::UnsupportedSysvar: the Rent sysvar holds a threshold this program cannot compute with. */
#define ERR_UNSUPPORTED_RENT ((uint64_t)17 << 32)

/*
 * Rent-exempt minimum for `space` bytes: (overhead + space) × lamports per byte-year × threshold. The
 * threshold is a double; every cluster uses a whole number (2.0, or 1.0 with a doubled rate), which is
 * computed exactly here with integer arithmetic. Any other threshold makes *ok false.
 */
static inline uint64_t rent_minimum_balance(uint64_t space, bool *ok) {
  SolRent rent;
  *ok = false;
  if (sol_get_rent_sysvar(&rent) != 0) return 0;
  uint64_t bits = rent.exemption_threshold_bits;
  uint64_t base = (ACCOUNT_STORAGE_OVERHEAD + space) * rent.lamports_per_byte_year;
  if (bits == 0) {
    *ok = true;
    return 0;
  }
  int64_t exponent = (int64_t)((bits >> 52) & 0x7ff) - 1023;
  uint64_t mantissa = (bits & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
  if ((bits >> 63) != 0 || exponent < 0 || exponent > 8) return 0;
  uint64_t shift = 52 - (uint64_t)exponent;
  if ((mantissa & (((uint64_t)1 << shift) - 1)) != 0) return 0;
  *ok = true;
  return base * (mantissa >> shift);
}

/* ---- System program CPIs ------------------------------------------------------------------------ */

/*
 * A copy of an account view for a CPI, with the data length read afresh: an earlier CPI may have resized
 * the account, and the runtime takes a stale length in a CPI's account list for a resize by the caller.
 */
static inline SolAccountInfo cpi_view(const SolAccountInfo *account) {
  SolAccountInfo view = *account;
  view.data_len = account_data_len(account);
  return view;
}

static inline uint64_t system_invoke(const uint8_t *data, uint64_t data_len, const SolAccountMeta *metas,
                                     const SolAccountInfo *infos, uint64_t count,
                                     const SolSignerSeeds *signer) {
  SolInstruction ix = {&SYSTEM_PROGRAM_ID, metas, count, data, data_len};
  return sol_invoke_signed_c(&ix, infos, count, signer, signer != NULL ? 1 : 0);
}

static inline uint64_t system_transfer(const SolAccountInfo *from, const SolAccountInfo *to, uint64_t lamports,
                                       const SolSignerSeeds *signer) {
  uint8_t data[12];
  write_u32_le(data, 2);
  write_u64_le(data + 4, lamports);
  SolAccountMeta metas[2] = {{from->key, true, true}, {to->key, true, false}};
  SolAccountInfo infos[2] = {cpi_view(from), cpi_view(to)};
  return system_invoke(data, sizeof data, metas, infos, 2, signer);
}

/* Everything Anchor's `init` needs: who pays, which address, its seeds, size and future owner. */
typedef struct {
  const SolAccountInfo *payer;
  const SolAccountInfo *target;
  const SolSignerSeeds *target_seeds;
  const Pubkey *owner;
  uint64_t space;
} AccountInit;

/*
 * Creates a program address account the way Anchor's `init` does. An address that already holds
 * lamports (anyone can send lamports to any address) is topped up to rent exemption, allocated and
 * assigned instead, so a donation cannot block a swap; an address that already has data or another
 * owner makes the System program refuse ("already in use"), so a live swap is never overwritten.
 */
static inline uint64_t init_account(const AccountInit *init, bool *rent_ok) {
  uint64_t rent = rent_minimum_balance(init->space, rent_ok);
  if (!*rent_ok) return ERR_UNSUPPORTED_RENT;
  uint64_t current = *init->target->lamports;
  SolAccountMeta both[2] = {{init->payer->key, true, true}, {init->target->key, true, true}};
  SolAccountInfo infos[2] = {cpi_view(init->payer), cpi_view(init->target)};
  if (current == 0) {
    uint8_t data[52];
    write_u32_le(data, 0);
    write_u64_le(data + 4, rent > 0 ? rent : 1);
    write_u64_le(data + 12, init->space);
    bytes_copy(data + 20, init->owner, PUBKEY_BYTES);
    return system_invoke(data, sizeof data, both, infos, 2, init->target_seeds);
  }
  uint64_t needed = rent > 0 ? rent : 1;
  if (needed > current) {
    uint64_t result = system_transfer(init->payer, init->target, needed - current, NULL);
    if (result != 0) return result;
  }
  SolAccountMeta target_only[1] = {{init->target->key, true, true}};
  uint8_t allocate[12];
  write_u32_le(allocate, 8);
  write_u64_le(allocate + 4, init->space);
  SolAccountInfo target = cpi_view(init->target);
  uint64_t result = system_invoke(allocate, sizeof allocate, target_only, &target, 1, init->target_seeds);
  if (result != 0) return result;
  target = cpi_view(init->target);
  uint8_t assign[36];
  write_u32_le(assign, 1);
  bytes_copy(assign + 4, init->owner, PUBKEY_BYTES);
  return system_invoke(assign, sizeof assign, target_only, &target, 1, init->target_seeds);
}

/* ---- Lamports and closing ------------------------------------------------------------------------ */

#define ERR_ARITHMETIC_OVERFLOW ((uint64_t)24 << 32) /* ProgramError::ArithmeticOverflow */
#define ERR_INSUFFICIENT_FUNDS ((uint64_t)6 << 32)   /* ProgramError::InsufficientFunds */

/* Moves lamports out of an account this program owns into any writable account. */
static inline uint64_t move_lamports(SolAccountInfo *from, SolAccountInfo *to, uint64_t amount) {
  if (*from->lamports < amount) return ERR_INSUFFICIENT_FUNDS;
  *from->lamports -= amount;
  if (*to->lamports > UINT64_MAX - amount) return ERR_ARITHMETIC_OVERFLOW;
  *to->lamports += amount;
  return 0;
}

/*
 * Anchor's `close = destination`: all remaining lamports go to the destination, the data shrinks to zero
 * bytes and the System program becomes the owner. An account closed this way fails every later load
 * with AccountNotInitialized, which is what makes a second redeem or refund fail.
 */
static inline uint64_t close_account(SolAccountInfo *account, SolAccountInfo *destination) {
  uint64_t result = move_lamports(account, destination, *account->lamports);
  if (result != 0) return result;
  bytes_zero(account->data, account_data_len(account));
  write_u64_le(account->data - 8, 0);
  bytes_copy(account->owner, &SYSTEM_PROGRAM_ID, PUBKEY_BYTES);
  return 0;
}

static inline uint64_t current_slot(uint64_t *slot) {
  SolClock clock;
  uint64_t result = sol_get_clock_sysvar(&clock);
  *slot = clock.slot;
  return result;
}

#endif
