/*
 * common_fifo -- cycle-accurate C model of the synchronous show-ahead FIFO.
 * Spec: docs/common.md, section "common_fifo".
 */
#include "common_fifo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const common_fifo_bug_names[] = {"none", "fifo_full_early", NULL};

/* Mask for the top word: only (width mod 32) bits are real, or all 32 if it divides. */
static uint32_t top_word_mask(unsigned width) {
  unsigned rem = width % 32u;
  return rem == 0 ? 0xFFFFFFFFu : ((1u << rem) - 1u);
}

static unsigned next_slot(unsigned slot, unsigned depth) {
  /* Depth need not be a power of two (spec "Parameters"), so wrap explicitly. */
  return slot + 1u == depth ? 0u : slot + 1u;
}

int common_fifo_init(common_fifo_state_t *s, const common_fifo_cfg_t *cfg) {
  memset(s, 0, sizeof(*s));
  if (cfg->width < COMMON_FIFO_MIN_WIDTH || cfg->width > COMMON_FIFO_MAX_WIDTH) {
    fprintf(stderr, "common_fifo: width=%u is illegal (must be %u..%u)\n", cfg->width,
            (unsigned)COMMON_FIFO_MIN_WIDTH, (unsigned)COMMON_FIFO_MAX_WIDTH);
    return -EINVAL;
  }
  if (cfg->depth < COMMON_FIFO_MIN_DEPTH || cfg->depth > COMMON_FIFO_MAX_DEPTH) {
    fprintf(stderr, "common_fifo: depth=%u is illegal (must be %u..%u)\n", cfg->depth,
            (unsigned)COMMON_FIFO_MIN_DEPTH, (unsigned)COMMON_FIFO_MAX_DEPTH);
    return -EINVAL;
  }
  if (cfg->bug >= COMMON_FIFO_BUG_COUNT) {
    fprintf(stderr, "common_fifo: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_FIFO_BUG_COUNT - 1u);
    return -EINVAL;
  }
  size_t words = (size_t)cfg->depth * COMMON_FIFO_WORDS(cfg->width);
  s->mem = calloc(words, sizeof(uint32_t));
  if (s->mem == NULL) {
    fprintf(stderr, "common_fifo: out of memory for depth=%u width=%u\n", cfg->depth, cfg->width);
    return -ENOMEM;
  }
  common_fifo_reset(s, cfg);
  return 0;
}

void common_fifo_reset(common_fifo_state_t *s, const common_fifo_cfg_t *cfg) {
  (void)cfg;
  /* "Reset: empty, both pulses 0." The memory itself is not reset: pop_data_o while
       empty is don't care. */
  s->rd = 0;
  s->wr = 0;
  s->count = 0;
  s->overflow = false;
  s->underflow = false;
}

void common_fifo_eval(const common_fifo_cfg_t *cfg, const common_fifo_state_t *s, const common_fifo_in_t *in,
                      common_fifo_out_t *out, common_fifo_next_t *nx) {
  const unsigned words = COMMON_FIFO_WORDS(cfg->width);

  /* full_o = (count == Depth). Planted bug fifo_full_early: Depth-1 already counts as
       full, both on full_o and for push rejection. */
  unsigned full_level = cfg->depth;
  if (cfg->bug == COMMON_FIFO_BUG_FULL_EARLY) full_level = cfg->depth - 1u;
  const bool full = s->count >= full_level;

  /* All outputs are functions of the registered state only; no bypass from push_data_i. */
  out->pop_data = &s->mem[(size_t)s->rd * words];
  out->full = full;
  out->empty = s->count == 0;
  out->count = s->count;
  out->overflow = s->overflow;
  out->underflow = s->underflow;

  /* Spec "Behaviour, per cycle". push_ok uses !full so that full + pop + push is
       accepted; !full is "count < Depth" when bug == 0. */
  const bool pop_ok = in->pop && s->count > 0;
  const bool push_ok = in->push && (!full || pop_ok);

  nx->pop_ok = pop_ok;
  nx->push_ok = push_ok;
  nx->overflow = in->push && !push_ok;
  nx->underflow = in->pop && !pop_ok;

  /* Copy the data now: the caller's buffer is only valid during eval. */
  memset(nx->push_data, 0, sizeof(nx->push_data));
  if (push_ok) {
    /* a word at a time: entries are a few words, a library memcpy call costs more */
    for (unsigned k = 0; k < words; k++) nx->push_data[k] = in->push_data[k];
    nx->push_data[words - 1u] &= top_word_mask(cfg->width);
  }
}

void common_fifo_commit(const common_fifo_cfg_t *cfg, common_fifo_state_t *s, const common_fifo_next_t *nx) {
  const unsigned words = COMMON_FIFO_WORDS(cfg->width);

  /* When full + pop + push, wr == rd: the new entry takes the slot the head leaves. */
  if (nx->push_ok) {
    uint32_t *e = &s->mem[(size_t)s->wr * words]; /* a word at a time, as in eval */
    for (unsigned k = 0; k < words; k++) e[k] = nx->push_data[k];
    s->wr = next_slot(s->wr, cfg->depth);
  }
  if (nx->pop_ok) s->rd = next_slot(s->rd, cfg->depth);

  /* count' = count + push_ok - pop_ok */
  if (nx->push_ok && !nx->pop_ok)
    s->count++;
  else if (nx->pop_ok && !nx->push_ok)
    s->count--;

  s->overflow = nx->overflow;
  s->underflow = nx->underflow;
}

void common_fifo_free(common_fifo_state_t *s) {
  free(s->mem);
  s->mem = NULL;
}
