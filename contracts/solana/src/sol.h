/*
 * The few pieces of the Solana runtime the HTLC programs need: the program input layout, the C ABI
 * structures of cross-program invocation, syscall declarations and byte helpers.
 *
 * Everything here follows the runtime's documented ABI for programs loaded by the upgradeable BPF
 * loader ("aligned" input serialization, sBPF v0). No writable globals: the loader refuses them.
 */
#ifndef HTLC_SOL_H
#define HTLC_SOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PUBKEY_BYTES 32

typedef struct {
  uint8_t bytes[PUBKEY_BYTES];
} Pubkey;

/* Account view in the C ABI layout that sol_invoke_signed_c reads for CPI: the pointers must point into
 * the program's serialized input, which is where parse_input aims them. */
typedef struct {
  Pubkey *key;
  uint64_t *lamports;
  uint64_t data_len;
  uint8_t *data;
  Pubkey *owner;
  uint64_t rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} SolAccountInfo;

typedef struct {
  const Pubkey *pubkey;
  bool is_writable;
  bool is_signer;
} SolAccountMeta;

typedef struct {
  const Pubkey *program_id;
  const SolAccountMeta *accounts;
  uint64_t account_len;
  const uint8_t *data;
  uint64_t data_len;
} SolInstruction;

/* One seed or one log_data slice: a pointer and a length. */
typedef struct {
  const uint8_t *addr;
  uint64_t len;
} SolBytes;

typedef struct {
  const SolBytes *addr;
  uint64_t len;
} SolSignerSeeds;

typedef struct {
  uint64_t slot;
  int64_t epoch_start_timestamp;
  uint64_t epoch;
  uint64_t leader_schedule_epoch;
  int64_t unix_timestamp;
} SolClock;

/* The Rent sysvar as the runtime writes it: the threshold is an IEEE-754 double, read as raw bits because
 * sBPF v0 has no floating point. */
typedef struct {
  uint64_t lamports_per_byte_year;
  uint64_t exemption_threshold_bits;
  uint8_t burn_percent;
} SolRent;

/* Syscalls: resolved by the loader through R_BPF_64_32 relocations against these undefined names. */
void sol_log_(const char *message, uint64_t len);
void sol_log_64_(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e);
void sol_log_data(const SolBytes *slices, uint64_t count);
uint64_t sol_sha256(const SolBytes *slices, uint64_t count, uint8_t *hash_out);
uint64_t sol_try_find_program_address(const SolBytes *seeds, uint64_t seeds_len, const Pubkey *program_id,
                                      Pubkey *address_out, uint8_t *bump_out);
uint64_t sol_create_program_address(const SolBytes *seeds, uint64_t seeds_len, const Pubkey *program_id,
                                    Pubkey *address_out);
uint64_t sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *account_infos,
                             uint64_t account_infos_len, const SolSignerSeeds *signers_seeds,
                             uint64_t signers_seeds_len);
uint64_t sol_get_clock_sysvar(SolClock *clock_out);
uint64_t sol_get_rent_sysvar(SolRent *rent_out);
void sol_memcpy_(void *dst, const void *src, uint64_t n);
void sol_memset_(void *dst, uint8_t value, uint64_t n);

/* The compiler may lower struct copies to these library calls; they forward to the runtime's syscalls. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int value, size_t n);

static inline void bytes_copy(void *dst, const void *src, uint64_t n) {
  if (n > 0) sol_memcpy_(dst, src, n);
}

static inline void bytes_zero(void *dst, uint64_t n) {
  if (n > 0) sol_memset_(dst, 0, n);
}

static inline bool bytes_equal(const void *a, const void *b, uint64_t n) {
  const uint8_t *x = (const uint8_t *)a;
  const uint8_t *y = (const uint8_t *)b;
  uint8_t diff = 0;
  for (uint64_t i = 0; i < n; i++) diff |= (uint8_t)(x[i] ^ y[i]);
  return diff == 0;
}

static inline bool pubkey_equal(const Pubkey *a, const Pubkey *b) { return bytes_equal(a, b, PUBKEY_BYTES); }

static inline void log_text(const char *text) {
  uint64_t n = 0;
  while (text[n] != 0) n++;
  sol_log_(text, n);
}

/* Little-endian loads and stores on byte arrays: account data and instruction data have no alignment. */
static inline uint64_t read_u64_le(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static inline uint32_t read_u32_le(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void write_u64_le(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void write_u32_le(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- Program input ---------------------------------------------------------------------------- */

#define MAX_PERMITTED_DATA_INCREASE 10240
#define NON_DUP_MARKER 0xff
/* Every instruction of both programs takes at most nine accounts; extra ones are skipped. */
#define MAX_ACCOUNTS 12

typedef struct {
  SolAccountInfo accounts[MAX_ACCOUNTS];
  /* Accounts the transaction passed, including those beyond MAX_ACCOUNTS. */
  uint64_t account_count;
  const uint8_t *data;
  uint64_t data_len;
  const Pubkey *program_id;
} ProgramInput;

/*
 * Reads the runtime's serialization: u64 account count; per account either a duplicate marker (index of
 * the first occurrence, 7 bytes padding) or marker 0xff, is_signer, is_writable, executable, 4 bytes of
 * padding, key, owner, lamports, data_len, data, 10 KiB of growth room, padding to 8, rent_epoch; then
 * u64 instruction data length, the data, and the program id.
 */
static inline void parse_input(uint8_t *input, ProgramInput *out) {
  uint64_t offset = 0;
  uint64_t count = read_u64_le(input);
  offset += 8;
  out->account_count = count;
  for (uint64_t i = 0; i < count; i++) {
    uint8_t marker = input[offset];
    if (marker != NON_DUP_MARKER) {
      /* The runtime only writes indexes of earlier accounts. */
      if (i < MAX_ACCOUNTS && marker < i) out->accounts[i] = out->accounts[marker];
      offset += 8;
      continue;
    }
    uint64_t data_len = read_u64_le(input + offset + 80);
    if (i < MAX_ACCOUNTS) {
      SolAccountInfo *info = &out->accounts[i];
      info->is_signer = input[offset + 1] != 0;
      info->is_writable = input[offset + 2] != 0;
      info->executable = input[offset + 3] != 0;
      info->key = (Pubkey *)(input + offset + 8);
      info->owner = (Pubkey *)(input + offset + 40);
      info->lamports = (uint64_t *)(input + offset + 72);
      info->data_len = data_len;
      info->data = input + offset + 88;
    }
    offset += 88 + data_len + MAX_PERMITTED_DATA_INCREASE;
    offset = (offset + 7) & ~(uint64_t)7;
    offset += 8; /* rent_epoch */
  }
  out->data_len = read_u64_le(input + offset);
  out->data = input + offset + 8;
  out->program_id = (const Pubkey *)(input + offset + 8 + out->data_len);
}

/* Account data length as the runtime sees it now: a CPI that allocates updates the serialized length
 * (8 bytes before the data) but not a copy of it. */
static inline uint64_t account_data_len(const SolAccountInfo *info) { return read_u64_le(info->data - 8); }

/* The program heap (32 KiB at a fixed virtual address): scratch space for event payloads, which can be
 * larger than a stack frame. Nothing is kept there between calls. */
#define HEAP_START ((uint8_t *)0x300000000ULL)
#define HEAP_BYTES (32 * 1024)

#endif
