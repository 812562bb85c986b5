/*
 * The SPL Token program as the SPL HTLC program uses it: account layouts it checks and the two
 * instructions it invokes (Transfer, InitializeAccount3).
 */
#ifndef HTLC_TOKEN_H
#define HTLC_TOKEN_H

#include "accounts.h"

/* TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA */
static const Pubkey TOKEN_PROGRAM_ID = {{0x06, 0xdd, 0xf6, 0xe1, 0xd7, 0x65, 0xa1, 0x93, 0xd9, 0xcb, 0xe1,
                                         0x46, 0xce, 0xeb, 0x79, 0xac, 0x1c, 0xb4, 0x85, 0xed, 0x5f, 0x5b,
                                         0x37, 0x91, 0x3a, 0x8c, 0xf5, 0x85, 0x7e, 0xff, 0x00, 0xa9}};

/* Token account: mint, owner, amount, …, state at byte 108 (0 = uninitialized). Mint: is_initialized at 45. */
#define TOKEN_ACCOUNT_LEN 165
#define TOKEN_ACCOUNT_MINT 0
#define TOKEN_ACCOUNT_OWNER 32
#define TOKEN_ACCOUNT_STATE 108
#define MINT_LEN 82
#define MINT_IS_INITIALIZED 45

#define TOKEN_IX_TRANSFER 3
#define TOKEN_IX_INITIALIZE_ACCOUNT3 18

/* Anchor's Account<T> load for an SPL Token state of exactly `len` bytes whose `flag` byte is set. */
static inline uint64_t require_token_state(const SolAccountInfo *account, uint64_t len, uint64_t flag,
                                           const char *name) {
  if (pubkey_equal(account->owner, &SYSTEM_PROGRAM_ID) && *account->lamports == 0) {
    return framework_error(name, ERR_ACCOUNT_NOT_INITIALIZED);
  }
  if (!pubkey_equal(account->owner, &TOKEN_PROGRAM_ID)) {
    return framework_error(name, ERR_ACCOUNT_OWNED_BY_WRONG_PROGRAM);
  }
  if (account_data_len(account) != len || account->data[flag] == 0) {
    return framework_error(name, ERR_ACCOUNT_DID_NOT_DESERIALIZE);
  }
  return 0;
}

static inline uint64_t require_token_account(const SolAccountInfo *account, const char *name) {
  return require_token_state(account, TOKEN_ACCOUNT_LEN, TOKEN_ACCOUNT_STATE, name);
}

static inline uint64_t require_mint(const SolAccountInfo *account, const char *name) {
  return require_token_state(account, MINT_LEN, MINT_IS_INITIALIZED, name);
}

/* Anchor's `token::mint = …` and `token::authority = …` on a loaded token account. */
static inline uint64_t require_token_fields(const SolAccountInfo *account, const uint8_t *mint,
                                            const uint8_t *owner, const char *name) {
  if (!bytes_equal(account->data + TOKEN_ACCOUNT_MINT, mint, PUBKEY_BYTES)) {
    return framework_error(name, ERR_CONSTRAINT_TOKEN_MINT);
  }
  if (!bytes_equal(account->data + TOKEN_ACCOUNT_OWNER, owner, PUBKEY_BYTES)) {
    return framework_error(name, ERR_CONSTRAINT_TOKEN_OWNER);
  }
  return 0;
}

static inline uint64_t token_transfer(const SolAccountInfo *from, const SolAccountInfo *to,
                                      const SolAccountInfo *authority, uint64_t amount,
                                      const SolSignerSeeds *signer) {
  uint8_t data[9];
  data[0] = TOKEN_IX_TRANSFER;
  write_u64_le(data + 1, amount);
  SolAccountMeta metas[3] = {{from->key, true, false}, {to->key, true, false}, {authority->key, false, true}};
  SolAccountInfo infos[3] = {cpi_view(from), cpi_view(to), cpi_view(authority)};
  SolInstruction ix = {&TOKEN_PROGRAM_ID, metas, 3, data, sizeof data};
  return sol_invoke_signed_c(&ix, infos, 3, signer, signer != NULL ? 1 : 0);
}

static inline uint64_t token_initialize_account(const SolAccountInfo *account, const SolAccountInfo *mint,
                                                const Pubkey *owner) {
  uint8_t data[33];
  data[0] = TOKEN_IX_INITIALIZE_ACCOUNT3;
  bytes_copy(data + 1, owner, PUBKEY_BYTES);
  SolAccountMeta metas[2] = {{account->key, true, false}, {mint->key, false, false}};
  SolAccountInfo infos[2] = {cpi_view(account), cpi_view(mint)};
  SolInstruction ix = {&TOKEN_PROGRAM_ID, metas, 2, data, sizeof data};
  return sol_invoke_signed_c(&ix, infos, 2, NULL, 0);
}

/* The vault of a mint is the canonical program address of [mint], in both SPL programs: checked on every
 * use, not only at creation, so no other token account the identity happens to own can stand in for it. */
static inline uint64_t require_vault_address(const SolAccountInfo *vault, const uint8_t *mint,
                                             const Pubkey *program_id, uint8_t *bump) {
  SolBytes seed = {mint, PUBKEY_BYTES};
  SolSignerSeeds seeds = {&seed, 1};
  return require_canonical_pda(vault, &seeds, program_id, bump, "token_vault");
}

#endif
