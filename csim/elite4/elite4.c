/*
 * elite4 -- cycle-accurate C model of the source-routed wormhole switch: top level.
 * Spec: docs/elite4.md.
 *
 * The pipeline (section 5): ARRIVE (push, tin) -> VA (grant) -> SA (pop into stg, sel)
 * -> ST (output register). Each stage of a cycle works on a different flit and reads the
 * registered state; elite4_eval calls the units (section 7) in the order in which the
 * few same-cycle rules of section 5 need them:
 *
 *   input unit, fronts     buffer fronts, route decode of IDLE HEADs            (5.2)
 *   output unit, T1        the tokens in tin: pend/ack, ost, error 5            (5.3)
 *   VA                     leader and per-(o, v) round robin, vrr', uptr'       (5.4)
 *   adaptive choice        upsel' from the registered state                     (5.4)
 *   SA                     per output: token / one VC / nothing, srr'           (5.5)
 *   input unit             ist', pops, pushes, tin', stg', CRC of stg (ST)      (5.1-5.6)
 *   output unit            ost', credits, tokp', sel'                           (5.3-5.7)
 *   crossbar (ST)          output registers from sel and stg                    (5.6)
 *   counters               cnt_*', err_o', err_code_o' from last cycle's        (5.7)
 *                          registered error/wait events; ev' from this cycle's
 *
 * elite4_commit is the clock edge. Latency (section 8): a HEAD arriving in t is granted in
 * t+1, popped in t+2, in the output register at the end of t+3, on out_* in t+4; BODY/TAIL
 * 3 cycles; token 4.
 */
#include "elite4_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const elite4_bug_names[] = {"none",
                                        "elite4_no_route_strip",
                                        "elite4_vc_swap",
                                        "elite4_token_no_release",
                                        "elite4_adaptive_first",
                                        "elite4_reset_keeps_err_code",
                                        "elite4_err_group_one_cycle_early",
                                        "elite4_upn_no_decrement",
                                        "elite4_illegal_acked",
                                        NULL};

/* A switch of up to 8 ports leaves ports 8..15 of its output registers 0 from reset on,
   so the per-cycle copies and clears of the registers take ports 0..7 only: fixed sizes,
   done with vector moves instead of a rep movsq over the whole struct (docs/elite4.md
   section 7.1). out_half copies (s != NULL) or clears ports from..from+7 of every field;
   the assertion keeps its field list complete. */
#define ELITE4_HALF   (ELITE4_MAX_PORTS / 2u)
#define ELITE4_FSZ(f) sizeof(((elite4_out_t *)0)->f)
_Static_assert(ELITE4_FSZ(valid) + ELITE4_FSZ(kind) + ELITE4_FSZ(vc) + ELITE4_FSZ(data) + ELITE4_FSZ(credit) +
                       ELITE4_FSZ(alloc) + ELITE4_FSZ(err) + ELITE4_FSZ(err_code) +
                       ELITE4_FSZ(cnt_xmit_flits) + ELITE4_FSZ(cnt_rcv_flits) + ELITE4_FSZ(cnt_xmit_pkts) +
                       ELITE4_FSZ(cnt_rcv_pkts) + ELITE4_FSZ(cnt_xmit_wait) + ELITE4_FSZ(cnt_errors) +
                       ELITE4_FSZ(cnt_crc_errors) ==
                   sizeof(elite4_out_t),
               "out_half must name every field of elite4_out_t");

/* always inlined: every call has constant s and from, so the branches fold and the
   copies are a few vector moves (ours, speed only) */
static inline __attribute__((always_inline)) void out_half(elite4_out_t *d, const elite4_out_t *s,
                                                           unsigned from) {
#define ELITE4_HALF_OF(f)                                              \
  do {                                                                 \
    if (s != NULL)                                                     \
      memcpy(&d->f[from], &s->f[from], ELITE4_HALF * sizeof(d->f[0])); \
    else                                                               \
      memset(&d->f[from], 0, ELITE4_HALF * sizeof(d->f[0]));           \
  } while (0)
  ELITE4_HALF_OF(valid);
  ELITE4_HALF_OF(kind);
  ELITE4_HALF_OF(vc);
  ELITE4_HALF_OF(data);
  ELITE4_HALF_OF(credit);
  ELITE4_HALF_OF(alloc);
  ELITE4_HALF_OF(err);
  ELITE4_HALF_OF(err_code);
  ELITE4_HALF_OF(cnt_xmit_flits);
  ELITE4_HALF_OF(cnt_rcv_flits);
  ELITE4_HALF_OF(cnt_xmit_pkts);
  ELITE4_HALF_OF(cnt_rcv_pkts);
  ELITE4_HALF_OF(cnt_xmit_wait);
  ELITE4_HALF_OF(cnt_errors);
  ELITE4_HALF_OF(cnt_crc_errors);
#undef ELITE4_HALF_OF
}

