/* elan4 model internals shared by the unit files (not for tests or bindings). */
#ifndef ELAN4_INTERNAL_H
#define ELAN4_INTERNAL_H

#include <string.h>

#include "common/common_crc32.h"
#include "elan4.h"

/* Local-memory requesters in §5.2's priority order (first wins). */
enum { RQ_MMU = 0, RQ_IP, RQ_RP, RQ_EP, RQ_CQ, RQ_ST, RQ_DMA, RQ_N };
/* Interrupt sources in §6.9's push order. */
enum { IS_IP = 0, IS_EP, IS_CQ, IS_CP, IS_ST, IS_TOK, IS_RP, IS_DMA, IS_N };
#define IRQ_PER_SRC 8

typedef struct {
  bool valid, write;
  uint32_t addr; /* dword address */
  uint64_t data;
} elan4_lmreq_t;

/* What one cycle decides, gathered before the next state is finished. */
typedef struct {
  const elan4_cfg_t *c;
  const elan4_state_t *s;
  elan4_state_t *nx;
  const elan4_in_t *in;
  elan4_lmreq_t req[RQ_N];
  int granted;     /* RQ_* or -1 */
  uint8_t cq_what; /* the CQ's request: 1 PIO/miss, 2 refill, 3 drain */
  uint8_t cq_slot;
  uint32_t cq_pos;
  uint64_t cqctl_val;
  /* MMU lookups: presented by IP (0), EP (1), DMA (2); result this cycle */
  bool look_req[3];
  uint16_t look_ctx[3];
  uint64_t look_va[3];
  bool look_done[3];
  elan4_xlate_t look_res[3];
  /* host master: presented requests by IP (0), RP, EP, DMA; granted one */
  bool hm_req[4], hm_wr[4];
  uint64_t hm_addr[4], hm_data[4];
  uint8_t hm_len[4];
  int hm_granted;
  uint8_t hm_tag; /* the tag given to a granted read */
  /* host read data this cycle */
  bool hm_rd_due;
  uint8_t hm_rd_owner, hm_rd_tag;
  uint64_t hm_rd_data;
  /* an internal queue write presented this cycle (IP first, then EP) */
  bool iqw;
  uint16_t iqw_q, iqw_k;
  uint64_t iqw_data;
  bool iqw_ip, iqw_ep;
  /* event FIFO pushes of the cycle, applied in the order IP, DMA, CP (§6.7) */
  elan4_epreq_t push[3];
  bool push_v[3];
  bool dma_pushes; /* the DMA pushes its done event this cycle (blocks the CP's push) */
  /* the local-memory read answered this cycle */
  bool rd_due;
  elan4_lmr_t rd;
  uint64_t rd_data;
  /* queue errors of this cycle: first (intake, CP, ST, token order) wins */
  uint8_t err_code[ELAN4_MAX_CQ];
  uint8_t err_src[ELAN4_MAX_CQ]; /* IS_*: whose interrupt record it is */
  uint32_t err_pos[ELAN4_MAX_CQ];
  int cqctl_slot; /* slot re-initialised by a CQCTL write this cycle, or -1 */
  bool st_drop;   /* STEN's job is dropped this cycle (§6.4) */
  /* a reply packet's token result (or timeout) of this cycle, applied by the RP after its
   * route's data cycle: a route arrival joins the send list (or fails) first (§6.5) */
  bool rp_tok_v, rp_tok_ack;
  uint8_t rp_tok_slot;
  uint32_t inc[ELAN4_NCNT];
  unsigned n_irq[IS_N];
  uint64_t dirty; /* ELAN4_DIRTY_* regions of nx written this cycle (bit k: slot k's buffers) */
  /* last: elan4_eval zeroes what is before it (an entry is read only below its n_irq) */
  elan4_irq_t irq[IS_N][IRQ_PER_SRC];
} elan4_cyc_t;

static inline uint32_t pos_add(uint32_t a, uint32_t b) { return (a + b) & ELAN4_POS_MASK; }
static inline uint32_t pos_sub(uint32_t a, uint32_t b) { return (a - b) & ELAN4_POS_MASK; }

static inline void cyc_count(elan4_cyc_t *y, unsigned k) { y->inc[k]++; }
/* Every write into one of nx's lazily copied regions marks it first. */
static inline void cyc_dirty(elan4_cyc_t *y, uint64_t region) { y->dirty |= region; }
static inline void cyc_dirty_slot(elan4_cyc_t *y, unsigned k) { y->dirty |= 1ull << k; }
static inline void cyc_irq(elan4_cyc_t *y, unsigned src, unsigned cause, uint16_t info, uint64_t data) {
  if (y->n_irq[src] < IRQ_PER_SRC) y->irq[src][y->n_irq[src]++] = (elan4_irq_t){(uint8_t)cause, info, data};
}
/* A queue error from a unit; the earlier unit of the cycle keeps it (§7). */
static inline void cyc_qerr(elan4_cyc_t *y, unsigned src, unsigned slot, unsigned code, uint32_t pos) {
  if (!y->err_code[slot]) {
    y->err_src[slot] = (uint8_t)src;
    y->err_code[slot] = (uint8_t)code;
    y->err_pos[slot] = pos & ELAN4_POS_MASK;
  }
}

