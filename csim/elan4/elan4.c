/* elan4 top: parameters (§2), reset (§3), the local-memory arbiter (§5.2),
 * queue-error entry (§6.2, §7) and the clock edge. */
#include "elan4_internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

const char *const elan4_bug_names[] = {"none",
                                       "ooo_release_early",
                                       "empty_extra_cycle",
                                       "sten_three_inflight",
                                       "guard_ignored",
                                       "irq_code_swapped",
                                       "reset_keeps_irq",
                                       "tlb_ignores_ctx",
                                       "copy_reversed",
                                       "fire_on_equal",
                                       "fadd_no_carry",
                                       "cas_always_swaps",
                                       "dma_page_cross",
                                       "resend_from_new_data",
                                       "error_spills_to_next_queue",
                                       "spill_wrong_position",
                                       "crc_ignored",
                                       "tail_crc_short",
                                       "drain_flips_bit",
                                       "pio_bad_uncounted",
                                       "intr_cookie_lost",
                                       "sten_ack_ignored",
                                       "cmd_complete_early",
                                       "ip_write_short",
                                       "resend_route_stale",
                                       "rx_head_on_busy",
                                       "ep_push_full",
                                       "dma_src_page_ignored",
                                       "dma_event_lost",
                                       "dma_retry_extra",
                                       "dma_timeout_ignored",
                                       "cp_push_with_dma",
                                       "cp_waits_idle_dma",
                                       "dma_fail_frees_tags",
                                       "cp_dma_len_unchecked",
                                       "cp_dma_len_odd",
                                       "dma_offset_12bit",
                                       "error_discard_uncounted",
                                       "cp_format_stalls",
                                       "error_arrival_counted",
                                       "overflow_off_by_one",
                                       "cqctl_align_unchecked",
                                       "sten_retry_extra",
                                       "gap_timeout_late",
                                       NULL};

void elan4_cfg_default(elan4_cfg_t *c) {
  *c = (elan4_cfg_t){.num_cq = 8,
                     .num_queues = 64,
                     .depth_kb = {1, 8, 64, 512},
                     .ooo_window = 16,
                     .head_dwords = 16,
                     .gap_timeout = 4096,
                     .num_nodes = 64,
                     .num_vcs = 2,
                     .link_buf = 8,
                     .vc_sten = 0,
                     .vc_dma = 1,
                     .vc_reply = 0,
                     .max_outstanding = 16,
                     .retry_limit = 32,
                     .retry_backoff = 16,
                     .ack_timeout = 16384,
                     .tlb_entries = 16,
                     .pt_bits = 10,
                     .desc_base = 0x0,
                     .rt_base = 0x20000,
                     .pt_base = 0x40000,
                     .lm_latency = 2,
                     .host_read_tags = 12,
                     .reply_slots = 4,
                     .ep_fifo = 4,
                     .dma_queue = 4,
                     .dma_buf_dw = 256,
                     .irq_depth = 16,
                     .bug = 0};
}

static int bad(const char *field, unsigned long long v, const char *legal) {
  fprintf(stderr, "elan4_init: %s = %llu is illegal (legal: %s; docs/elan4.md §2)\n", field, v, legal);
  return -EINVAL;
}
#define RANGE(f, name, lo, hi) \
  if ((unsigned long long)(f) < (lo) || (unsigned long long)(f) > (hi)) return bad(name, f, #lo ".." #hi)

static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }

