/* Credit-counter scoreboard: a ledger per VC. From last cycle's credits and
 * operations it predicts this cycle's credits and error pulses (spec rules in
 * docs/common.md), checks avail_o against the counts and the ports against the
 * spec's widths. Instantiated per target type, like the FIFO's. */
#ifndef COMMON_CREDIT_SCOREBOARD_H
#define COMMON_CREDIT_SCOREBOARD_H

#include "bind/common.h"
#include "common_busy.h"
#include "common_widths.h"

#define CC_MAX_VCS 16 /* NumVcs legal range 1..16 */

typedef struct {
  unsigned cnt[CC_MAX_VCS];
  unsigned want_under, want_over, want_bad;
  bool started;
  unsigned seen_under, seen_over, seen_bad, seen_zero, seen_init;
  uint64_t busy; /* cycles with a take, a return or a re-init */
} cc_sb_t;

#define CC_SCOREBOARD(T, U)                                                                                 \
  static bool T##_sb_check(cc_sb_t *sb, const T##_in_t *in, const T##_out_t *out, cosim_msg_t *msg) {       \
    const unsigned vcs = (unsigned)U##_PARAM_NumVcs, max = (unsigned)U##_PARAM_MaxCredits;                  \
    const unsigned cntw = spec_clog2(max + 1ULL); /* CntW */                                                \
    if (!sb->started) {                           /* after reset every VC holds MaxCredits */               \
      const spec_width_t w[] = {{"consume_vc_i", vcs > 1 ? spec_clog2(vcs) : 1}, /* VcW */                  \
                                {"return_i", vcs},                                                          \
                                {"credits_o", vcs * cntw},                                                  \
                                {"avail_o", vcs},                                                           \
                                {"underflow_o", vcs},                                                       \
                                {"overflow_o", vcs}};                                                       \
      if (!spec_widths_check(&T##_glue, w, 6, msg)) return false;                                           \
      for (unsigned v = 0; v < vcs; v++) sb->cnt[v] = max;                                                  \
      sb->started = true;                                                                                   \
    }                                                                                                       \
    for (unsigned v = 0; v < vcs; v++) {                                                                    \
      unsigned got = (unsigned)(out->credits_o >> (v * cntw)) & ((1u << cntw) - 1);                         \
      if (got != sb->cnt[v]) {                                                                              \
        cosim_fail(msg, "credit.ledger", "VC %u holds %u credits, the ledger says %u", v, got, sb->cnt[v]); \
        return false;                                                                                       \
      }                                                                                                     \
      if (((out->avail_o >> v) & 1) != (got != 0)) {                                                        \
        cosim_fail(msg, "credit.avail", "avail_o[%u]=%u with %u credits", v, (out->avail_o >> v) & 1, got); \
        return false;                                                                                       \
      }                                                                                                     \
    }                                                                                                       \
    if (out->underflow_o != sb->want_under || out->overflow_o != sb->want_over ||                           \
        out->bad_vc_o != sb->want_bad) {                                                                    \
      cosim_fail(msg, "credit.error_pulses",                                                                \
                 "error pulses underflow=%x overflow=%x bad_vc=%u, expected %x %x %u", out->underflow_o,    \
                 out->overflow_o, out->bad_vc_o, sb->want_under, sb->want_over, sb->want_bad);              \
      return false;                                                                                         \
    }                                                                                                       \
    /* this cycle's operations -> next cycle's expectation */                                               \
    sb->want_under = sb->want_over = sb->want_bad = 0;                                                      \
    sb->busy += in->init_i || in->consume_i || in->return_i;                                                \
    if (in->init_i) {                                                                                       \
      for (unsigned v = 0; v < vcs; v++) sb->cnt[v] = max;                                                  \
      sb->seen_init++;                                                                                      \
      return true;                                                                                          \
    }                                                                                                       \
    sb->want_bad = in->consume_i && in->consume_vc_i >= vcs;                                                \
    for (unsigned v = 0; v < vcs; v++) {                                                                    \
      bool cons = in->consume_i && in->consume_vc_i == v, ret = (in->return_i >> v) & 1;                    \
      if (cons && !ret) {                                                                                   \
        if (sb->cnt[v] == 0)                                                                                \
          sb->want_under |= 1u << v;                                                                        \
        else                                                                                                \
          sb->cnt[v]--;                                                                                     \
      } else if (ret && !cons) {                                                                            \
        if (sb->cnt[v] == max)                                                                              \
          sb->want_over |= 1u << v;                                                                         \
        else                                                                                                \
          sb->cnt[v]++;                                                                                     \
      }                                                                                                     \
      sb->seen_zero += sb->cnt[v] == 0;                                                                     \
    }                                                                                                       \
    sb->seen_under += sb->want_under != 0;                                                                  \
    sb->seen_over += sb->want_over != 0;                                                                    \
    sb->seen_bad += sb->want_bad;                                                                           \
    return true;                                                                                            \
  }

static inline bool cc_sb_coverage(const cc_sb_t *sb, cosim_msg_t *msg) {
  if (!sb->seen_under || !sb->seen_over || !sb->seen_bad || !sb->seen_zero || !sb->seen_init) {
    cosim_fail(msg, "credit.coverage",
               "coverage hole: underflow %u, overflow %u, bad VC %u, empty VC %u, init %u", sb->seen_under,
               sb->seen_over, sb->seen_bad, sb->seen_zero, sb->seen_init);
    return false;
  }
  return true;
}

/* Busy: a cycle with a credit taken (consume_i, a bad VC included), one
 * returned, or a re-init. */
static inline bool cc_sb_busy(const cc_sb_t *sb, uint64_t cycles, cosim_msg_t *msg) {
  return common_busy_gate("credit.busy", "a take, return or init", sb->busy, cycles, msg);
}

#endif
