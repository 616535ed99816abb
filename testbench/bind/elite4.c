/* Binding of the elite4 model (csim/elite4/) to its co-simulation targets
 * (rtl/elite4/elite4.cosim). The target boilerplate and the per-lane port
 * accessors are generated (elite4_view_t, <T>_BIND_TARGET); this file holds
 * the model calls and the scramble. */
#include "bind/elite4.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const elite4_view_t *vw;
  elite4_cfg_t cfg;
  elite4_state_t s;
  elite4_next_t nx;
} e4_model_t;

static void *e4_create(const elite4_view_t *vw, unsigned bug) {
  e4_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->vw = vw;
  m->cfg = (elite4_cfg_t){(unsigned)vw->param.NumPorts, (unsigned)vw->param.NumVcs,
                          (unsigned)vw->param.BufDepth, (uint32_t)vw->param.UpMask, bug};
  if (elite4_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void e4_reset(void *p) {
  e4_model_t *m = p;
  elite4_reset(&m->s, &m->cfg);
}
static void e4_commit(void *p) {
  e4_model_t *m = p;
  elite4_commit(&m->cfg, &m->s, &m->nx);
}
static void e4_destroy(void *p) {
  e4_model_t *m = p;
  elite4_free(&m->s);
  free(m);
}
#define e4_bug_names elite4_bug_names

static void e4_eval(void *p, const void *in, void *out) {
  e4_model_t *m = p;
  const elite4_view_t *w = m->vw;
  const unsigned P = m->cfg.num_ports, V = m->cfg.num_vcs;
  elite4_in_t mi;
  elite4_out_t mo;
  memset(&mi, 0, sizeof mi);
  for (unsigned o = 0; o < P; o++) {
    mi.valid[o] = cosim_lane_get(&w->in.in_valid_i, in, o);
    mi.kind[o] = (unsigned)cosim_lane_get(&w->in.in_kind_i, in, o);
    mi.vc[o] = (unsigned)cosim_lane_get(&w->in.in_vc_i, in, o);
    mi.data[o] = (uint32_t)cosim_lane_get(&w->in.in_data_i, in, o);
    for (unsigned v = 0; v < V; v++) mi.credit[o][v] = cosim_lane_get(&w->in.in_credit_i, in, o * V + v);
  }
  elite4_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);
  for (unsigned o = 0; o < P; o++) {
    cosim_lane_set(&w->out.out_valid_o, out, o, mo.valid[o]);
    cosim_lane_set(&w->out.out_kind_o, out, o, mo.kind[o]);
    cosim_lane_set(&w->out.out_vc_o, out, o, mo.vc[o]);
    cosim_lane_set(&w->out.out_data_o, out, o, mo.data[o]);
    for (unsigned v = 0; v < V; v++) {
      cosim_lane_set(&w->out.out_credit_o, out, o * V + v, mo.credit[o][v]);
      cosim_lane_set(&w->out.alloc_o, out, o * V + v, mo.alloc[o][v]);
    }
    cosim_lane_set(&w->out.err_o, out, o, mo.err[o]);
    cosim_lane_set(&w->out.err_code_o, out, o, mo.err_code[o]);
    cosim_lane_set(&w->out.cnt_xmit_flits_o, out, o, mo.cnt_xmit_flits[o]);
    cosim_lane_set(&w->out.cnt_rcv_flits_o, out, o, mo.cnt_rcv_flits[o]);
    cosim_lane_set(&w->out.cnt_xmit_pkts_o, out, o, mo.cnt_xmit_pkts[o]);
    cosim_lane_set(&w->out.cnt_rcv_pkts_o, out, o, mo.cnt_rcv_pkts[o]);
    cosim_lane_set(&w->out.cnt_xmit_wait_o, out, o, mo.cnt_xmit_wait[o]);
    cosim_lane_set(&w->out.cnt_errors_o, out, o, mo.cnt_errors[o]);
    cosim_lane_set(&w->out.cnt_crc_errors_o, out, o, mo.cnt_crc_errors[o]);
  }
}

/* --- scramble: every register and every pending next-state field gets a
 * value legal for its type and never its reset value, as the RTL's registers
 * start random; only elite4_reset may bring them back. -------------------- */
static unsigned nz_below(cosim_rng_t *r, unsigned n) { return n < 2 ? 0 : 1 + cosim_rng_below(r, n - 1); }

static void scr_ivc(cosim_rng_t *r, elite4_ivc_t *x, uint32_t pmask) {
  x->st = (uint8_t)nz_below(r, 4); /* ACTIVE, DROP or WAIT_TOKEN */
  x->bcast = x->upn = x->head_sent = x->ack = true;
  x->outs = ((uint32_t)cosim_rng_u64(r) & pmask) | 1u;
  x->pend = ((uint32_t)cosim_rng_u64(r) & pmask) | 1u;
  x->crc = (uint32_t)cosim_rng_u64(r) & ~1u; /* never 0xFFFFFFFF, the CRC's start */
}
static void scr_ovc(cosim_rng_t *r, elite4_ovc_t *x, unsigned P) {
  x->st = (uint8_t)nz_below(r, 3); /* BUSY or TOKWAIT */
  x->owner = (uint8_t)nz_below(r, P);
  x->early = true;
}
static void scr_out(cosim_rng_t *r, elite4_out_t *x, unsigned P, unsigned V) {
  for (unsigned o = 0; o < P; o++) {
    x->valid[o] = x->err[o] = true;
    x->kind[o] = cosim_rng_below(r, 4);
    x->vc[o] = cosim_rng_below(r, V);
    x->data[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    for (unsigned v = 0; v < V; v++) x->credit[o][v] = x->alloc[o][v] = true;
    x->err_code[o] = nz_below(r, 8);
    x->cnt_xmit_flits[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_rcv_flits[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_xmit_pkts[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_rcv_pkts[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_xmit_wait[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_errors[o] = (uint32_t)cosim_rng_u64(r) | 1u;
    x->cnt_crc_errors[o] = (uint32_t)cosim_rng_u64(r) | 1u;
  }
}
static void e4_scramble(void *p, uint64_t seed) {
  e4_model_t *m = p;
  elite4_state_t *s = &m->s;
  elite4_next_t *nx = &m->nx;
  const unsigned P = m->cfg.num_ports, V = m->cfg.num_vcs, N = P * V, D = m->cfg.buf_depth;
  const uint32_t pmask = P >= 32 ? ~0u : (1u << P) - 1u;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  for (unsigned k = 0; k < N; k++) {
    common_fifo_state_t *b = &s->buf[k];
    for (unsigned e = 0; e < D; e++) { /* entry word 0 = data, word 1 = kind */
      b->mem[2 * e] = (uint32_t)cosim_rng_u64(&r);
      b->mem[2 * e + 1] = cosim_rng_below(&r, 4);
    }
    b->rd = nz_below(&r, D);
    b->wr = nz_below(&r, D);
    b->count = 1 + cosim_rng_below(&r, D);
    b->overflow = b->underflow = true;
    scr_ivc(&r, &s->ivc[k], pmask);
    s->tokp[k] = (elite4_tok_t){true, true};
    scr_ovc(&r, &s->ovc[k], P);
    /* next state: every field, touched or not */
    nx->buf[k].push_ok = nx->buf[k].pop_ok = nx->buf[k].overflow = nx->buf[k].underflow = true;
    for (unsigned i = 0; i < COMMON_FIFO_MAX_WORDS; i++)
      nx->buf[k].push_data[i] = (uint32_t)cosim_rng_u64(&r);
    scr_ivc(&r, &nx->ivc[k], pmask);
    nx->tokp[k] = (elite4_tok_t){true, true};
    scr_ovc(&r, &nx->ovc[k], P);
    /* staging registers and VA round-robin pointers (docs/elite4.md §5) */
    s->stg[k] = (elite4_stg_t){true, (uint8_t)cosim_rng_below(&r, 3), (uint32_t)cosim_rng_u64(&r) | 1u};
    nx->stg[k] = (elite4_stg_t){true, (uint8_t)cosim_rng_below(&r, 3), (uint32_t)cosim_rng_u64(&r) | 1u};
    s->vrr[k] = (uint8_t)nz_below(&r, P);
    nx->vrr[k] = (uint8_t)nz_below(&r, P);
  }
  nx->buf_touched = N >= 64 ? ~0ULL : (1ULL << N) - 1u;
  for (unsigned o = 0; o < P; o++) {
    for (unsigned v = 0; v < V; v++) {
      s->cred[o].cnt[v] = cosim_rng_below(&r, D); /* never BufDepth */
      nx->cred[o].cnt[v] = cosim_rng_below(&r, D);
    }
    s->cred[o].underflow = s->cred[o].overflow = nx->cred[o].underflow = nx->cred[o].overflow =
        (1u << V) - 1u;
    s->cred[o].bad_vc = nx->cred[o].bad_vc = true;
    s->rr[o].ptr = nz_below(&r, V);
    nx->rr[o].ptr = nz_below(&r, V);
  }
  nx->cred_touched = nx->rr_touched = pmask;
  for (unsigned o = 0; o < P; o++) { /* token input and switch-allocation registers */
    s->tin[o] = (elite4_tin_t){true, (uint8_t)cosim_rng_below(&r, V), true};
    nx->tin[o] = (elite4_tin_t){true, (uint8_t)cosim_rng_below(&r, V), true};
    s->sel[o] = (elite4_sel_t){true, cosim_rng_below(&r, 2) != 0, true, (uint8_t)cosim_rng_below(&r, P),
                               (uint8_t)cosim_rng_below(&r, V)};
    nx->sel[o] = (elite4_sel_t){true, cosim_rng_below(&r, 2) != 0, true, (uint8_t)cosim_rng_below(&r, P),
                                (uint8_t)cosim_rng_below(&r, V)};
  }
  for (unsigned v = 0; v < V; v++) { /* adaptive choice (§5.4) */
    s->upsel[v] = (elite4_upsel_t){true, (uint8_t)cosim_rng_below(&r, P)};
    nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)cosim_rng_below(&r, P)};
    s->uptr[v] = nz_below(&r, P);
    nx->uptr[v] = nz_below(&r, P);
  }
  scr_out(&r, &s->r, P, V);
  scr_out(&r, &nx->r, P, V);
  for (unsigned o = 0; o < P; o++) { /* registered error/wait events (§5.7), drawn last */
    s->ev[o] = (elite4_ev_t){(uint8_t)(1 + cosim_rng_below(&r, 3)), (uint8_t)nz_below(&r, 8), 1, true};
    nx->ev[o] = (elite4_ev_t){(uint8_t)(1 + cosim_rng_below(&r, 3)), (uint8_t)nz_below(&r, 8), 1, true};
  }
}

ELITE4_P8_BIND_TARGET(e4)
ELITE4_P4_BIND_TARGET(e4)
ELITE4_P8_V4_BIND_TARGET(e4)
ELITE4_P2_BIND_TARGET(e4)
ELITE4_P16_V4_BIND_TARGET(e4)
ELITE4_P4_U0_BIND_TARGET(e4)

/* The model behind a target's model handle, for the fabric instance type
 * (bind/fabric_elite4.c), which calls elite4_eval on it without packing. */
void elite4_bind_parts(void *p, const elite4_cfg_t **cfg, elite4_state_t **s, elite4_next_t **nx) {
  e4_model_t *m = p;
  *cfg = &m->cfg;
  *s = &m->s;
  *nx = &m->nx;
}
