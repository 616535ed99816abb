/* Binding of the elan4 model (csim/elan4/) to its co-simulation targets
 * (rtl/elan4/elan4.cosim): parameters from the view, port packing, scramble. */
#include "bind/elan4.h"

#include <stdlib.h>
#include <string.h>

/* The ports this binding writes or reads every cycle, decided once per model
 * (ours, for speed): a port of one lane in a uint8..64_t moves as a load or
 * store of that integer, its width's bits masked exactly as cosim_lane_get /
 * cosim_lane_set do (the bits around it kept). cnt_o's lanes are words. A
 * target whose ports are not all of that kind keeps the lane accessors. */
/* clang-format off: one port per line (clang-format reflows these lists differently between passes) */
#define E4N_INS(X) \
  X(ht_valid_i)    \
  X(ht_write_i)    \
  X(ht_addr_i)     \
  X(ht_data_i)     \
  X(ht_be_i)       \
  X(ht_tag_i)      \
  X(hm_ready_i)    \
  X(hm_rvalid_i)   \
  X(hm_rdata_i)    \
  X(hm_rtag_i)     \
  X(lm_rvalid_i)   \
  X(lm_rdata_i)    \
  X(in_valid_i)    \
  X(in_kind_i)     \
  X(in_vc_i)       \
  X(in_data_i)     \
  X(in_credit_i)   \
  X(node_i)
#define E4N_OUTS(X) \
  X(ht_ready_o)     \
  X(ht_rvalid_o)    \
  X(ht_rdata_o)     \
  X(ht_rtag_o)      \
  X(hm_valid_o)     \
  X(hm_write_o)     \
  X(hm_addr_o)      \
  X(hm_data_o)      \
  X(hm_be_o)        \
  X(hm_len_o)       \
  X(hm_tag_o)       \
  X(lm_valid_o)     \
  X(lm_write_o)     \
  X(lm_addr_o)      \
  X(lm_wdata_o)     \
  X(lm_be_o)        \
  X(out_valid_o)    \
  X(out_kind_o)     \
  X(out_vc_o)       \
  X(out_data_o)     \
  X(out_credit_o)   \
  X(irq_valid_o)    \
  X(irq_cause_o)    \
  X(irq_info_o)     \
  X(irq_data_o)     \
  X(tr_cmd_o)       \
  X(tr_cmd_q_o)     \
  X(tr_form_o)      \
  X(tr_form_q_o)    \
  X(tr_fire_o)      \
  X(tr_fire_addr_o)
/* clang-format on */
#define E4N_ENUM(p) E4N_##p,
enum { E4N_INS(E4N_ENUM) E4N_NIN };
enum { E4N_OUTS(E4N_ENUM) E4N_NOUT };
typedef struct {
  uint32_t off;
  uint8_t bytes;
  uint64_t mask;
} e4n_port_t;

typedef struct {
  const elan4_view_t *vw;
  bool fast; /* every port below is one lane in a uint8..64_t, cnt_o 32-bit words */
  e4n_port_t in[E4N_NIN], out[E4N_NOUT];
  uint32_t cnt_off;
  elan4_t m;
} e4n_model_t;

static bool e4n_port(const cosim_lane_t *l, e4n_port_t *p) {
  if (l->n != 1 || !l->width || l->width > 8u * l->bytes || !cosim_pow2_le8(l->bytes)) return false;
  *p = (e4n_port_t){(uint32_t)l->offset, (uint8_t)l->bytes, l->width >= 64 ? ~0ULL : (1ULL << l->width) - 1};
  return true;
}
static bool e4n_plan(e4n_model_t *x) {
  const elan4_view_t *w = x->vw;
  bool ok = true;
#define E4N_IN(p)  ok = ok && e4n_port(&w->in.p, &x->in[E4N_##p]);
#define E4N_OUT(p) ok = ok && e4n_port(&w->out.p, &x->out[E4N_##p]);
  E4N_INS(E4N_IN)
  E4N_OUTS(E4N_OUT)
#undef E4N_IN
#undef E4N_OUT
  x->cnt_off = (uint32_t)w->out.cnt_o.offset;
  return ok && w->out.cnt_o.width == 32 && w->out.cnt_o.n == ELAN4_NCNT &&
         w->out.cnt_o.bytes == 4u * ELAN4_NCNT;
}
static inline uint64_t e4n_get(const e4n_model_t *x, unsigned k, const void *in) {
  const e4n_port_t *p = &x->in[k];
  return cosim_load_le((const uint8_t *)in + p->off, p->bytes) & p->mask;
}
static inline void e4n_put(const e4n_model_t *x, unsigned k, void *out, uint64_t v) {
  const e4n_port_t *p = &x->out[k];
  uint8_t *f = (uint8_t *)out + p->off;
  cosim_store_le(f, p->bytes, (cosim_load_le(f, p->bytes) & ~p->mask) | (v & p->mask));
}

