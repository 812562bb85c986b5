/*
 * The Anchor conventions the live programs follow, so that clients built for them (discriminators,
 * Borsh arguments, error numbers, event logs) work unchanged against these programs.
 */
#ifndef HTLC_ANCHOR_H
#define HTLC_ANCHOR_H

#include "sol.h"

#define DISCRIMINATOR_BYTES 8

/* sha256("global:<name>")[0..8] for each instruction. */
static const uint8_t IX_INITIATE[DISCRIMINATOR_BYTES] = {0x05, 0x3f, 0x7b, 0x71, 0x99, 0x4b, 0x94, 0x0e};
static const uint8_t IX_REDEEM[DISCRIMINATOR_BYTES] = {0xb8, 0x0c, 0x56, 0x95, 0x46, 0xc4, 0x61, 0xe1};
static const uint8_t IX_REFUND[DISCRIMINATOR_BYTES] = {0x02, 0x60, 0xb7, 0xfb, 0x3f, 0xd0, 0x2e, 0x2e};
static const uint8_t IX_INSTANT_REFUND[DISCRIMINATOR_BYTES] = {0xd3, 0xca, 0x67, 0x29, 0xb7, 0x93, 0x3b, 0xfb};

/* sha256("account:SwapAccount")[0..8]. */
static const uint8_t SWAP_ACCOUNT_DISCRIMINATOR[DISCRIMINATOR_BYTES] = {0x35, 0x7e, 0x09, 0x0e, 0x0e, 0xc5, 0x69, 0xb6};

/* sha256("event:<Name>")[0..8]. */
static const uint8_t EV_INITIATED[DISCRIMINATOR_BYTES] = {0x06, 0x6c, 0xd4, 0x5b, 0x43, 0x3c, 0xcf, 0xdd};
static const uint8_t EV_REDEEMED[DISCRIMINATOR_BYTES] = {0x0e, 0x1d, 0xb7, 0x47, 0x1f, 0xa5, 0x6b, 0x26};
static const uint8_t EV_REFUNDED[DISCRIMINATOR_BYTES] = {0x23, 0x67, 0x95, 0xf6, 0xc4, 0x7b, 0xdd, 0x63};
static const uint8_t EV_INSTANT_REFUNDED[DISCRIMINATOR_BYTES] = {0xdc, 0x32, 0x12, 0xcf, 0xb7, 0xe8, 0xda, 0x19};

/* Anchor's framework error numbers, returned as custom program errors. */
#define ERR_INSTRUCTION_MISSING 100
#define ERR_INSTRUCTION_FALLBACK_NOT_FOUND 101
#define ERR_INSTRUCTION_DID_NOT_DESERIALIZE 102
#define ERR_CONSTRAINT_MUT 2000
#define ERR_CONSTRAINT_SEEDS 2006
#define ERR_CONSTRAINT_TOKEN_MINT 2014
#define ERR_CONSTRAINT_TOKEN_OWNER 2015
#define ERR_ACCOUNT_DISCRIMINATOR_NOT_FOUND 3001
#define ERR_ACCOUNT_DISCRIMINATOR_MISMATCH 3002
#define ERR_ACCOUNT_DID_NOT_DESERIALIZE 3003
#define ERR_ACCOUNT_NOT_ENOUGH_KEYS 3005
#define ERR_ACCOUNT_OWNED_BY_WRONG_PROGRAM 3007
#define ERR_INVALID_PROGRAM_ID 3008
#define ERR_ACCOUNT_NOT_SIGNER 3010
#define ERR_ACCOUNT_NOT_INITIALIZED 3012

/* Names and messages sit inside the table rather than behind pointers: a pointer in read-only data would
 * need a data relocation, which the project's linker deliberately does not produce. */
typedef struct {
  uint32_t number;
  char name[32];
  char message[72];
} ErrorDef;

static const ErrorDef FRAMEWORK_ERRORS[] = {
    {ERR_INSTRUCTION_MISSING, "InstructionMissing", "The instruction data is shorter than a discriminator"},
    {ERR_INSTRUCTION_FALLBACK_NOT_FOUND, "InstructionFallbackNotFound", "No instruction has this discriminator"},
    {ERR_INSTRUCTION_DID_NOT_DESERIALIZE, "InstructionDidNotDeserialize", "The instruction arguments do not decode"},
    {ERR_CONSTRAINT_MUT, "ConstraintMut", "The account must be writable"},
    {ERR_CONSTRAINT_SEEDS, "ConstraintSeeds", "The account is not the program address of its seeds"},
    {ERR_CONSTRAINT_TOKEN_MINT, "ConstraintTokenMint", "The token account holds another mint"},
    {ERR_CONSTRAINT_TOKEN_OWNER, "ConstraintTokenOwner", "The token account has another owner"},
    {ERR_ACCOUNT_DISCRIMINATOR_NOT_FOUND, "AccountDiscriminatorNotFound", "The account data is too short"},
    {ERR_ACCOUNT_DISCRIMINATOR_MISMATCH, "AccountDiscriminatorMismatch", "The account is of another type"},
    {ERR_ACCOUNT_DID_NOT_DESERIALIZE, "AccountDidNotDeserialize", "The account data does not decode"},
    {ERR_ACCOUNT_NOT_ENOUGH_KEYS, "AccountNotEnoughKeys", "The instruction needs more accounts"},
    {ERR_ACCOUNT_OWNED_BY_WRONG_PROGRAM, "AccountOwnedByWrongProgram", "The account has another owner program"},
    {ERR_INVALID_PROGRAM_ID, "InvalidProgramId", "The account is not the expected program"},
    {ERR_ACCOUNT_NOT_SIGNER, "AccountNotSigner", "The account must sign"},
    {ERR_ACCOUNT_NOT_INITIALIZED, "AccountNotInitialized", "The account does not exist (closed or never created)"},
};