int elan4_init(elan4_t *m, const elan4_cfg_t *c) {
  RANGE(c->num_cq, "NumCq", 1, 32);
  RANGE(c->num_queues, "NumQueues", c->num_cq, 8192);
  static const char *const dk[4] = {"DepthKb0", "DepthKb1", "DepthKb2", "DepthKb3"};
  for (unsigned k = 0; k < 4; k++) {
    unsigned d = c->depth_kb[k];
    if (d < 1 || d > 512 || (d & (d - 1))) return bad(dk[k], d, "a power of two 1..512");
    if (k && d <= c->depth_kb[k - 1]) return bad(dk[k], d, "strictly above the previous class");
  }
  RANGE(c->ooo_window, "OooWindow", 1, 64);
  RANGE(c->head_dwords, "HeadDwords", 12, 64);
  RANGE(c->gap_timeout, "GapTimeout", 16, 1u << 20);
  RANGE(c->num_nodes, "NumNodes", 2, 4096);
  if (c->num_vcs != 2 && c->num_vcs != 4) return bad("NumVcs", c->num_vcs, "2 or 4");
  RANGE(c->link_buf, "LinkBuf", 4, 64);
  RANGE(c->vc_sten, "VcSten", 0, c->num_vcs - 1);
  RANGE(c->vc_dma, "VcDma", 0, c->num_vcs - 1);
  RANGE(c->vc_reply, "VcReply", 0, c->num_vcs - 1);
  RANGE(c->max_outstanding, "MaxOutstanding", 2, 64);
  RANGE(c->retry_limit, "RetryLimit", 0, 255);
  RANGE(c->retry_backoff, "RetryBackoff", 0, 1024);
  RANGE(c->ack_timeout, "AckTimeout", 256, 1u << 24);
  RANGE(c->tlb_entries, "TlbEntries", 2, 128);
  RANGE(c->pt_bits, "PtBits", 4, 16);
  const uint64_t lim = 1ull << 31;
  const uint64_t dsz = 16ull * c->num_queues, rsz = 8ull * c->num_nodes, psz = 16ull << c->pt_bits;
  if ((c->desc_base & 15u) || c->desc_base >= lim || c->desc_base + dsz > lim)
    return bad("DescBase", c->desc_base, "16-byte aligned, the region below 2^31");
  if ((c->rt_base & 15u) || c->rt_base >= lim || c->rt_base + rsz > lim)
    return bad("RtBase", c->rt_base, "16-byte aligned, the region below 2^31");
  if ((c->pt_base & 15u) || c->pt_base >= lim || c->pt_base + psz > lim)
    return bad("PtBase", c->pt_base, "16-byte aligned, the region below 2^31");
  if (overlap(c->desc_base, dsz, c->rt_base, rsz))
    return bad("RtBase", c->rt_base, "not overlapping DescBase's region");
  if (overlap(c->desc_base, dsz, c->pt_base, psz))
    return bad("PtBase", c->pt_base, "not overlapping DescBase's region");
  if (overlap(c->rt_base, rsz, c->pt_base, psz))
    return bad("PtBase", c->pt_base, "not overlapping RtBase's region");
  RANGE(c->lm_latency, "LmLatency", 1, 8);
  RANGE(c->host_read_tags, "HostReadTags", 1, 16);
  RANGE(c->reply_slots, "ReplySlots", 1, 16);
  RANGE(c->ep_fifo, "EpFifo", 2, 16);
  RANGE(c->dma_queue, "DmaQueue", 1, 16);
  if (c->dma_buf_dw < 64 || c->dma_buf_dw > 1024 || c->dma_buf_dw % 64)
    return bad("DmaBufDw", c->dma_buf_dw, "64..1024, a multiple of 64");
  RANGE(c->irq_depth, "IrqDepth", 2, 64);
  if (c->bug >= ELAN4_BUG_COUNT) return bad("bug", c->bug, "an index of elan4_bug_names");
  m->cfg = *c;
  m->s = &m->buf[0];
  m->nx = &m->buf[1];
  elan4_reset(m);
  return 0;
}

/* §3's reset paragraph: every slot unused, FIFOs and lists empty, units idle,
   credits LinkBuf per VC, pointers 0, counters 0, outputs 0 (ht_ready_o is
   derived from the state and reads 1). */
void elan4_reset(elan4_t *m) {
  elan4_reg_t keep = m->s->r;
  memset(m->s, 0, sizeof *m->s);
  for (unsigned v = 0; v < m->cfg.num_vcs; v++) m->s->credits[v] = (uint8_t)m->cfg.link_buf;
  if (m->cfg.bug == ELAN4_BUG_RESET_KEEPS_IRQ) { /* planted: the irq output registers keep garbage */
    m->s->r.irq_valid = keep.irq_valid;
    m->s->r.irq_cause = keep.irq_cause;
    m->s->r.irq_info = keep.irq_info;
    m->s->r.irq_data = keep.irq_data;
  }
  *m->nx = *m->s;
  m->stale = 0;
}

void elan4_free(elan4_t *m) { (void)m; }

int elan4_slot_of(const elan4_cfg_t *c, const elan4_state_t *s, unsigned q) {
  for (unsigned k = 0; k < c->num_cq; k++)
    if (s->slot[k].used && s->slot[k].q == q) return (int)k;
  return -1;
}

/* Enter ERROR (§6.2, §7): wp frozen at its start-of-cycle value, dwords dropped,
   packets abandoned (gen bump), out(q) 0, interrupt 3, cnt_cq_error. */