static void *e4n_create(const elan4_view_t *vw, unsigned bug) {
  e4n_model_t *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->vw = vw;
  x->fast = e4n_plan(x);
  const __typeof__(vw->param) *p = &vw->param;
  elan4_cfg_t c = {.num_cq = (unsigned)p->NumCq,
                   .num_queues = (unsigned)p->NumQueues,
                   .depth_kb = {(unsigned)p->DepthKb0, (unsigned)p->DepthKb1, (unsigned)p->DepthKb2,
                                (unsigned)p->DepthKb3},
                   .ooo_window = (unsigned)p->OooWindow,
                   .head_dwords = (unsigned)p->HeadDwords,
                   .gap_timeout = (unsigned)p->GapTimeout,
                   .num_nodes = (unsigned)p->NumNodes,
                   .num_vcs = (unsigned)p->NumVcs,
                   .link_buf = (unsigned)p->LinkBuf,
                   .vc_sten = (unsigned)p->VcSten,
                   .vc_dma = (unsigned)p->VcDma,
                   .vc_reply = (unsigned)p->VcReply,
                   .max_outstanding = (unsigned)p->MaxOutstanding,
                   .retry_limit = (unsigned)p->RetryLimit,
                   .retry_backoff = (unsigned)p->RetryBackoff,
                   .ack_timeout = (unsigned)p->AckTimeout,
                   .tlb_entries = (unsigned)p->TlbEntries,
                   .pt_bits = (unsigned)p->PtBits,
                   .desc_base = (uint32_t)p->DescBase,
                   .rt_base = (uint32_t)p->RtBase,
                   .pt_base = (uint32_t)p->PtBase,
                   .lm_latency = (unsigned)p->LmLatency,
                   .host_read_tags = (unsigned)p->HostReadTags,
                   .reply_slots = (unsigned)p->ReplySlots,
                   .ep_fifo = (unsigned)p->EpFifo,
                   .dma_queue = (unsigned)p->DmaQueue,
                   .dma_buf_dw = (unsigned)p->DmaBufDw,
                   .irq_depth = (unsigned)p->IrqDepth,
                   .bug = bug};
  if (elan4_init(&x->m, &c)) {
    free(x);
    return NULL;
  }
  return x;
}
static void e4n_reset(void *p) { elan4_reset(&((e4n_model_t *)p)->m); }
static void e4n_commit(void *p) { elan4_commit(&((e4n_model_t *)p)->m); }
static void e4n_destroy(void *p) {
  e4n_model_t *x = p;
  elan4_free(&x->m);
  free(x);
}
#define e4n_bug_names elan4_bug_names