/* queue descriptor fields (§4.2) */
static inline uint32_t d0_base(uint64_t d0) { return (uint32_t)(d0 & 0x7FFFFFFFu); }
static inline unsigned d0_class(uint64_t d0) { return (unsigned)((d0 >> 31) & 3u); }
static inline unsigned d0_ctx(uint64_t d0) { return (unsigned)((d0 >> 33) & 0x3FFFu); }
static inline uint32_t depth_dw(const elan4_cfg_t *c, unsigned cls) { return c->depth_kb[cls] * 128u; }
/* the backing-store dword address of a queue position */
static inline uint32_t bs_addr(const elan4_cfg_t *c, const elan4_slot_t *q, uint32_t pos) {
  return d0_base(q->d0) / 8u + (pos % depth_dw(c, d0_class(q->d0)));
}
/* the d1 word of a slot (§6.2) */
static inline uint64_t slot_d1(const elan4_slot_t *q) {
  uint32_t p = q->state == ELAN4_Q_ERROR ? q->epos : q->rp;
  return (uint64_t)q->code | (uint64_t)q->state << 8 | (uint64_t)(q->wp & ELAN4_POS_MASK) << 12 |
         (uint64_t)(p & ELAN4_POS_MASK) << 32;
}
/* tag the read granted this cycle with its owner */
static inline void lmr_tag(elan4_cyc_t *y, unsigned owner, unsigned slot, uint32_t gen, uint32_t pos) {
  uint64_t due = y->s->cyc + 1 + y->c->lm_latency;
  y->nx->lmr[due % ELAN4_LMQ] = (elan4_lmr_t){(uint8_t)owner, (uint8_t)slot, gen, pos, due};
}
int elan4_slot_of(const elan4_cfg_t *c, const elan4_state_t *s, unsigned q);

/* Command decoding (§4.3), shared by the command processor and STEN. */
unsigned elan4_cmd_len(uint64_t dw0);
unsigned elan4_check_dw0(const elan4_cfg_t *c, uint64_t en_d0, uint64_t dw0);
unsigned elan4_check_body(const uint64_t *cmd, unsigned len);

/* units, called in this order by elan4_eval */
void elan4_cq_present(elan4_cyc_t *y);
void elan4_ip_present(elan4_cyc_t *y);
void elan4_mmu_present(elan4_cyc_t *y);
void elan4_mmu_cycle(elan4_cyc_t *y);
void elan4_hm_cycle(elan4_cyc_t *y);
void elan4_ip_cycle(elan4_cyc_t *y);
void elan4_ep_present(elan4_cyc_t *y);
void elan4_rp_present(elan4_cyc_t *y);
void elan4_dma_present(elan4_cyc_t *y);
void elan4_dma_cycle(elan4_cyc_t *y);
int elan4_dma_sendable(const elan4_cfg_t *c, const elan4_state_t *s, uint32_t *o, uint8_t *m);
unsigned elan4_dma_body(const elan4_cyc_t *y, uint32_t o, unsigned m, uint32_t *body);
void elan4_dma_sent(elan4_cyc_t *y, int which, uint32_t o, unsigned m);
void elan4_dma_token(elan4_cyc_t *y, uint32_t gen, uint32_t o, bool ack);
unsigned elan4_dma_m(const elan4_cfg_t *c, const elan4_dmad_t *d, uint32_t o);
void elan4_rp_cycle(elan4_cyc_t *y);
int elan4_rp_eligible(const elan4_state_t *s);
unsigned elan4_rp_body(const elan4_cyc_t *y, unsigned slot, uint32_t *body);
void elan4_rp_token(elan4_cyc_t *y, unsigned slot, bool ack);
void elan4_ep_cycle(elan4_cyc_t *y);
bool elan4_ep_iqw(const elan4_cfg_t *c, const elan4_state_t *s, uint16_t *q, uint16_t *k, uint64_t *data);
bool elan4_ip_iqw(const elan4_cfg_t *c, const elan4_state_t *s, uint16_t *q, uint16_t *k, uint64_t *data);
bool elan4_pte_match(const elan4_cfg_t *c, uint64_t p0, uint64_t p1, unsigned ctx, uint64_t va);
void elan4_st_present(elan4_cyc_t *y);
void elan4_link_rx(elan4_cyc_t *y);
void elan4_cq_cycle(elan4_cyc_t *y);
void elan4_cp_cycle(elan4_cyc_t *y);
void elan4_st_cycle(elan4_cyc_t *y);
void elan4_tx_cycle(elan4_cyc_t *y);
void elan4_irq_cnt_cycle(elan4_cyc_t *y);
int elan4_resend_eligible(const elan4_state_t *s); /* oldest eligible resend, or -1 */
unsigned elan4_sten_body(const elan4_cyc_t *y, uint32_t *body);
void elan4_cq_reinit(elan4_cyc_t *y);
bool elan4_intake_ok(const elan4_cfg_t *c, const elan4_state_t *s);

#endif