/* A buffer entry is {kind, data}: 2 + 32 bits. */
#define ELITE4_BUF_WIDTH 34u

static bool param_ok(const char *name, unsigned v, unsigned lo, unsigned hi) {
  if (v >= lo && v <= hi) return true;
  fprintf(stderr, "elite4: %s=%u is illegal (must be %u..%u)\n", name, v, lo, hi);
  return false;
}

int elite4_init(elite4_state_t *s, const elite4_cfg_t *cfg) {
  memset(s, 0, sizeof(*s));
  if (!param_ok("num_ports", cfg->num_ports, ELITE4_MIN_PORTS, ELITE4_MAX_PORTS) ||
      !param_ok("buf_depth", cfg->buf_depth, ELITE4_MIN_BUF_DEPTH, ELITE4_MAX_BUF_DEPTH) ||
      !param_ok("bug", cfg->bug, 0, ELITE4_BUG_COUNT - 1u))
    return -EINVAL;
  if (cfg->num_vcs != 2u && cfg->num_vcs != 4u) {
    fprintf(stderr, "elite4: num_vcs=%u is illegal (must be 2 or 4)\n", cfg->num_vcs);
    return -EINVAL;
  }
  /* up_mask: any value is legal (section 2); bits >= num_ports name no port. */

  const unsigned P = cfg->num_ports, V = cfg->num_vcs, N = P * V;
  s->num_ports = P;
  s->num_vcs = V;
  s->buf_cfg = (common_fifo_cfg_t){.width = ELITE4_BUF_WIDTH, .depth = cfg->buf_depth, .bug = 0};
  s->cred_cfg = (common_credit_counter_cfg_t){.num_vcs = V, .max_credits = cfg->buf_depth, .bug = 0};
  s->rr_cfg = (common_rr_arbiter_cfg_t){.num_req = V, .bug = 0};

  s->buf = calloc(N, sizeof(*s->buf));
  s->ivc = calloc(N, sizeof(*s->ivc));
  s->tokp = calloc(N, sizeof(*s->tokp));
  s->ovc = calloc(N, sizeof(*s->ovc));
  s->stg = calloc(N, sizeof(*s->stg));
  s->vrr = calloc(N, sizeof(*s->vrr));
  int rc = 0;
  if (s->buf == NULL || s->ivc == NULL || s->tokp == NULL || s->ovc == NULL || s->stg == NULL ||
      s->vrr == NULL) {
    fprintf(stderr, "elite4: out of memory for num_ports=%u num_vcs=%u\n", P, V);
    rc = -ENOMEM;
  }
  for (unsigned k = 0; k < N && rc == 0; k++) rc = common_fifo_init(&s->buf[k], &s->buf_cfg);
  for (unsigned o = 0; o < P && rc == 0; o++) rc = common_credit_counter_init(&s->cred[o], &s->cred_cfg);
  for (unsigned o = 0; o < P && rc == 0; o++) rc = common_rr_arbiter_init(&s->rr[o], &s->rr_cfg);
  if (rc != 0) {
    elite4_free(s);
    return rc;
  }
  elite4_reset(s, cfg);
  return 0;
}

void elite4_reset(elite4_state_t *s, const elite4_cfg_t *cfg) {
  const unsigned P = cfg->num_ports, N = P * cfg->num_vcs;
  for (unsigned k = 0; k < N; k++) {
    common_fifo_reset(&s->buf[k], &s->buf_cfg);        /* empty */
    s->ivc[k] = (elite4_ivc_t){.st = ELITE4_IST_IDLE}; /* all circuit registers 0 */
    s->tokp[k] = (elite4_tok_t){.valid = false, .ack = false};
    s->ovc[k] = (elite4_ovc_t){.st = ELITE4_OST_FREE, .owner = 0, .early = false};
    s->stg[k] = (elite4_stg_t){.valid = false, .kind = 0, .data = 0};
    s->vrr[k] = 0;
  }
  for (unsigned o = 0; o < P; o++) {
    common_credit_counter_reset(&s->cred[o], &s->cred_cfg); /* BufDepth each */
    common_rr_arbiter_reset(&s->rr[o], &s->rr_cfg);         /* srr: ptr 0 */
  }
  memset(s->tin, 0, sizeof(s->tin));
  memset(s->sel, 0, sizeof(s->sel));
  memset(s->upsel, 0, sizeof(s->upsel));
  memset(s->uptr, 0, sizeof(s->uptr));
  memset(s->ev, 0, sizeof(s->ev)); /* nothing from before reset reaches the outputs (5.7) */
  unsigned kept[ELITE4_MAX_PORTS];
  memcpy(kept, s->r.err_code, sizeof(kept));
  memset(&s->r, 0, sizeof(s->r)); /* outputs, error codes, counters 0 */
  if (cfg->bug == ELITE4_BUG_RESET_KEEPS_ERR_CODE) memcpy(s->r.err_code, kept, sizeof(kept));
  elite4_act_scan(s, N, &s->act); /* the derived masks, from the registers */
}