static void e4n_eval_fast(e4n_model_t *x, const void *in, void *out) {
  elan4_in_t mi;
  elan4_out_t mo;
#define G(p) e4n_get(x, E4N_##p, in)
  mi.ht_valid = G(ht_valid_i) != 0;
  mi.ht_write = G(ht_write_i) != 0;
  mi.ht_addr = (uint32_t)G(ht_addr_i);
  mi.ht_data = G(ht_data_i);
  mi.ht_be = (uint8_t)G(ht_be_i);
  mi.ht_tag = (uint8_t)G(ht_tag_i);
  mi.hm_ready = G(hm_ready_i) != 0;
  mi.hm_rvalid = G(hm_rvalid_i) != 0;
  mi.hm_rdata = G(hm_rdata_i);
  mi.hm_rtag = (uint8_t)G(hm_rtag_i);
  mi.lm_rvalid = G(lm_rvalid_i) != 0;
  mi.lm_rdata = G(lm_rdata_i);
  mi.in_valid = G(in_valid_i) != 0;
  mi.in_kind = (uint8_t)G(in_kind_i);
  mi.in_vc = (uint8_t)G(in_vc_i);
  mi.in_data = (uint32_t)G(in_data_i);
  mi.in_credit = (uint8_t)G(in_credit_i);
  mi.node = (uint16_t)G(node_i);
#undef G
  elan4_eval(&x->m, &mi, &mo);
#define P(p, v) e4n_put(x, E4N_##p, out, v)
  P(ht_ready_o, mo.ht_ready);
  P(ht_rvalid_o, mo.ht_rvalid);
  P(ht_rdata_o, mo.ht_rdata);
  P(ht_rtag_o, mo.ht_rtag);
  P(hm_valid_o, mo.hm_valid);
  P(hm_write_o, mo.hm_write);
  P(hm_addr_o, mo.hm_addr);
  P(hm_data_o, mo.hm_data);
  P(hm_be_o, mo.hm_be);
  P(hm_len_o, mo.hm_len);
  P(hm_tag_o, mo.hm_tag);
  P(lm_valid_o, mo.lm_valid);
  P(lm_write_o, mo.lm_write);
  P(lm_addr_o, mo.lm_addr);
  P(lm_wdata_o, mo.lm_wdata);
  P(lm_be_o, mo.lm_be);
  P(out_valid_o, mo.out_valid);
  P(out_kind_o, mo.out_kind);
  P(out_vc_o, mo.out_vc);
  P(out_data_o, mo.out_data);
  P(out_credit_o, mo.out_credit);
  P(irq_valid_o, mo.irq_valid);
  P(irq_cause_o, mo.irq_cause);
  P(irq_info_o, mo.irq_info);
  P(irq_data_o, mo.irq_data);
  memcpy((uint8_t *)out + x->cnt_off, mo.cnt, sizeof mo.cnt);
  P(tr_cmd_o, mo.tr_cmd);
  P(tr_cmd_q_o, mo.tr_cmd_q);
  P(tr_form_o, mo.tr_form);
  P(tr_form_q_o, mo.tr_form_q);
  P(tr_fire_o, mo.tr_fire);
  P(tr_fire_addr_o, mo.tr_fire_addr);
#undef P
}

