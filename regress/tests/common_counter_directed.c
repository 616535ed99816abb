/* Event counter directed corners, one test per target kind:
 *  - saturating, Width 8, IncW 3: a big increment from below (252 + 6 stops at
 *    255), held at all ones under inc and idle, clear over inc, then 252 + 3
 *    landing exactly on all ones and 255 + 1;
 *  - wrapping, Width 4 = IncW: 15 + 1 wraps to 0, 15 + 15 to 14, 14 + 2 to 0,
 *    clear over inc;
 *  - Width 1, saturating: 0, 1, held at 1, clear, clear over inc.
 * Expected counts are written out by hand from the spec, besides the scoreboard. */
#include "common_counter_scoreboard.h"

CTR_SCOREBOARD(common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT)
CTR_SCOREBOARD(common_counter_w4_i4, COMMON_COUNTER_W4_I4)
CTR_SCOREBOARD(common_counter_w1_i1_sat, COMMON_COUNTER_W1_I1_SAT)

typedef struct {
  uint8_t inc, clear;
} ctr_step_t;
typedef struct {
  uint64_t cycle, count;
} ctr_known_t;

/* Saturating, Width 8: cycles 0-35 add 7 (count 252 in cycle 36). */
static ctr_step_t sat_script(uint64_t c) {
  if (c <= 35) return (ctr_step_t){7, 0};
  switch (c) {
    case 36: return (ctr_step_t){6, 0}; /* 252 + 6 = 258: stops at 255 in cycle 37 */
    case 37: return (ctr_step_t){7, 0}; /* at all ones: stays */
    case 38: return (ctr_step_t){0, 0};
    case 39: return (ctr_step_t){5, 1}; /* clear beats inc: 0 in cycle 40 */
    case 40: return (ctr_step_t){0, 1}; /* clear at 0 */
    default: break;
  }
  if (c <= 76) return (ctr_step_t){7, 0}; /* 41-76: count 252 in cycle 77 */
  switch (c) {
    case 77: return (ctr_step_t){3, 0}; /* 252 + 3 = 255 exactly */
    case 78: return (ctr_step_t){1, 0}; /* 255 + 1: the smallest overflow */
    case 79: return (ctr_step_t){0, 0};
    case 80: return (ctr_step_t){0, 1};
    case 81: return (ctr_step_t){3, 0};
    default: return (ctr_step_t){0, 0};
  }
}
#define SAT_CYCLES 83
static const ctr_known_t sat_known[] = {{0, 0},    {1, 7},    {36, 252}, {37, 255}, {38, 255},
                                        {39, 255}, {40, 0},   {41, 0},   {42, 7},   {77, 252},
                                        {78, 255}, {79, 255}, {80, 255}, {81, 0},   {82, 3}};

static const ctr_step_t wrap_script[] = {{15, 0}, {1, 0}, {15, 0}, {15, 0}, {2, 0},
                                         {9, 0},  {4, 1}, {0, 0},  {8, 0},  {0, 0}};
static const ctr_known_t wrap_known[] = {{0, 0}, {1, 15}, {2, 0}, {3, 15}, {4, 14},
                                         {5, 0}, {6, 9},  {7, 0}, {8, 0},  {9, 8}};

static const ctr_step_t w1_script[] = {{1, 0}, {1, 0}, {1, 0}, {0, 1}, {1, 1}, {1, 0}, {0, 0}};
static const ctr_known_t w1_known[] = {{0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 0}, {5, 0}, {6, 1}};

static bool known_check(const ctr_known_t *k, unsigned n, uint64_t c, uint64_t count, unsigned width,
                        bool sat, cosim_msg_t *msg) {
  const uint64_t ones = width >= 64 ? UINT64_MAX : (1ULL << width) - 1;
  for (unsigned i = 0; i < n; i++)
    if (k[i].cycle == c && (count != k[i].count || sat != (k[i].count == ones))) {
      cosim_fail(msg, "counter.known_values", "count_o=%llu sat_o=%u, the spec says %llu",
                 (unsigned long long)count, sat, (unsigned long long)k[i].count);
      return false;
    }
  return true;
}

#define CTR_DIRECTED(NAME, T, U, STEP, NSTEPS, KNOWN, PURPOSE)                                          \
  static bool NAME##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {       \
    (void)ctx;                                                                                          \
    (void)rng;                                                                                          \
    (void)prev;                                                                                         \
    if (c >= (NSTEPS)) return false;                                                                    \
    const ctr_step_t s = STEP;                                                                          \
    T##_in_t *in = iv;                                                                                  \
    in->inc_i = s.inc;                                                                                  \
    in->clear_i = s.clear;                                                                              \
    return true;                                                                                        \
  }                                                                                                     \
  static bool NAME##_check(void *ctx, uint64_t c, const void *iv, const void *ov, cosim_msg_t *msg) {   \
    const T##_out_t *o = ov;                                                                            \
    if (!T##_sb_check(ctx, iv, ov, msg)) return false;                                                  \
    return known_check(KNOWN, sizeof KNOWN / sizeof KNOWN[0], c, o->count_o, (unsigned)U##_PARAM_Width, \
                       o->sat_o, msg);                                                                  \
  }                                                                                                     \
  COSIM_TEST(NAME, .target = &T##_target, .purpose = PURPOSE, .ctx_size = sizeof(ctr_sb_t),             \
             .drive = NAME##_drive, .check = NAME##_check)

CTR_DIRECTED(common_counter_directed, common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT, sat_script(c),
             SAT_CYCLES, sat_known,
             "saturating counter: big inc from below, exact all ones, hold, clear over inc")
CTR_DIRECTED(common_counter_wrap_directed, common_counter_w4_i4, COMMON_COUNTER_W4_I4, wrap_script[c],
             sizeof wrap_script / sizeof wrap_script[0], wrap_known,
             "wrapping counter, IncW = Width: 15+1 -> 0, 15+15 -> 14, clear over inc")
CTR_DIRECTED(common_counter_w1_directed, common_counter_w1_i1_sat, COMMON_COUNTER_W1_I1_SAT, w1_script[c],
             sizeof w1_script / sizeof w1_script[0], w1_known,
             "Width = 1 saturating counter: 0, 1, held, clear, clear over inc")