static void enter_error(elan4_cyc_t *y, unsigned k) {
  const elan4_slot_t *o = &y->s->slot[k];
  elan4_slot_t *q = &y->nx->slot[k];
  /* planted: a dword that arrived in order this cycle (wp advanced) is counted as discarded */
  if (y->c->bug == ELAN4_BUG_ERROR_ARRIVAL_COUNTED && q->wp != o->wp) cyc_count(y, ELAN4_CNT_CQ_DISCARD);
  q->state = ELAN4_Q_ERROR;
  q->code = y->err_code[k];
  q->epos = y->err_pos[k];
  q->wp = o->wp;
  q->rp = o->rp;
  q->dp = q->hend = o->wp;
  q->out = 0;
  q->refill_f = 0;
  q->gap_cnt = 0;
  q->gen++;
  cyc_dirty_slot(y, k);
  memset(q->have, 0, sizeof q->have);
  uint64_t data = (uint64_t)q->code | (uint64_t)(q->epos & ELAN4_POS_MASK) << 8;
  if (y->c->bug == ELAN4_BUG_IRQ_CODE_SWAPPED) data = (uint64_t)(q->epos & 0xFFu) | (uint64_t)q->code << 8;
  cyc_irq(y, y->err_src[k], 3, q->q, data);
  cyc_count(y, ELAN4_CNT_CQ_ERROR);
}

/* fp (§4.2): the oldest command with a packet awaiting its token, else rp;
 * a STEN command's packet awaits its token from the command's acceptance
 * (the job, new or a resend, counts). */
static void update_fp(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  elan4_state_t *n = y->nx;
  uint32_t age[ELAN4_MAX_CQ] = {0};
  bool any[ELAN4_MAX_CQ] = {false};
#define AGE(slot_, gen_, pos_)                             \
  do {                                                     \
    const elan4_slot_t *q_ = &n->slot[slot_];              \
    if (q_->used && q_->gen == (gen_)) {                   \
      uint32_t a_ = pos_sub(q_->rp, (pos_));               \
      if (!any[slot_] || a_ > age[slot_]) age[slot_] = a_; \
      any[slot_] = true;                                   \
    }                                                      \
  } while (0)
  for (unsigned v = 0; v < c->num_vcs; v++)
    for (unsigned i = 0; i < n->n_outst[v]; i++)
      if (n->outst[v][i].owner == 1) AGE(n->outst[v][i].slot, n->outst[v][i].gen, n->outst[v][i].pos);
  for (unsigned i = 0; i < n->n_resend; i++) AGE(n->resend[i].slot, n->resend[i].gen, n->resend[i].pos);
  if (n->st.st != ST_IDLE) AGE(n->st.slot, n->st.gen, n->st.pos);
#undef AGE
  for (unsigned k = 0; k < c->num_cq; k++) n->slot[k].fp = pos_sub(n->slot[k].rp, age[k]);
}

static void lm_arbitrate(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  elan4_reg_t *r = &y->nx->r;
  y->granted = -1;
  r->lm_valid = r->lm_write = false;
  r->lm_addr = 0;
  r->lm_wdata = 0;
  for (int k = 0; k < RQ_N; k++) {
    if (!y->req[k].valid) continue;
    y->granted = k;
    r->lm_valid = true;
    r->lm_write = y->req[k].write;
    r->lm_addr = y->req[k].addr & 0x0FFFFFFFu;
    r->lm_wdata = y->req[k].write ? y->req[k].data : 0;
    break;
  }
  (void)c;
}

/* The next state starts as a copy of the registers. The state is sized for
 * §2's maxima (110 KB); copying all of it every cycle was two thirds of the
 * model's time, so only what the parameters use and the live parts of the
 * lists and rings are copied: entries past a list's count, or outside a
 * ring's live window, are never read before they are written. The large
 * arrays few cycles write (each slot's intake and head buffers, the TLB, the
 * reply slots, the interrupt ring, the DMA buffer) are copied only when the
 * previous eval wrote them into the buffer that is now current (`stale`, the
 * regions of elan4_cyc_t.dirty): the other buffer still holds them as they
 * were. A speed-up only; the lockstep against the RTL is the evidence it
 * changes nothing. */
#define COPY_SPAN(a, b)                                                                        \
  memcpy((char *)n + offsetof(elan4_state_t, a), (const char *)s + offsetof(elan4_state_t, a), \
         offsetof(elan4_state_t, b) - offsetof(elan4_state_t, a))