/* Appends text to a log line under construction; the line lives on the heap. */
typedef struct {
  uint8_t *buf;
  uint64_t len;
  uint64_t cap;
} LineBuilder;

static inline void line_text(LineBuilder *line, const char *text) {
  for (uint64_t i = 0; text[i] != 0 && line->len < line->cap; i++) line->buf[line->len++] = (uint8_t)text[i];
}

static inline void line_number(LineBuilder *line, uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0 && n < 20);
  while (n > 0 && line->len < line->cap) line->buf[line->len++] = (uint8_t)digits[--n];
}

/*
 * Logs the error the way Anchor does ("AnchorError caused by account: …" or "AnchorError occurred. …")
 * and returns its number as the program's custom error.
 */
static inline uint64_t anchor_error(const char *account, const ErrorDef *def) {
  LineBuilder line = {HEAP_START, 0, 512};
  if (account != NULL) {
    line_text(&line, "AnchorError caused by account: ");
    line_text(&line, account);
    line_text(&line, ". Error Code: ");
  } else {
    line_text(&line, "AnchorError occurred. Error Code: ");
  }
  line_text(&line, def->name);
  line_text(&line, ". Error Number: ");
  line_number(&line, def->number);
  line_text(&line, ". Error Message: ");
  line_text(&line, def->message);
  line_text(&line, ".");
  sol_log_((const char *)line.buf, line.len);
  return def->number;
}

static inline uint64_t framework_error(const char *account, uint32_t number) {
  for (uint64_t i = 0; i < sizeof(FRAMEWORK_ERRORS) / sizeof(FRAMEWORK_ERRORS[0]); i++) {
    if (FRAMEWORK_ERRORS[i].number == number) return anchor_error(account, &FRAMEWORK_ERRORS[i]);
  }
  /* Unreachable for the numbers defined above; still an error, never a success. */
  return number;
}

/* ---- Borsh reading of instruction arguments ---------------------------------------------------- */

/* A cursor over instruction data; every read checks the remaining length first. */
typedef struct {
  const uint8_t *p;
  uint64_t left;
} Reader;

static inline bool read_bytes(Reader *r, uint64_t n, const uint8_t **out) {
  if (r->left < n) return false;
  *out = r->p;
  r->p += n;
  r->left -= n;
  return true;
}

static inline bool read_u64(Reader *r, uint64_t *out) {
  const uint8_t *p;
  if (!read_bytes(r, 8, &p)) return false;
  *out = read_u64_le(p);
  return true;
}

/*
 * Option<Vec<u8>>: tag 0 (None) or 1 (Some) then u32 length and bytes. `present` tells the two apart
 * because Some(empty) and None are different values on the wire and in the event.
 */
static inline bool read_option_bytes(Reader *r, bool *present, const uint8_t **bytes, uint32_t *len) {
  const uint8_t *tag;
  if (!read_bytes(r, 1, &tag)) return false;
  if (tag[0] == 0) {
    *present = false;
    *bytes = NULL;
    *len = 0;
    return true;
  }
  if (tag[0] != 1) return false;
  const uint8_t *len_bytes;
  if (!read_bytes(r, 4, &len_bytes)) return false;
  *len = read_u32_le(len_bytes);
  *present = true;
  return read_bytes(r, *len, bytes);
}

/* ---- Event payloads (Anchor's emit!: one sol_log_data slice of discriminator ‖ Borsh fields) ----- */

typedef LineBuilder EventWriter;

/* ProgramError::InvalidInstructionData: an event (its destination data) larger than the heap. */
#define ERR_EVENT_TOO_LARGE ((uint64_t)3 << 32)

static inline void event_bytes(EventWriter *w, const void *bytes, uint64_t n) {
  /* Callers size events below the heap; the check keeps a bug from writing past it. */
  if (w->len + n > w->cap) {
    w->len = w->cap + 1;
    return;
  }
  bytes_copy(w->buf + w->len, bytes, n);
  w->len += n;
}

static inline void event_u64(EventWriter *w, uint64_t v) {
  uint8_t b[8];
  write_u64_le(b, v);
  event_bytes(w, b, 8);
}

/* False when the payload did not fit: the caller fails the instruction rather than emit a cut event. */
static inline bool event_emit(const EventWriter *w) {
  if (w->len > w->cap) return false;
  SolBytes slice = {w->buf, w->len};
  sol_log_data(&slice, 1);
  return true;
}

#endif
