/* FIFO scoreboard shared by the FIFO tests: entries leave in push order and
 * intact, count/full/empty agree with the number of entries held, the error
 * pulses follow rejected operations, the ports have the spec's widths, and the
 * run reached every corner. Instantiated per target type because port storage
 * differs with Width. */
#ifndef COMMON_FIFO_SCOREBOARD_H
#define COMMON_FIFO_SCOREBOARD_H

#include <string.h>

#include "bind/common.h"
#include "common_busy.h"
#include "common_widths.h"

#define FIFO_SB_MAX 64

typedef struct {
  uint32_t q[FIFO_SB_MAX][COMMON_FIFO_MAX_WORDS]; /* entries believed held, oldest first */
  unsigned head, n;
  bool want_overflow, want_underflow; /* pulses due this cycle */
  bool started;
  unsigned seen_full, seen_overflow, seen_underflow, seen_push_pop_full, pops;
  uint64_t busy; /* cycles with a push or a pop attempted */
} fifo_sb_t;

#define FIFO_SCOREBOARD(T, U)                                                                              \
  static bool T##_sb_check(fifo_sb_t *sb, const T##_in_t *in, const T##_out_t *out, cosim_msg_t *msg) {    \
    const unsigned depth = (unsigned)U##_PARAM_Depth;                                                      \
    if (!sb->started) {                                                                                    \
      const spec_width_t w[] = {{"push_data_i", (unsigned)U##_PARAM_Width},                                \
                                {"pop_data_o", (unsigned)U##_PARAM_Width},                                 \
                                {"count_o", spec_clog2(depth + 1)}}; /* CountW */                          \
      if (!spec_widths_check(&T##_glue, w, 3, msg)) return false;                                          \
      sb->started = true;                                                                                  \
    }                                                                                                      \
    if (out->count_o != sb->n) {                                                                           \
      cosim_fail(msg, "fifo.count", "count_o=%u but %u entries are held", out->count_o, sb->n);            \
      return false;                                                                                        \
    }                                                                                                      \
    if (out->full_o != (sb->n == depth) || out->empty_o != (sb->n == 0)) {                                 \
      cosim_fail(msg, "fifo.full_empty", "full_o=%u empty_o=%u with %u of %u entries held", out->full_o,   \
                 out->empty_o, sb->n, depth);                                                              \
      return false;                                                                                        \
    }                                                                                                      \
    if (out->overflow_o != sb->want_overflow || out->underflow_o != sb->want_underflow) {                  \
      cosim_fail(msg, "fifo.error_pulses", "overflow_o=%u underflow_o=%u, expected %u %u from last cycle", \
                 out->overflow_o, out->underflow_o, sb->want_overflow, sb->want_underflow);                \
      return false;                                                                                        \
    }                                                                                                      \
    if (sb->n && memcmp(&out->pop_data_o, sb->q[sb->head], sizeof out->pop_data_o)) {                      \
      cosim_fail(msg, "fifo.order", "head entry is not the oldest pushed entry (pop #%u)", sb->pops);      \
      return false;                                                                                        \
    }                                                                                                      \
    bool pop_ok = in->pop_i && sb->n > 0;                                                                  \
    bool push_ok = in->push_i && (sb->n < depth || pop_ok);                                                \
    sb->want_overflow = in->push_i && !push_ok;                                                            \
    sb->want_underflow = in->pop_i && !pop_ok;                                                             \
    sb->busy += in->push_i || in->pop_i;                                                                   \
    sb->seen_full += sb->n == depth;                                                                       \
    sb->seen_overflow += sb->want_overflow;                                                                \
    sb->seen_underflow += sb->want_underflow;                                                              \
    sb->seen_push_pop_full += sb->n == depth && push_ok && pop_ok;                                         \
    if (pop_ok) {                                                                                          \
      sb->head = (sb->head + 1) % FIFO_SB_MAX;                                                             \
      sb->n--;                                                                                             \
      sb->pops++;                                                                                          \
    }                                                                                                      \
    if (push_ok) {                                                                                         \
      uint32_t *slot = sb->q[(sb->head + sb->n) % FIFO_SB_MAX];                                            \
      memset(slot, 0, sizeof sb->q[0]);                                                                    \
      memcpy(slot, &in->push_data_i, sizeof in->push_data_i);                                              \
      sb->n++;                                                                                             \
    }                                                                                                      \
    return true;                                                                                           \
  }

/* Coverage: a FIFO test that never filled the FIFO proves little. */
static inline bool fifo_sb_coverage(const fifo_sb_t *sb, cosim_msg_t *msg) {
  if (!sb->seen_full || !sb->seen_overflow || !sb->seen_underflow || !sb->seen_push_pop_full) {
    cosim_fail(msg, "fifo.coverage",
               "coverage hole: full %u, overflow %u, underflow %u, push+pop while full %u", sb->seen_full,
               sb->seen_overflow, sb->seen_underflow, sb->seen_push_pop_full);
    return false;
  }
  return true;
}

/* Busy: a cycle with a push or a pop attempted (accepted or rejected). */
static inline bool fifo_sb_busy(const fifo_sb_t *sb, uint64_t cycles, cosim_msg_t *msg) {
  return common_busy_gate("fifo.busy", "a push or pop attempted", sb->busy, cycles, msg);
}

#endif