static void state_copy(const elan4_cfg_t *c, elan4_state_t *n, const elan4_state_t *s, uint64_t stale) {
  memcpy(n, s, offsetof(elan4_state_t, slot));
  for (unsigned k = 0; k < c->num_cq; k++) /* constant sizes: the header's copy is inlined */
    if ((stale >> k) & 1u)
      memcpy(&n->slot[k], &s->slot[k], sizeof s->slot[k]);
    else
      memcpy(&n->slot[k], &s->slot[k], offsetof(elan4_slot_t, have));
  COPY_SPAN(cp_rr, resend);
  memcpy(n->resend, s->resend, s->n_resend * sizeof *s->resend);
  COPY_SPAN(n_resend, outst);
  for (unsigned v = 0; v < c->num_vcs; v++)
    memcpy(n->outst[v], s->outst[v], s->n_outst[v] * sizeof s->outst[v][0]);
  COPY_SPAN(n_outst, epf);
  memcpy(n->epf, s->epf, s->n_epf * sizeof *s->epf);
  COPY_SPAN(n_epf, dmaq);
  memcpy(n->dmaq, s->dmaq, s->n_dmaq * sizeof *s->dmaq);
  const elan4_dma_t *a = &s->dma;
  elan4_dma_t *b = &n->dma;
  memcpy(b, a, offsetof(elan4_dma_t, pk));
  for (uint32_t i = 0; i < a->npk; i++)
    b->pk[(a->pk_head + i) % ELAN4_MAX_DMABUF] = a->pk[(a->pk_head + i) % ELAN4_MAX_DMABUF];
  b->pk_head = a->pk_head;
  b->npk = a->npk;
  if (stale & ELAN4_DIRTY_DMABUF) memcpy(b->buf, a->buf, c->dma_buf_dw * sizeof a->buf[0]);
  memcpy(b->discard_tag, a->discard_tag, sizeof a->discard_tag);
  COPY_SPAN(tlb_repl, tlb);
  if (stale & ELAN4_DIRTY_TLB) memcpy(n->tlb, s->tlb, c->tlb_entries * sizeof *s->tlb);
  COPY_SPAN(fill, rs);
  if (stale & ELAN4_DIRTY_RS) memcpy(n->rs, s->rs, c->reply_slots * sizeof *s->rs);
  COPY_SPAN(rp_order, irq);
  if (stale & ELAN4_DIRTY_IRQ) memcpy(n->irq, s->irq, sizeof s->irq);
  memcpy((char *)n + offsetof(elan4_state_t, irq_head), (const char *)s + offsetof(elan4_state_t, irq_head),
         sizeof *s - offsetof(elan4_state_t, irq_head));
}
#undef COPY_SPAN