static void e4n_eval(void *p, const void *in, void *out) {
  e4n_model_t *x = p;
  if (x->fast) {
    e4n_eval_fast(x, in, out);
    return;
  }
  const elan4_view_t *w = x->vw;
  elan4_in_t mi;
  elan4_out_t mo;
  mi.ht_valid = cosim_lane_get(&w->in.ht_valid_i, in, 0) != 0;
  mi.ht_write = cosim_lane_get(&w->in.ht_write_i, in, 0) != 0;
  mi.ht_addr = (uint32_t)cosim_lane_get(&w->in.ht_addr_i, in, 0);
  mi.ht_data = cosim_lane_get(&w->in.ht_data_i, in, 0);
  mi.ht_be = (uint8_t)cosim_lane_get(&w->in.ht_be_i, in, 0);
  mi.ht_tag = (uint8_t)cosim_lane_get(&w->in.ht_tag_i, in, 0);
  mi.hm_ready = cosim_lane_get(&w->in.hm_ready_i, in, 0) != 0;
  mi.hm_rvalid = cosim_lane_get(&w->in.hm_rvalid_i, in, 0) != 0;
  mi.hm_rdata = cosim_lane_get(&w->in.hm_rdata_i, in, 0);
  mi.hm_rtag = (uint8_t)cosim_lane_get(&w->in.hm_rtag_i, in, 0);
  mi.lm_rvalid = cosim_lane_get(&w->in.lm_rvalid_i, in, 0) != 0;
  mi.lm_rdata = cosim_lane_get(&w->in.lm_rdata_i, in, 0);
  mi.in_valid = cosim_lane_get(&w->in.in_valid_i, in, 0) != 0;
  mi.in_kind = (uint8_t)cosim_lane_get(&w->in.in_kind_i, in, 0);
  mi.in_vc = (uint8_t)cosim_lane_get(&w->in.in_vc_i, in, 0);
  mi.in_data = (uint32_t)cosim_lane_get(&w->in.in_data_i, in, 0);
  mi.in_credit = (uint8_t)cosim_lane_get(&w->in.in_credit_i, in, 0);
  mi.node = (uint16_t)cosim_lane_get(&w->in.node_i, in, 0);
  elan4_eval(&x->m, &mi, &mo);
  cosim_lane_set(&w->out.ht_ready_o, out, 0, mo.ht_ready);
  cosim_lane_set(&w->out.ht_rvalid_o, out, 0, mo.ht_rvalid);
  cosim_lane_set(&w->out.ht_rdata_o, out, 0, mo.ht_rdata);
  cosim_lane_set(&w->out.ht_rtag_o, out, 0, mo.ht_rtag);
  cosim_lane_set(&w->out.hm_valid_o, out, 0, mo.hm_valid);
  cosim_lane_set(&w->out.hm_write_o, out, 0, mo.hm_write);
  cosim_lane_set(&w->out.hm_addr_o, out, 0, mo.hm_addr);
  cosim_lane_set(&w->out.hm_data_o, out, 0, mo.hm_data);
  cosim_lane_set(&w->out.hm_be_o, out, 0, mo.hm_be);
  cosim_lane_set(&w->out.hm_len_o, out, 0, mo.hm_len);
  cosim_lane_set(&w->out.hm_tag_o, out, 0, mo.hm_tag);
  cosim_lane_set(&w->out.lm_valid_o, out, 0, mo.lm_valid);
  cosim_lane_set(&w->out.lm_write_o, out, 0, mo.lm_write);
  cosim_lane_set(&w->out.lm_addr_o, out, 0, mo.lm_addr);
  cosim_lane_set(&w->out.lm_wdata_o, out, 0, mo.lm_wdata);
  cosim_lane_set(&w->out.lm_be_o, out, 0, mo.lm_be);
  cosim_lane_set(&w->out.out_valid_o, out, 0, mo.out_valid);
  cosim_lane_set(&w->out.out_kind_o, out, 0, mo.out_kind);
  cosim_lane_set(&w->out.out_vc_o, out, 0, mo.out_vc);
  cosim_lane_set(&w->out.out_data_o, out, 0, mo.out_data);
  cosim_lane_set(&w->out.out_credit_o, out, 0, mo.out_credit);
  cosim_lane_set(&w->out.irq_valid_o, out, 0, mo.irq_valid);
  cosim_lane_set(&w->out.irq_cause_o, out, 0, mo.irq_cause);
  cosim_lane_set(&w->out.irq_info_o, out, 0, mo.irq_info);
  cosim_lane_set(&w->out.irq_data_o, out, 0, mo.irq_data);
  for (unsigned k = 0; k < ELAN4_NCNT; k++) cosim_lane_set(&w->out.cnt_o, out, k, mo.cnt[k]);
  cosim_lane_set(&w->out.tr_cmd_o, out, 0, mo.tr_cmd);
  cosim_lane_set(&w->out.tr_cmd_q_o, out, 0, mo.tr_cmd_q);
  cosim_lane_set(&w->out.tr_form_o, out, 0, mo.tr_form);
  cosim_lane_set(&w->out.tr_form_q_o, out, 0, mo.tr_form_q);
  cosim_lane_set(&w->out.tr_fire_o, out, 0, mo.tr_fire);
  cosim_lane_set(&w->out.tr_fire_addr_o, out, 0, mo.tr_fire_addr);
}

/* --- scramble: the registers the reset must set get values legal for their
 * type and never their reset value (the RTL's registers start random). The
 * queue slots' data arrays need no garbage: nothing reads them unless a
 * position says they hold data, and the positions are reset. */
