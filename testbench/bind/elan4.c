/* Binding of the elan4 model (csim/elan4/) to its co-simulation targets
 * (rtl/elan4/elan4.cosim): parameters from the view, port packing, scramble. */
#include "bind/elan4.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const elan4_view_t *vw;
  elan4_t m;
} e4n_model_t;

static void *e4n_create(const elan4_view_t *vw, unsigned bug) {
  e4n_model_t *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->vw = vw;
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

static void e4n_eval(void *p, const void *in, void *out) {
  e4n_model_t *x = p;
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
