/* Binding of the common blocks' C models (csim/common/) to their co-simulation
 * targets (rtl/common/common.cosim): generated port structs in, model structs
 * through, generated port structs out. Parameters come from the RTL as
 * elaborated (<TARGET>_PARAM_*), so model and RTL cannot be configured apart.
 */
#include "bind/common.h"

#include <stdlib.h>
#include <string.h>

/* The wrapper every binding uses: configuration, registers, and the pending
 * next state that eval computes and commit applies. */
#define MODEL_T(kind)                                            \
  typedef struct {                                               \
    common_##kind##_cfg_t cfg;                                   \
    common_##kind##_state_t s;                                   \
    common_##kind##_next_t nx;                                   \
  } kind##_model_t;                                              \
  static void kind##_reset(void *m) {                            \
    kind##_model_t *x = m;                                       \
    common_##kind##_reset(&x->s, &x->cfg);                       \
  }                                                              \
  static void kind##_commit(void *m) {                           \
    kind##_model_t *x = m;                                       \
    common_##kind##_commit(&x->cfg, &x->s, &x->nx);              \
  }                                                              \
  static void kind##_destroy(void *m) {                          \
    kind##_model_t *x = m;                                       \
    common_##kind##_free(&x->s);                                 \
    free(x);                                                     \
  }                                                              \
  static void *kind##_create(const common_##kind##_cfg_t *cfg) { \
    kind##_model_t *x = calloc(1, sizeof *x);                    \
    if (!x) return NULL;                                         \
    x->cfg = *cfg;                                               \
    if (common_##kind##_init(&x->s, &x->cfg)) {                  \
      free(x);                                                   \
      return NULL;                                               \
    }                                                            \
    return x;                                                    \
  }

#define OPS(kind, T)                                                                              \
  {                                                                                               \
    T##_create, kind##_reset, T##_eval, kind##_commit, kind##_destroy, common_##kind##_bug_names, \
        kind##_scramble                                                                           \
  }

/* 1..n-1: an index that is legal but not the reset value 0 (n >= 2). */
static unsigned nonzero_below(cosim_rng_t *r, unsigned n) { return 1 + cosim_rng_below(r, n - 1); }

/* --- FIFO: one binding per width; data ports are copied as raw little-endian
 * storage, which serves uint8_t..uint64_t and uint32_t[] ports alike. ------- */
MODEL_T(fifo)
static void fifo_scramble(void *m, uint64_t seed) {
  fifo_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  x->s.rd = nonzero_below(&r, x->cfg.depth);
  x->s.wr = nonzero_below(&r, x->cfg.depth);
  x->s.count = 1 + cosim_rng_below(&r, x->cfg.depth);
  x->s.overflow = x->s.underflow = true;
  x->nx.push_ok = x->nx.pop_ok = x->nx.overflow = x->nx.underflow = true;
  for (unsigned i = 0; i < COMMON_FIFO_MAX_WORDS; i++) x->nx.push_data[i] = (uint32_t)cosim_rng_u64(&r);
}
#define FIFO_TARGET(T, U)                                                                \
  static void *T##_create(unsigned bug) {                                                \
    common_fifo_cfg_t cfg = {(unsigned)U##_PARAM_Width, (unsigned)U##_PARAM_Depth, bug}; \
    return fifo_create(&cfg);                                                            \
  }                                                                                      \
  static void T##_eval(void *m, const void *iv, void *ov) {                              \
    fifo_model_t *x = m;                                                                 \
    const T##_in_t *in = iv;                                                             \
    T##_out_t *out = ov;                                                                 \
    uint32_t data[COMMON_FIFO_MAX_WORDS] = {0};                                          \
    memcpy(data, &in->push_data_i, sizeof in->push_data_i);                              \
    common_fifo_in_t mi = {in->push_i, data, in->pop_i};                                 \
    common_fifo_out_t mo;                                                                \
    common_fifo_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);                                  \
    memcpy(&out->pop_data_o, mo.pop_data, sizeof out->pop_data_o);                       \
    out->full_o = mo.full;                                                               \
    out->empty_o = mo.empty;                                                             \
    out->count_o = mo.count;                                                             \
    out->overflow_o = mo.overflow;                                                       \
    out->underflow_o = mo.underflow;                                                     \
  }                                                                                      \
  const cosim_target_t T##_target = {&T##_glue, OPS(fifo, T)};