void elan4_eval(elan4_t *m, const elan4_in_t *in, elan4_out_t *out) {
  const elan4_cfg_t *c = &m->cfg;
  const elan4_state_t *s = m->s;
  elan4_state_t *n = m->nx;
  state_copy(c, n, s, m->stale);
  n->cyc = s->cyc + 1;

  /* outputs: registers of the previous cycle; ht_ready_o from start-of-cycle state */
  memset(out, 0, sizeof *out);
  uint16_t iq_q, iq_k;
  uint64_t iq_d;
  out->ht_ready = elan4_intake_ok(c, s) && !elan4_ip_iqw(c, s, &iq_q, &iq_k, &iq_d) &&
                  !elan4_ep_iqw(c, s, &iq_q, &iq_k, &iq_d);
  out->ht_rvalid = s->r.ht_rvalid;
  out->ht_rdata = s->r.ht_rdata;
  out->ht_rtag = s->r.ht_rtag;
  out->lm_valid = s->r.lm_valid;
  out->lm_write = s->r.lm_write;
  out->lm_addr = s->r.lm_addr;
  out->lm_wdata = s->r.lm_wdata;
  out->lm_be = s->r.lm_write ? 0xFF : 0;
  out->out_valid = s->r.out_valid;
  out->out_kind = s->r.out_kind;
  out->out_vc = s->r.out_vc;
  out->out_data = s->r.out_data;
  out->out_credit = s->r.out_credit;
  out->hm_valid = s->hm.busy;
  out->hm_write = s->hm.busy && s->hm.write;
  out->hm_addr = s->hm.busy ? s->hm.addr : 0;
  out->hm_data = s->hm.busy ? s->hm.data : 0;
  out->hm_be = s->hm.busy && s->hm.write ? 0xFF : 0;
  out->hm_len = s->hm.busy ? s->hm.len : 0;
  out->hm_tag = s->hm.busy ? s->hm.tag : 0;
  out->irq_valid = s->r.irq_valid;
  out->irq_cause = s->r.irq_cause;
  out->irq_info = s->r.irq_info;
  out->irq_data = s->r.irq_data;
  memcpy(out->cnt, s->r.cnt_shown, sizeof out->cnt);
  out->tr_cmd = s->r.tr_cmd;
  out->tr_cmd_q = s->r.tr_cmd_q;
  out->tr_form = s->r.tr_form;
  out->tr_form_q = s->r.tr_form_q;
  out->tr_fire = s->r.tr_fire;
  out->tr_fire_addr = s->r.tr_fire_addr;

  elan4_cyc_t y;
  memset(&y, 0, offsetof(elan4_cyc_t, irq));
  y.c = c;
  y.s = s;
  y.nx = n;
  y.in = in;
  y.cqctl_slot = -1;
  /* per-cycle output registers default to idle */
  n->r.ht_rvalid = false;
  n->r.ht_rdata = 0;
  n->r.ht_rtag = 0;
  n->r.tr_cmd = n->r.tr_form = n->r.tr_fire = false;
  n->r.tr_cmd_q = n->r.tr_form_q = 0;
  n->r.tr_fire_addr = 0;

  /* the local-memory read due this cycle (§3.3): data LmLatency after it was on the port */
  const unsigned li = (unsigned)(s->cyc % ELAN4_LMQ);
  if (s->lmr[li].owner != LMR_NONE && s->lmr[li].due == s->cyc) {
    y.rd_due = true;
    y.rd = s->lmr[li];
    if (in->lm_rvalid)
      y.rd_data = in->lm_rdata;
    else
      cyc_count(&y, ELAN4_CNT_PROTO_ERR); /* missing: 0 used */
    n->lmr[li].owner = LMR_NONE;
  } else if (in->lm_rvalid) {
    cyc_count(&y, ELAN4_CNT_PROTO_ERR);
  }

  elan4_cq_present(&y);
  elan4_st_present(&y);
  elan4_ip_present(&y);
  elan4_ep_present(&y);
  elan4_rp_present(&y);
  elan4_dma_present(&y);
  elan4_mmu_present(&y);
  lm_arbitrate(&y);
  elan4_hm_cycle(&y);
  elan4_mmu_cycle(&y);
  elan4_link_rx(&y);
  elan4_cq_cycle(&y);
  elan4_cp_cycle(&y);
  elan4_st_cycle(&y);
  elan4_dma_cycle(&y); /* before tx: tokens and sends of this cycle update it */
  elan4_tx_cycle(&y);  /* before the IP: the IP appends its token to the queue tx has shifted */
  elan4_ip_cycle(&y);
  elan4_ep_cycle(&y);
  elan4_rp_cycle(&y);
  for (unsigned k = 0; k < 3; k++) /* event FIFO pushes: IP, DMA, CP (§6.7) */
    if (y.push_v[k] && n->n_epf < ELAN4_MAX_EPFIFO) n->epf[n->n_epf++] = y.push[k];

  /* queue errors of the cycle, then a CQCTL re-initialisation over everything */
  if (c->bug == ELAN4_BUG_ERROR_SPILLS && c->num_cq > 1) { /* planted: each error moves to the next slot */
    uint8_t code[ELAN4_MAX_CQ], src[ELAN4_MAX_CQ];
    uint32_t pos[ELAN4_MAX_CQ];
    for (unsigned k = 0; k < c->num_cq; k++) {
      unsigned to = (k + 1) % c->num_cq;
      code[to] = y.err_code[k];
      src[to] = y.err_src[k];
      pos[to] = y.err_pos[k];
    }
    memcpy(y.err_code, code, c->num_cq);
    memcpy(y.err_src, src, c->num_cq);
    memcpy(y.err_pos, pos, sizeof(uint32_t) * c->num_cq);
  }
  for (unsigned k = 0; k < c->num_cq; k++)
    if (y.err_code[k] && (int)k != y.cqctl_slot && s->slot[k].state == ELAN4_Q_OK) enter_error(&y, k);
  if (y.cqctl_slot >= 0) elan4_cq_reinit(&y);
  /* abandoned queues leave STEN's resend list at the end of the cycle */
  unsigned w = 0;
  for (unsigned i = 0; i < n->n_resend; i++) {
    const elan4_resend_t *e = &n->resend[i];
    if (n->slot[e->slot].used && n->slot[e->slot].gen == e->gen && n->slot[e->slot].state == ELAN4_Q_OK)
      n->resend[w++] = *e;
  }
  n->n_resend = (uint8_t)w;
  update_fp(&y);
  elan4_irq_cnt_cycle(&y);
  m->stale = y.dirty;
}

/* the clock edge: the next state becomes current (the buffers swap; eval
   starts the next one from a copy of the current) */
void elan4_commit(elan4_t *m) {
  elan4_state_t *x = m->s;
  m->s = m->nx;
  m->nx = x;
}
