/* Event-counter scoreboard: its own count, kept in 128-bit arithmetic straight
 * from the spec's formulas (clear first, then min(n + inc, 2^Width - 1) or
 * (n + inc) mod 2^Width), never the model's. Checks count_o and sat_o every
 * cycle, the ports' widths once, the share of busy cycles (inc or clear) and
 * that the run reached the corners of its mode. Instantiated per target type. */
#ifndef COMMON_COUNTER_SCOREBOARD_H
#define COMMON_COUNTER_SCOREBOARD_H

#include <stdio.h>

#include "bind/common.h"
#include "common_widths.h"

typedef unsigned __int128 ctr_u128_t;

typedef struct {
  ctr_u128_t n; /* the count the spec predicts for this cycle */
  bool started;
  unsigned width, saturate;
  uint64_t cycles, busy;
  /* corners: the sum reached 2^Width (saturated or wrapped), landed exactly on
     all ones, a clear took a non-zero count, a clear beat a non-zero inc,
     the count carried out of the low 16 bits */
  uint64_t seen_over, seen_exact, seen_clear, seen_clear_inc, seen_carry16;
} ctr_sb_t;

#define CTR_SCOREBOARD(T, U)                                                                           \
  static bool T##_sb_check(ctr_sb_t *sb, const T##_in_t *in, const T##_out_t *out, cosim_msg_t *msg) { \
    const unsigned width = (unsigned)U##_PARAM_Width, incw = (unsigned)U##_PARAM_IncW;                 \
    const ctr_u128_t mod = (ctr_u128_t)1 << width, ones = mod - 1;                                     \
    if (!sb->started) { /* reset: n = 0 */                                                             \
      const spec_width_t w[] = {{"inc_i", incw}, {"clear_i", 1}, {"count_o", width}, {"sat_o", 1}};    \
      if (!spec_widths_check(&T##_glue, w, 4, msg)) return false;                                      \
      sb->width = width;                                                                               \
      sb->saturate = (unsigned)U##_PARAM_Saturate;                                                     \
      sb->started = true;                                                                              \
    }                                                                                                  \
    if ((ctr_u128_t)out->count_o != sb->n) {                                                           \
      cosim_fail(msg, "counter.value", "count_o=0x%llx, the spec's count is 0x%llx",                   \
                 (unsigned long long)out->count_o, (unsigned long long)sb->n);                         \
      return false;                                                                                    \
    }                                                                                                  \
    if (out->sat_o != (sb->n == ones)) {                                                               \
      cosim_fail(msg, "counter.sat", "sat_o=%u with count 0x%llx (all ones is 0x%llx)", out->sat_o,    \
                 (unsigned long long)sb->n, (unsigned long long)ones);                                 \
      return false;                                                                                    \
    }                                                                                                  \
    const unsigned inc = in->inc_i & ((1u << incw) - 1u);                                              \
    const ctr_u128_t sum = sb->n + inc;                                                                \
    sb->cycles++;                                                                                      \
    sb->busy += inc != 0 || in->clear_i;                                                               \
    if (in->clear_i) {                                                                                 \
      sb->seen_clear += sb->n != 0;                                                                    \
      sb->seen_clear_inc += inc != 0;                                                                  \
      sb->n = 0;                                                                                       \
    } else {                                                                                           \
      sb->seen_over += sum > ones;                                                                     \
      sb->seen_exact += sb->n != ones && sum == ones;                                                  \
      sb->seen_carry16 += (sum >> 16) != (sb->n >> 16);                                                \
      sb->n = (U##_PARAM_Saturate) ? (sum > ones ? ones : sum) : sum % mod;                            \
    }                                                                                                  \
    return true;                                                                                       \
  }

/* End of run: first the busy gate (a mostly idle counter proves little), then
 * the corners of the mode. A wrapping counter wider than 20 bits cannot wrap in
 * a simulation of this length (2^Width / (2^IncW - 1) cycles at least); there a
 * carry out of the low 16 bits stands in, and the wrap is covered by a narrow
 * wrapping target and the unit tests. */
static inline bool ctr_sb_finish(const ctr_sb_t *sb, cosim_msg_t *msg) {
  const double busy = sb->cycles ? (double)sb->busy / (double)sb->cycles : 0;
  printf("busy: %.1f %% of %llu cycles had an event (inc or clear)\n", 100 * busy,
         (unsigned long long)sb->cycles);
  if (busy < 0.90) {
    cosim_fail(msg, "counter.busy", "only %.1f %% of cycles had an inc or a clear (gate: 90 %%)", 100 * busy);
    return false;
  }
  printf("corners: %llu %s, %llu exact all-ones, %llu clears of a non-zero count, %llu clears over an inc, "
         "%llu carries out of bit 15\n",
         (unsigned long long)sb->seen_over, sb->saturate ? "saturations" : "wraps",
         (unsigned long long)sb->seen_exact, (unsigned long long)sb->seen_clear,
         (unsigned long long)sb->seen_clear_inc, (unsigned long long)sb->seen_carry16);
  const char *hole = NULL;
  if (sb->width <= 20 && !sb->seen_over)
    hole = sb->saturate ? "the count never saturated" : "the count never wrapped";
  else if (sb->width <= 20 && !sb->seen_exact)
    hole = "no increment landed exactly on all ones";
  else if (sb->width > 20 && !sb->seen_carry16)
    hole = "the count never carried out of bit 15";
  else if (!sb->seen_clear || !sb->seen_clear_inc)
    hole = "no clear of a non-zero count, or none over an inc";
  if (hole) {
    cosim_fail(msg, "counter.coverage", "coverage hole: %s", hole);
    return false;
  }
  return true;
}

#endif