void elite4_free(elite4_state_t *s) {
  if (s->buf != NULL)
    for (unsigned k = 0; k < s->num_ports * s->num_vcs; k++) common_fifo_free(&s->buf[k]);
  free(s->buf);
  free(s->ivc);
  free(s->tokp);
  free(s->ovc);
  free(s->stg);
  free(s->vrr);
  memset(s, 0, sizeof(*s));
}

void elite4_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in, elite4_out_t *out,
                 elite4_next_t *nx) {
  /* Section 4: every output is a register (ports >= num_ports read 0). */
  const bool lo = cfg->num_ports <= ELITE4_HALF;
  if (lo) {
    out_half(out, &s->r, 0);
    out_half(out, NULL, ELITE4_HALF);
  } else {
    *out = s->r;
  }

  elite4_work_t w;
  w.np = cfg->num_ports;
  w.nv = cfg->num_vcs;
  w.nivc = w.np * w.nv;
  w.vs = w.nv == 4u ? 2u : 1u;
  w.vm = w.nv - 1u;

  /* The input ports are only so wide: kind 2 bits, vc VcW bits (NumVcs is a power of
       two, so every VcW-bit value is a VC). */
  w.in_valid = 0;
  w.push = 0;
  for (unsigned p = 0; p < w.np; p++) {
    if (!in->valid[p]) continue; /* in_kind/in_vc are read only where in_valid */
    w.in_kind[p] = (uint8_t)(in->kind[p] & 0x3u);
    w.in_vc[p] = (uint8_t)(in->vc[p] & (w.nv - 1u));
    w.in_valid |= 1u << p;
    if (w.in_kind[p] != ELITE4_TOKEN) w.push |= UINT64_C(1) << ((p << w.vs) | w.in_vc[p]);
  }
  w.err_ports = 0; /* err[p] and crc_err[p] are written at a port's first event */

  /* Output registers default to 0 (no flit, no pulses); the units fill them in. */
  if (lo)
    out_half(&nx->r, NULL, 0); /* ports >= 8 are not committed */
  else
    memset(&nx->r, 0, sizeof(nx->r));

  elite4_input_front(cfg, s, &w);
  elite4_output_tokens(cfg, s, &w);
  elite4_vc_alloc(cfg, s, &w, nx);
  elite4_up_select(cfg, s, &w, nx);
  elite4_switch_alloc(cfg, s, &w, nx);
  elite4_input_eval(cfg, s, in, &w, nx);
  elite4_output_eval(cfg, s, in, &w, nx);
  w.xmit = elite4_crossbar(cfg, s, nx);
  elite4_counters_eval(cfg, s, &w, nx);
}

void elite4_commit(const elite4_cfg_t *cfg, elite4_state_t *s, const elite4_next_t *nx) {
  const unsigned N = cfg->num_ports * cfg->num_vcs;

  /* Buffer deltas: only the touched buffers take their push/pop. */
  for (uint64_t m = nx->buf_touched; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    common_fifo_commit(&s->buf_cfg, &s->buf[k], &nx->buf[k]);
  }
  for (uint64_t m = nx->ivc_touched; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    s->ivc[k] = nx->ivc[k];
    s->stg[k] = nx->stg[k];
  }
  for (uint64_t m = nx->tokp_touched; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    s->tokp[k] = nx->tokp[k];
  }
  for (uint64_t m = nx->ovc_touched; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    s->ovc[k] = nx->ovc[k];
  }
  memcpy(s->vrr, nx->vrr, N * sizeof(*s->vrr));
  memcpy(s->tin, nx->tin, sizeof(s->tin));
  memcpy(s->sel, nx->sel, sizeof(s->sel));
  memcpy(s->upsel, nx->upsel, sizeof(s->upsel));
  memcpy(s->uptr, nx->uptr, sizeof(s->uptr));
  memcpy(s->ev, nx->ev, cfg->num_ports * sizeof(*s->ev));
  for (uint32_t m = nx->cred_touched; m != 0; m &= m - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(m);
    common_credit_counter_commit(&s->cred_cfg, &s->cred[o], &nx->cred[o]);
  }
  for (uint32_t m = nx->rr_touched; m != 0; m &= m - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(m);
    common_rr_arbiter_commit(&s->rr_cfg, &s->rr[o], &nx->rr[o]);
  }
  if (cfg->num_ports <= ELITE4_HALF)
    out_half(&s->r, &nx->r, 0); /* ports >= 8 stay 0 from reset */
  else
    s->r = nx->r;
  s->act = nx->act;
}