FIFO_TARGET(common_fifo_w8_d5, COMMON_FIFO_W8_D5)
FIFO_TARGET(common_fifo_w72_d4, COMMON_FIFO_W72_D4)
FIFO_TARGET(common_fifo_w1_d3, COMMON_FIFO_W1_D3)

/* --- credit counter ------------------------------------------------------- */
MODEL_T(credit_counter)
static void credit_counter_scramble(void *m, uint64_t seed) {
  credit_counter_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  const uint32_t vcs = (1u << x->cfg.num_vcs) - 1u; /* entries >= num_vcs are not registers */
  for (unsigned v = 0; v < x->cfg.num_vcs; v++) {
    x->s.cnt[v] = cosim_rng_below(&r, x->cfg.max_credits); /* never MaxCredits */
    x->nx.cnt[v] = cosim_rng_below(&r, x->cfg.max_credits);
  }
  x->s.underflow = x->s.overflow = x->nx.underflow = x->nx.overflow = vcs;
  x->s.bad_vc = x->nx.bad_vc = true;
}
#define CREDIT_TARGET(T, U)                                                                              \
  static void *T##_create(unsigned bug) {                                                                \
    common_credit_counter_cfg_t cfg = {(unsigned)U##_PARAM_NumVcs, (unsigned)U##_PARAM_MaxCredits, bug}; \
    return credit_counter_create(&cfg);                                                                  \
  }                                                                                                      \
  static void T##_eval(void *m, const void *iv, void *ov) {                                              \
    credit_counter_model_t *x = m;                                                                       \
    const T##_in_t *in = iv;                                                                             \
    T##_out_t *out = ov;                                                                                 \
    common_credit_counter_in_t mi = {in->init_i, in->consume_i, in->consume_vc_i, in->return_i};         \
    common_credit_counter_out_t mo;                                                                      \
    common_credit_counter_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);                                        \
    /* credits_o packs VC v at bits [v*CntW +: CntW] */                                                  \
    /* CntW = $clog2(MaxCredits+1): the bit width of MaxCredits */                                       \
    const unsigned cntw = 32u - (unsigned)__builtin_clz(x->cfg.max_credits);                             \
    uint64_t packed = 0;                                                                                 \
    for (unsigned v = 0; v < x->cfg.num_vcs; v++) packed |= (uint64_t)mo.credits[v] << (v * cntw);       \
    out->credits_o = packed;                                                                             \
    out->avail_o = mo.avail;                                                                             \
    out->underflow_o = mo.underflow;                                                                     \
    out->overflow_o = mo.overflow;                                                                       \
    out->bad_vc_o = mo.bad_vc;                                                                           \
  }                                                                                                      \
  const cosim_target_t T##_target = {&T##_glue, OPS(credit_counter, T)};

CREDIT_TARGET(common_credit_v3_c5, COMMON_CREDIT_V3_C5)
CREDIT_TARGET(common_credit_v1_c1, COMMON_CREDIT_V1_C1)

/* --- round-robin arbiter -------------------------------------------------- */
MODEL_T(rr_arbiter)
static void rr_arbiter_scramble(void *m, uint64_t seed) {
  rr_arbiter_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  x->s.ptr = nonzero_below(&r, x->cfg.num_req);
  x->nx.ptr = nonzero_below(&r, x->cfg.num_req);
}
#define ARB_TARGET(T, U)                                             \
  static void *T##_create(unsigned bug) {                            \
    common_rr_arbiter_cfg_t cfg = {(unsigned)U##_PARAM_NumReq, bug}; \
    return rr_arbiter_create(&cfg);                                  \
  }                                                                  \
  static void T##_eval(void *m, const void *iv, void *ov) {          \
    rr_arbiter_model_t *x = m;                                       \
    const T##_in_t *in = iv;                                         \
    T##_out_t *out = ov;                                             \
    common_rr_arbiter_in_t mi = {in->req_i, in->ack_i};              \
    common_rr_arbiter_out_t mo;                                      \
    common_rr_arbiter_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);        \
    out->gnt_o = mo.gnt;                                             \
    out->gnt_idx_o = (uint8_t)mo.gnt_idx;                            \
    out->gnt_valid_o = mo.gnt_valid;                                 \
  }                                                                  \
  const cosim_target_t T##_target = {&T##_glue, OPS(rr_arbiter, T)};

ARB_TARGET(common_arb_n5, COMMON_ARB_N5)
ARB_TARGET(common_arb_n4, COMMON_ARB_N4)

