/* Busy-cycle gate of the common blocks' random tests (issue 8 A.1): a random
 * test that leaves its block idle most of the time passes while proving
 * little, so each test counts the cycles in which its block had work (the
 * definition is per block, in its scoreboard), prints the fraction and fails
 * check <block>.busy below 90 %. Variants `*_random_idle` drive the same
 * stimulus with most cycles forced idle, as the gate's negatives. */
#ifndef COMMON_BUSY_H
#define COMMON_BUSY_H

#include <inttypes.h>
#include <stdio.h>

#include "bind/common.h"

#define COMMON_BUSY_MIN   0.9 /* the floor */
#define COMMON_IDLE_SHARE 0.8 /* share of cycles an *_random_idle variant forces idle */

static inline bool common_busy_gate(const char *id, const char *what, uint64_t busy, uint64_t cycles,
                                    cosim_msg_t *msg) {
  printf("busy: %" PRIu64 " of %" PRIu64 " cycles with %s (%.1f %%)\n", busy, cycles, what,
         cycles ? 100.0 * (double)busy / (double)cycles : 0.0);
  if ((double)busy < COMMON_BUSY_MIN * (double)cycles) {
    cosim_fail(msg, id, "coverage hole: %s in only %" PRIu64 " of %" PRIu64 " cycles (< 90 %%)", what, busy,
               cycles);
    return false;
  }
  return true;
}

#endif
