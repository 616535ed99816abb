/* LFSR scoreboard: a reference written from the spec's taps (32, 22, 2, 1),
 * flipping one bit per tap rather than XOR-ing a mask; the state is never 0;
 * seed_err_o follows a load of 0. */
#ifndef COMMON_LFSR_SCOREBOARD_H
#define COMMON_LFSR_SCOREBOARD_H

#include "bind/common.h"
#include "common_busy.h"

typedef struct {
  uint32_t s;
  bool started, want_err;
  uint64_t steps;
} lfsr_sb_t;

static inline uint32_t lfsr_ref_step(uint32_t s) {
  uint32_t out = s & 1, n = s >> 1;
  if (out) {
    static const int taps[] = {32, 22, 2, 1}; /* tap t feeds bit t-1 */
    for (unsigned k = 0; k < 4; k++) n ^= 1u << (taps[k] - 1);
  }
  return n;
}

static inline bool lfsr_sb_check(lfsr_sb_t *sb, const common_lfsr32_s44257_in_t *in,
                                 const common_lfsr32_s44257_out_t *out, cosim_msg_t *msg) {
  if (!sb->started) {
    sb->s = (uint32_t)COMMON_LFSR32_S44257_PARAM_Seed;
    sb->started = true;
  }
  if (out->state_o != sb->s || out->state_o == 0) {
    cosim_fail(msg, "lfsr.reference", "state_o=0x%08x, reference 0x%08x after %llu steps", out->state_o,
               sb->s, (unsigned long long)sb->steps);
    return false;
  }
  if (out->seed_err_o != sb->want_err) {
    cosim_fail(msg, "lfsr.seed_err", "seed_err_o=%u, expected %u", out->seed_err_o, sb->want_err);
    return false;
  }
  sb->want_err = in->load_i && in->seed_i == 0;
  if (in->load_i) {
    if (in->seed_i) sb->s = in->seed_i;
  } else if (in->en_i) {
    sb->s = lfsr_ref_step(sb->s);
    sb->steps++;
  }
  return true;
}

/* Busy: a cycle with an enabled step (en_i without load_i). */
static inline bool lfsr_sb_busy(const lfsr_sb_t *sb, uint64_t cycles, cosim_msg_t *msg) {
  return common_busy_gate("lfsr.busy", "an enabled step", sb->steps, cycles, msg);
}

#endif