/* --- CRC-32 ----------------------------------------------------------------- */
MODEL_T(crc32)
static void crc32_scramble(void *m, uint64_t seed) {
  crc32_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  x->s.c = (uint32_t)cosim_rng_u64(&r) & ~1u; /* bit 0 clear: never the reset 0xFFFFFFFF */
  x->nx.c = (uint32_t)cosim_rng_u64(&r) & ~1u;
  x->s.keep_err = x->nx.keep_err = true;
}
static void *common_crc32_b4_create(unsigned bug) {
  common_crc32_cfg_t cfg = {bug};
  return crc32_create(&cfg);
}
static void common_crc32_b4_eval(void *m, const void *iv, void *ov) {
  crc32_model_t *x = m;
  const common_crc32_b4_in_t *in = iv;
  common_crc32_b4_out_t *out = ov;
  common_crc32_in_t mi = {in->init_i, in->valid_i, in->data_i, in->keep_i};
  common_crc32_out_t mo;
  common_crc32_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);
  out->crc_o = mo.crc;
  out->keep_err_o = mo.keep_err;
}
const cosim_target_t common_crc32_b4_target = {&common_crc32_b4_glue, OPS(crc32, common_crc32_b4)};

/* --- LFSR ------------------------------------------------------------------- */
MODEL_T(lfsr32)
static void lfsr32_scramble(void *m, uint64_t seed) {
  lfsr32_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  x->s.lfsr = (uint32_t)cosim_rng_u64(&r) | 1u;  /* non-zero, as the state always is */
  if (x->s.lfsr == x->cfg.seed) x->s.lfsr ^= 2u; /* never the reset value */
  x->nx.lfsr = (uint32_t)cosim_rng_u64(&r) | 1u;
  x->s.seed_err = x->nx.seed_err = true;
}
static void *common_lfsr32_s44257_create(unsigned bug) {
  common_lfsr32_cfg_t cfg = {(uint32_t)COMMON_LFSR32_S44257_PARAM_Seed, bug};
  return lfsr32_create(&cfg);
}
static void common_lfsr32_s44257_eval(void *m, const void *iv, void *ov) {
  lfsr32_model_t *x = m;
  const common_lfsr32_s44257_in_t *in = iv;
  common_lfsr32_s44257_out_t *out = ov;
  common_lfsr32_in_t mi = {in->en_i, in->load_i, in->seed_i};
  common_lfsr32_out_t mo;
  common_lfsr32_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);
  out->state_o = mo.state;
  out->seed_err_o = mo.seed_err;
}
const cosim_target_t common_lfsr32_s44257_target = {&common_lfsr32_s44257_glue,
                                                    OPS(lfsr32, common_lfsr32_s44257)};

/* --- event counter ---------------------------------------------------------- */
MODEL_T(counter)
static void counter_scramble(void *m, uint64_t seed) {
  counter_model_t *x = m;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  const uint64_t max = common_counter_max(x->cfg.width);
  x->s.n = cosim_rng_u64(&r) & max;
  if (x->s.n == 0) x->s.n = max; /* never the reset value 0; at Width = 1 the only other one */
  x->nx.n = cosim_rng_u64(&r) & max;
}
#define COUNTER_TARGET(T, U)                                                                     \
  static void *T##_create(unsigned bug) {                                                        \
    common_counter_cfg_t cfg = {(unsigned)U##_PARAM_Width, (unsigned)U##_PARAM_IncW,             \
                                (unsigned)U##_PARAM_Saturate, bug};                              \
    return counter_create(&cfg);                                                                 \
  }                                                                                              \
  static void T##_eval(void *m, const void *iv, void *ov) {                                      \
    counter_model_t *x = m;                                                                      \
    const T##_in_t *in = iv;                                                                     \
    T##_out_t *out = ov;                                                                         \
    common_counter_in_t mi = {in->inc_i, in->clear_i};                                           \
    common_counter_out_t mo;                                                                     \
    common_counter_eval(&x->cfg, &x->s, &mi, &mo, &x->nx);                                       \
    out->count_o = mo.count; /* the generated storage is the smallest type holding Width bits */ \
    out->sat_o = mo.sat;                                                                         \
  }                                                                                              \
  const cosim_target_t T##_target = {&T##_glue, OPS(counter, T)};

COUNTER_TARGET(common_counter_w32_i4, COMMON_COUNTER_W32_I4)
COUNTER_TARGET(common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT)
COUNTER_TARGET(common_counter_w1_i1_sat, COMMON_COUNTER_W1_I1_SAT)
COUNTER_TARGET(common_counter_w4_i4, COMMON_COUNTER_W4_I4)
