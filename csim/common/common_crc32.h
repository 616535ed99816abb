/*
 * common_crc32 -- cycle-accurate C model of the IEEE 802.3 CRC-32, 32 bits per cycle.
 * Spec: docs/common.md, section "common_crc32".
 */
#ifndef COMMON_CRC32_H
#define COMMON_CRC32_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMMON_CRC32_POLY_REFLECTED 0xEDB88320u
#define COMMON_CRC32_INIT           0xFFFFFFFFu

/* Indices into common_crc32_bug_names. */
enum {
  COMMON_CRC32_BUG_NONE = 0,
  COMMON_CRC32_BUG_IGNORE_KEEP = 1, /* "crc_ignore_keep": a legal keep feeds all 4 bytes */
  COMMON_CRC32_BUG_COUNT
};

typedef struct {
  unsigned bug; /* 0 = none, else index into common_crc32_bug_names (no parameters) */
} common_crc32_cfg_t;

typedef struct {
  uint32_t c;    /* CRC register, reset 0xFFFFFFFF */
  bool keep_err; /* registered pulse */
} common_crc32_state_t;

typedef struct {
  bool init;     /* init_i */
  bool valid;    /* valid_i */
  uint32_t data; /* data_i: byte k at bits 8k+7:8k, byte 0 first */
  unsigned keep; /* keep_i: 4 bits (higher bits are ignored); legal 0x1, 0x3, 0x7, 0xF */
} common_crc32_in_t;

typedef struct {
  uint32_t crc;  /* crc_o = ~c */
  bool keep_err; /* keep_err_o */
} common_crc32_out_t;

typedef struct {
  uint32_t c;    /* c' */
  bool keep_err; /* keep_err_o' */
} common_crc32_next_t;

/* Validate cfg and reset. 0 or -EINVAL (bad cfg, one line on stderr). */
int common_crc32_init(common_crc32_state_t *s, const common_crc32_cfg_t *cfg);
/* State after rst_ni: c = 0xFFFFFFFF, pulse 0. */
void common_crc32_reset(common_crc32_state_t *s, const common_crc32_cfg_t *cfg);
/* Pure: outputs of this cycle and the next state. Does not modify s. */
void common_crc32_eval(const common_crc32_cfg_t *cfg, const common_crc32_state_t *s,
                       const common_crc32_in_t *in, common_crc32_out_t *out, common_crc32_next_t *nx);
/* The clock edge. */
void common_crc32_commit(const common_crc32_cfg_t *cfg, common_crc32_state_t *s,
                         const common_crc32_next_t *nx);
void common_crc32_free(common_crc32_state_t *s); /* no-op */

/* The register after feeding one whole word from register c (= common_crc32_eval with
   valid, keep 1111), and the CRC of n words from reset (~register, what a TAIL carries). */
uint32_t common_crc32_feed_word(uint32_t c, uint32_t word);
uint32_t common_crc32_words(const uint32_t *words, unsigned n);

extern const char *const common_crc32_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_CRC32_H */