static void scr_reg(cosim_rng_t *r, elan4_reg_t *x, unsigned V) {
  x->ht_rvalid = x->lm_valid = x->lm_write = x->out_valid = x->irq_valid = true;
  x->tr_cmd = x->tr_form = x->tr_fire = true;
  x->ht_rdata = cosim_rng_u64(r) | 1u;
  x->ht_rtag = (uint8_t)(cosim_rng_u64(r) | 1u);
  x->lm_addr = ((uint32_t)cosim_rng_u64(r) & 0x0FFFFFFFu) | 1u;
  x->lm_wdata = cosim_rng_u64(r) | 1u;
  x->out_kind = (uint8_t)(1 + cosim_rng_below(r, 3));
  x->out_vc = (uint8_t)(1 + cosim_rng_below(r, V - 1));
  x->out_data = (uint32_t)cosim_rng_u64(r) | 1u;
  x->out_credit = (uint8_t)(1u << cosim_rng_below(r, V));
  x->irq_cause = (uint8_t)(1 + cosim_rng_below(r, 7));
  x->irq_info = (uint16_t)(cosim_rng_u64(r) | 1u);
  x->irq_data = cosim_rng_u64(r) | 1u;
  for (unsigned k = 0; k < ELAN4_NCNT; k++) x->cnt_shown[k] = (uint32_t)cosim_rng_u64(r) | 1u;
  x->tr_cmd_q = (uint16_t)(1 + cosim_rng_below(r, 8191));
  x->tr_form_q = (uint16_t)(1 + cosim_rng_below(r, 8191));
  x->tr_fire_addr = ((uint32_t)cosim_rng_u64(r) & 0x7FFFFFFFu) | 1u;
}
static void scr_state(cosim_rng_t *r, elan4_state_t *s, const elan4_cfg_t *c) {
  scr_reg(r, &s->r, c->num_vcs);
  s->cyc = cosim_rng_u64(r) | 1u;
  for (unsigned k = 0; k < c->num_cq; k++) {
    elan4_slot_t *q = &s->slot[k];
    q->used = q->ever = true;
    q->q = (uint16_t)cosim_rng_below(r, c->num_queues);
    q->state = (uint8_t)(1 + cosim_rng_below(r, 2));
    q->wp = (uint32_t)cosim_rng_below(r, 1u << 20);
    q->gen = (uint32_t)cosim_rng_u64(r) | 1u;
  }
  s->pio.kind = (uint8_t)(1 + cosim_rng_below(r, PIO_MISS));
  s->st.st = (uint8_t)(1 + cosim_rng_below(r, ST_TX));
  s->txp.active = true;
  s->ep.busy = true;
  s->ep.step = (uint8_t)(1 + cosim_rng_below(r, 12));
  s->ip.st = (uint8_t)(1 + cosim_rng_below(r, 2));
  s->hm.busy = true;
  s->fill.active = true;
  s->gat.active = true;
  s->gat.slot = (uint8_t)cosim_rng_below(r, c->reply_slots);
  for (unsigned v = 0; v < c->num_vcs; v++) {
    s->credits[v] = (uint8_t)cosim_rng_below(r, c->link_buf); /* never LinkBuf */
    s->n_outst[v] = (uint8_t)(1 + cosim_rng_below(r, c->max_outstanding));
    s->rx[v].st = (uint8_t)(1 + cosim_rng_below(r, 2));
  }
  s->n_irq = (uint8_t)(1 + cosim_rng_below(r, c->irq_depth));
  s->irq_head = (uint8_t)cosim_rng_below(r, ELAN4_MAX_IRQ);
  for (unsigned k = 0; k < ELAN4_NCNT; k++) s->cnt[k] = (uint32_t)cosim_rng_u64(r) | 1u;
  s->cp_rr = (uint8_t)(1 + cosim_rng_below(r, c->num_cq > 1 ? c->num_cq - 1 : 1)) % c->num_cq;
}
static void e4n_scramble(void *p, uint64_t seed) {
  e4n_model_t *x = p;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  scr_state(&r, x->m.s, &x->m.cfg);
  scr_state(&r, x->m.nx, &x->m.cfg);
}

ELAN4_DEFAULT_BIND_TARGET(e4n)

/* elan4_default's model with NumNodes replaced, for fabrics larger than its 64 nodes (the elan4
   fabric's 256..4,096-node trees: no RTL target has those parameters, so the model alone). The
   ports are elan4_default's (node_i is 12 bits for every NumNodes), so the target's other model
   ops serve it. One NumNodes per process: the view is static. NULL if num_nodes is out of the
   spec's range 2..4096, differs from an earlier call's, or elan4_init refuses. */
void *elan4_default_model_nodes(unsigned num_nodes, unsigned bug) {
  static elan4_view_t view;
  static unsigned view_nodes;
  if (num_nodes < 2 || num_nodes > 4096 || (view_nodes && view_nodes != num_nodes)) return NULL;
  if (!view_nodes) {
    view = elan4_default_view;
    view.param.NumNodes = num_nodes;
    view_nodes = num_nodes;
  }
  return e4n_create(&view, bug);
}
ELAN4_MIN_BIND_TARGET(e4n)
ELAN4_MAX_BIND_TARGET(e4n)
ELAN4_ONEVC_BIND_TARGET(e4n)
ELAN4_ONETAG_BIND_TARGET(e4n)
