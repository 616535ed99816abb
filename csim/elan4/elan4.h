/*
 * elan4 -- cycle-accurate C model of the Quadrics Elan4 NIC. Spec: docs/elan4.md
 * (section 6 is the per-cycle behaviour, section 9.1 the latency contracts).
 *
 * One elan4_eval + elan4_commit pair is one clock cycle. elan4_eval is pure with
 * respect to the current state: it returns this cycle's outputs (every output is a
 * function of start-of-cycle state, i.e. a register) and builds the next state;
 * elan4_commit is the clock edge. Files follow the units of docs/elan4.md §11:
 * elan4_cq.c (host port, queue intake, descriptor cache), elan4_cmd_proc.c,
 * elan4_sten.c (STEN), elan4_link_tx.c (transmitter, outstanding lists, tokens),
 * elan4_link_rx.c (receiver), elan4_input_proc.c, elan4_reply.c, elan4_mmu.c
 * (MMU and the host-master arbiter), elan4_event_proc.c, elan4_dma.c, elan4_irq.c
 * (interrupts, counters), elan4.c (top: parameters, reset, the local-memory
 * arbiter, queue-error entry, commit). Status: docs/elan4.md "C model status".
 */
#ifndef ELAN4_H
#define ELAN4_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter maxima (§2), sizing the model's fixed arrays. */
#define ELAN4_MAX_CQ     32
#define ELAN4_MAX_WINDOW 64
#define ELAN4_MAX_HEAD   64
#define ELAN4_MAX_VCS    4
#define ELAN4_MAX_OUTST  64
#define ELAN4_MAX_IRQ    64
#define ELAN4_MAX_EPFIFO 16
#define ELAN4_MAX_DMAQ   16
#define ELAN4_MAX_TLB    128
#define ELAN4_NCNT       28
#define ELAN4_MAX_BODY   22  /* body words of the longest packet (§4.6) */
#define ELAN4_IBUF       128 /* intake ring: undrained + out-of-order, < 2 windows */
#define ELAN4_MAX_RESEND (ELAN4_MAX_CQ * 2)
#define ELAN4_LMQ        16       /* local-memory read pipeline (LmLatency + 1 <= 9) */
#define ELAN4_POS_MASK   0xFFFFFu /* positions are kept mod 2^20 (§6.2) */

/* Queue states and error codes (§7). */
enum { ELAN4_Q_CLOSED = 0, ELAN4_Q_OK = 1, ELAN4_Q_ERROR = 2 };
enum {
  ELAN4_E_CONFIG = 1,
  ELAN4_E_PARTIAL,
  ELAN4_E_WINDOW,
  ELAN4_E_OVERFLOW,
  ELAN4_E_DUP,
  ELAN4_E_OPCODE,
  ELAN4_E_DISABLED,
  ELAN4_E_FORMAT,
  ELAN4_E_ROUTE,
  ELAN4_E_NOROUTE,
  ELAN4_E_RETRY,
  ELAN4_E_GAP
};
/* Command opcodes (§4.3). */
enum {
  ELAN4_OP_NOP = 0,
  ELAN4_OP_WRITE,
  ELAN4_OP_READ,
  ELAN4_OP_SETEVENT,
  ELAN4_OP_WAITEVENT,
  ELAN4_OP_RUN_DMA,
  ELAN4_OP_GUARD,
  ELAN4_OP_INTERRUPT,
  ELAN4_OP_ATOMIC
};
/* Counter lanes of cnt_o (§6.10). */
enum {
  ELAN4_CNT_PIO_WR = 0,
  ELAN4_CNT_PIO_RD,
  ELAN4_CNT_PIO_BAD,
  ELAN4_CNT_CQ_DISCARD,
  ELAN4_CNT_CQ_ERROR,
  ELAN4_CNT_CQ_LOAD,
  ELAN4_CNT_CQ_SPILL,
  ELAN4_CNT_CMDS,
  ELAN4_CNT_TX_PKTS,
  ELAN4_CNT_TX_TOKENS,
  ELAN4_CNT_RX_PKTS,
  ELAN4_CNT_RX_TOKENS,
  ELAN4_CNT_ACKS_RX,
  ELAN4_CNT_NACKS_RX,
  ELAN4_CNT_RESENDS,
  ELAN4_CNT_TIMEOUTS,
  ELAN4_CNT_NACKS_TX,
  ELAN4_CNT_CRC_ERR,
  ELAN4_CNT_BAD_PKTS,
  ELAN4_CNT_TLB_HIT,
  ELAN4_CNT_TLB_MISS,
  ELAN4_CNT_XLATE_FAULT,
  ELAN4_CNT_PROT_FAULT,
  ELAN4_CNT_NACK_BUSY,
  ELAN4_CNT_EVENTS_SET,
  ELAN4_CNT_EVENTS_FIRED,
  ELAN4_CNT_IRQ_LOST,
  ELAN4_CNT_PROTO_ERR
};
enum { ELAN4_HEAD = 0, ELAN4_BODY = 1, ELAN4_TAIL = 2, ELAN4_TOKEN = 3 };

/* Planted bugs (docs/elan4.md §10 "Negatives"); index into elan4_bug_names. */
enum {
  ELAN4_BUG_NONE = 0,
  ELAN4_BUG_OOO_RELEASE_EARLY, /* "ooo_release_early": wp jumps over a gap */
  ELAN4_BUG_EMPTY_EXTRA_CYCLE, /* "empty_extra_cycle": a drained dword reaches the head buffer a cycle late */
  ELAN4_BUG_STEN_THREE_INFLIGHT,  /* "sten_three_inflight": out(q) < 3 instead of < 2 */
  ELAN4_BUG_GUARD_IGNORED,        /* "guard_ignored": GUARD dispatches with packets in flight */
  ELAN4_BUG_IRQ_CODE_SWAPPED,     /* "irq_code_swapped": cause-3 data has code and position swapped */
  ELAN4_BUG_RESET_KEEPS_IRQ,      /* "reset_keeps_irq": reset forgets the irq output registers */
  ELAN4_BUG_TLB_IGNORES_CTX,      /* "tlb_ignores_ctx": a TLB hit does not compare the context */
  ELAN4_BUG_COPY_REVERSED,        /* "copy_reversed": an event COPY moves its dwords last first */
  ELAN4_BUG_FIRE_ON_EQUAL,        /* "fire_on_equal": a set fires from count 0 too (count <= 0, not < 0) */
  ELAN4_BUG_FADD_NO_CARRY,        /* "fadd_no_carry": fetch-and-add loses the carry out of bit 31 */
  ELAN4_BUG_CAS_ALWAYS_SWAPS,     /* "cas_always_swaps": compare-and-swap writes b whatever the old value */
  ELAN4_BUG_DMA_PAGE_CROSS,       /* "dma_page_cross": DMA packets ignore the destination's page boundary */
  ELAN4_BUG_RESEND_FROM_NEW_DATA, /* "resend_from_new_data": a resend reads the dwords after the command */
  ELAN4_BUG_ERROR_SPILLS, /* "error_spills_to_next_queue": a queue error lands on the next slot's queue */
  ELAN4_BUG_SPILL_WRONG_POSITION, /* "spill_wrong_position": a spill writes wp + 1 into d1 */
  ELAN4_BUG_CRC_IGNORED,          /* "crc_ignored": the IP executes a packet whose CRC is bad */
  ELAN4_BUG_TAIL_CRC_SHORT,       /* "tail_crc_short": the TAIL's CRC leaves out the last body word */
  ELAN4_BUG_DRAIN_FLIPS_BIT,      /* "drain_flips_bit": a backing-store write has data bit 0 inverted */
  ELAN4_BUG_PIO_BAD_UNCOUNTED,    /* "pio_bad_uncounted": a misaligned PIO is not counted in cnt_pio_bad */
  ELAN4_BUG_INTR_COOKIE_LOST,     /* "intr_cookie_lost": an INTERRUPT command's record carries data 0 */
  ELAN4_BUG_STEN_ACK_IGNORED,     /* "sten_ack_ignored": an ack of a STEN packet leaves out(q) as it was */
  ELAN4_BUG_CMD_COMPLETE_EARLY,   /* "cmd_complete_early": a command counts as complete one dword early */
  ELAN4_BUG_IP_WRITE_SHORT,       /* "ip_write_short": a received WRITE of n > 1 dwords writes only n - 1 */
  ELAN4_BUG_RESEND_ROUTE_STALE,   /* "resend_route_stale": a resend reads node 0's route entry, not dest's */
  ELAN4_BUG_RX_HEAD_ON_BUSY,      /* "rx_head_on_busy": a HEAD on an OPEN or FULL register restarts it */
  ELAN4_BUG_EP_PUSH_FULL,         /* "ep_push_full": the IP pushes a set into a full event FIFO */
  ELAN4_BUG_DMA_SRC_PAGE_IGNORED, /* "dma_src_page_ignored": DMA packets ignore the source's page boundary */
  ELAN4_BUG_DMA_EVENT_LOST,       /* "dma_event_lost": a done DMA with R sets no local event */
  ELAN4_BUG_DMA_RETRY_EXTRA,      /* "dma_retry_extra": a DMA packet gets RetryLimit + 1 resends */
  ELAN4_BUG_DMA_TIMEOUT_IGNORED, /* "dma_timeout_ignored": a DMA packet's ack timeout is not passed to the DMA */
  ELAN4_BUG_CP_PUSH_WITH_DMA, /* "cp_push_with_dma": a local SETEVENT is pushed in a cycle the DMA pushes */
  ELAN4_BUG_CP_WAITS_IDLE_DMA, /* "cp_waits_idle_dma": the CP waits on an idle DMA's stale push (the old model) */
  ELAN4_BUG_DMA_FAIL_FREES_TAGS,     /* "dma_fail_frees_tags": a DMA failing on its route or source frees its
                                     host-read tags before their data has come */
  ELAN4_BUG_CP_DMA_LEN_UNCHECKED,    /* "cp_dma_len_unchecked": RUN_DMA's imm is not checked (0 accepted) */
  ELAN4_BUG_CP_DMA_LEN_ODD,          /* "cp_dma_len_odd": RUN_DMA's imm need not be a multiple of 8 */
  ELAN4_BUG_DMA_OFFSET_12BIT,        /* "dma_offset_12bit": a DMA packet's VA offset wraps at 4096 dwords */
  ELAN4_BUG_ERROR_DISCARD_UNCOUNTED, /* "error_discard_uncounted": a write to an ERROR queue is not counted */
  ELAN4_BUG_CP_FORMAT_STALLS, /* "cp_format_stalls": a RUN_DMA failing E_FORMAT on dword 0 waits for ever */
  ELAN4_BUG_ERROR_ARRIVAL_COUNTED, /* "error_arrival_counted": a dword arriving in the cycle its queue enters
                                      ERROR is counted in cnt_cq_discard */
  ELAN4_BUG_OVERFLOW_OFF_BY_ONE,   /* "overflow_off_by_one": E_OVERFLOW only from p = fp + DepthDw + 1 */
  ELAN4_BUG_CQCTL_ALIGN_UNCHECKED, /* "cqctl_align_unchecked": a CQCTL base off its depth's multiple is OK */
  ELAN4_BUG_STEN_RETRY_EXTRA,      /* "sten_retry_extra": a STEN packet gets RetryLimit + 1 resends */
  ELAN4_BUG_GAP_TIMEOUT_LATE,      /* "gap_timeout_late": E_GAP one cycle after GapTimeout held cycles */
  ELAN4_BUG_COUNT
};
extern const char *const elan4_bug_names[]; /* NULL-terminated, [0] = "none" */

typedef struct {
  unsigned num_cq, num_queues, depth_kb[4], ooo_window, head_dwords, gap_timeout;
  unsigned num_nodes, num_vcs, link_buf, vc_sten, vc_dma, vc_reply, max_outstanding;
  unsigned retry_limit, retry_backoff, ack_timeout, tlb_entries, pt_bits;
  uint32_t desc_base, rt_base, pt_base;
  unsigned lm_latency, host_read_tags, reply_slots, ep_fifo, dma_queue, dma_buf_dw, irq_depth;
  unsigned bug;
} elan4_cfg_t;

/* §2's defaults. */
void elan4_cfg_default(elan4_cfg_t *c);

/* Ports (§3), one cycle. */
typedef struct {
  bool ht_valid, ht_write;
  uint32_t ht_addr;
  uint64_t ht_data;
  uint8_t ht_be, ht_tag;
  bool hm_ready, hm_rvalid;
  uint64_t hm_rdata;
  uint8_t hm_rtag;
  bool lm_rvalid;
  uint64_t lm_rdata;
  bool in_valid;
  uint8_t in_kind, in_vc;
  uint32_t in_data;
  uint8_t in_credit; /* bit per VC */
  uint16_t node;
} elan4_in_t;

typedef struct {
  bool ht_ready, ht_rvalid;
  uint64_t ht_rdata;
  uint8_t ht_rtag;
  bool hm_valid, hm_write;
  uint64_t hm_addr, hm_data;
  uint8_t hm_be, hm_len, hm_tag;
  bool lm_valid, lm_write;
  uint32_t lm_addr; /* dword address */
  uint64_t lm_wdata;
  uint8_t lm_be;
  bool out_valid;
  uint8_t out_kind, out_vc;
  uint32_t out_data;
  uint8_t out_credit;
  bool irq_valid;
  uint8_t irq_cause;
  uint16_t irq_info;
  uint64_t irq_data;
  uint32_t cnt[ELAN4_NCNT];
  bool tr_cmd, tr_form, tr_fire;
  uint16_t tr_cmd_q, tr_form_q;
  uint32_t tr_fire_addr;
} elan4_out_t;

/* One cached queue descriptor (§6.2). Positions are mod 2^20. */
typedef struct {
  bool used; /* holds a queue */
  bool ever; /* used since reset (victim choice) */
  uint16_t q;
  uint32_t gen; /* incarnation: bumped by CQCTL and ERROR, so old packets are abandoned */
  uint64_t d0;  /* configuration (the CQCTL value) */
  uint8_t state, code;
  uint32_t epos;
  uint32_t wp, dp, hend, rp, fp;
  uint8_t out;      /* STEN packets not yet acked */
  uint8_t refill_f; /* refill reads granted, data not yet arrived */
  uint32_t gap_cnt; /* consecutive cycles holding an out-of-order dword */
  bool late;        /* planted bug empty_extra_cycle: a drained dword's hend step is pending */
  /* the intake and head buffers stay last: a cycle that writes none of them
     does not copy them (elan4_cyc_t.dirty) */
  bool have[ELAN4_IBUF];
  uint64_t ibuf[ELAN4_IBUF];     /* by position mod ELAN4_IBUF: [dp, wp) in order, >= wp held out of order */
  uint64_t head[ELAN4_MAX_HEAD]; /* by position mod ELAN4_MAX_HEAD: [rp, hend) */
} elan4_slot_t;

/* A held PIO operation or descriptor-miss sequence (§6.1, §6.2). */
enum {
  PIO_NONE = 0,
  PIO_BAD,
  PIO_ZERO,
  PIO_CQCTL_WR,
  PIO_CQCTL_RD,
  PIO_TLBFLUSH,
  PIO_WIN_WR,
  PIO_WIN_RD,
  PIO_MISS
};
typedef struct {
  uint8_t kind, step;
  bool write, wait; /* wait: a read granted, data not yet in */
  uint32_t addr;
  uint64_t data;
  uint8_t be, tag;
  uint16_t q;
  uint8_t victim;
  bool victim_ok;
  uint64_t d0; /* miss: loaded d0 */
} elan4_pio_t;

/* A queue-page write on its way to the intake (accepted last cycle, or after an install). */
typedef struct {
  bool valid;
  uint16_t q;
  uint16_t k;
  uint64_t data;
  uint8_t be;
} elan4_arr_t;

/* A local-memory read in flight, by data cycle mod ELAN4_LMQ. */
enum { LMR_NONE = 0, LMR_PIO, LMR_REFILL, LMR_STEN, LMR_MMU, LMR_IP, LMR_EP, LMR_RP, LMR_DMA };
typedef struct {
  uint8_t owner, slot;
  uint32_t gen, pos;
  uint64_t due; /* data cycle */
} elan4_lmr_t;

/* STEN's job (§6.4). */
enum { ST_IDLE = 0, ST_ROUTE, ST_RSREAD, ST_SEND, ST_TX }; /* SEND: formed, HEAD not decided; TX: sending */
typedef struct {
  uint8_t st;
  bool resend;
  uint8_t slot;
  uint32_t gen, pos, len, tries;
  uint16_t q;
  uint64_t cmd[11];
  uint32_t nread; /* resend: dwords read from the backing store (granted) */
  uint32_t narr;  /* resend: dwords arrived */
  bool wait;      /* a read granted, data not yet in */
  uint32_t route;
  uint32_t seq;  /* job number: tags its local-memory reads */
  uint16_t dest; /* kept with the packet so a resend reads its route without waiting for dword 0 */
} elan4_sten_t;

/* A packet sent (HEAD out) and awaiting its token, per VC (§6.4). */
typedef struct {
  uint8_t owner; /* 1 STEN, 2 RP, 3 DMA (slot: unused; pos: packet's first dword; gen: the DMA's) */
  uint8_t slot;
  uint32_t gen, pos, len, tries;
  uint16_t q, dest;
  bool tail_sent;
  uint64_t t0; /* the timeout's reference cycle T */
} elan4_outst_t;

typedef struct {
  uint8_t slot;
  uint32_t gen, pos, len, tries;
  uint16_t q, dest;
  uint64_t eligible;
} elan4_resend_t;

/* The packet in progress on the transmitter. */
typedef struct {
  bool active;
  uint8_t vc, owner;   /* owner: 1 STEN, 2 RP, 3 DMA */
  uint8_t nbody, sent; /* sent: body words sent; TAIL after nbody */
  uint32_t body[ELAN4_MAX_BODY];
  uint32_t crc;
} elan4_txp_t;

typedef struct {
  uint8_t cause;
  uint16_t info;
  uint64_t data;
} elan4_irq_t;

/* Receiver packet register per VC (§6.5). */
enum { RX_FREE = 0, RX_OPEN, RX_FULL };
typedef struct {
  uint8_t st;
  bool dropping; /* a neighbour's HEAD on a busy register: dropped up to its TAIL */
  uint8_t nbody;
  bool overlength;
  uint32_t route, crc;
  uint32_t body[ELAN4_MAX_BODY];
} elan4_rxp_t;

/* MMU (§6.6): one TLB entry = a matching PTE of §4.5. */
typedef struct {
  bool valid;
  uint64_t p0, p1;
} elan4_tlbe_t;
/* A lookup's result, the requester's at the end of the result cycle. */
typedef struct {
  bool ok; /* a matching PTE */
  uint64_t p0, p1;
} elan4_xlate_t;
typedef struct {
  bool active; /* a fill in progress: cycles c+1 .. c+3+L */
  uint8_t who; /* requester: 0 IP, 1 EP, 2 DMA */
  uint16_t ctx;
  uint64_t va, p0;
  uint64_t c; /* the lookup's grant cycle */
} elan4_fill_t;

/* Input processor (§6.5). */
enum { IP_IDLE = 0, IP_XLATE, IP_EXEC };
typedef struct {
  uint8_t st, vc, kind, n, e, a, phase, nlook, i;
  bool wait; /* a lookup or a read granted, its result not yet in */
  uint16_t ctx, src;
  uint64_t va, ev_va;
  uint64_t dw[12];    /* the dwords after W3 (SETEVENT: dw[0] = the increment) */
  elan4_xlate_t x[2]; /* target, event */
  uint64_t old;
  uint8_t rslot;
} elan4_ip_t;
/* A reply slot (§6.5): reserved by the IP for a READ or ATOMIC, answered by the reply unit. */
typedef struct {
  bool used;
  uint8_t kind, n, e;
  uint16_t src, ctx;
  uint64_t addr, reply_va, ev_va, old;
  uint8_t space;
  bool have_old; /* ATOMIC: the IP has put the old value in */
  uint64_t data[8];
  uint32_t route, tries;
} elan4_rslot_t;
/* The reply unit's gatherer (§6.5): one reserved slot at a time. */
typedef struct {
  bool active, wait;
  uint8_t slot, nread, narr;
  bool route_asked;
} elan4_gather_t;
typedef struct {
  uint8_t slot;
  uint64_t eligible;
} elan4_rpsend_t;
/* Host master port (§3.2, §5.1 rule 5). */
typedef struct {
  bool busy, write;
  uint64_t addr, data;
  uint8_t len, tag;
} elan4_hm_t;

/* An event FIFO request (§6.7): a set or a prime, by address or by VA. */
typedef struct {
  bool prime, va_given; /* va_given: a VA with its ctx (CP, DMA); else a translated local address (IP) */
  uint16_t ctx;
  uint64_t addr; /* VA or local byte address */
  uint32_t inc;
  uint64_t e0, p0, p1; /* prime */
} elan4_epreq_t;
/* The event processor's job. */
typedef struct {
  bool busy, wait;
  uint8_t step;
  elan4_epreq_t r;
  uint64_t ev; /* the event's local byte address */
  uint64_t e0, e1, e2, e3, data;
  elan4_xlate_t xs, xd;
  uint16_t i;
} elan4_ep_t;

/* A DMA descriptor in the DMA queue (§4.3 RUN_DMA, §6.8). */
typedef struct {
  uint16_t q, ctx, dest;
  bool e, r;
  uint64_t src, dst, rev, lev;
  uint32_t n; /* dwords */
} elan4_dmad_t;
#define ELAN4_MAX_DMABUF 1024
typedef struct {
  uint32_t o;          /* first dword */
  uint8_t m;           /* dwords */
  bool acked, pending; /* pending: in the DMA's resend list */
  uint32_t tries;
  uint64_t eligible;
} elan4_dmap_t;
/* The DMA engine (§6.8): one DMA at a time. */
typedef struct {
  bool busy, push; /* push: done, the local event set waits to be pushed */
  uint32_t gen;    /* bumped at each start: tokens of an abandoned DMA are ignored */
  elan4_dmad_t d;
  bool route_asked, route_in;
  uint32_t route;
  uint32_t rnext; /* next chunk's first dword */
  bool ck_on, ck_looked, ck_wait, ck_hm;
  uint32_t ck_r, ck_s, ck_nreq;
  elan4_xlate_t xs;
  uint32_t arr;                      /* dwords arrived (in order) */
  uint32_t onext;                    /* first dword of the next packet never sent */
  elan4_dmap_t pk[ELAN4_MAX_DMABUF]; /* packets sent, by sending order from pk_head */
  uint32_t pk_head, npk;             /* ring: the oldest not-acked packet first */
  uint64_t buf[ELAN4_MAX_DMABUF];
  bool discard_tag[16]; /* host reads of a failed DMA: data discarded */
} elan4_dma_t;

/* Registered outputs, decided in cycle t, on the ports in t+1. */
typedef struct {
  bool ht_rvalid;
  uint64_t ht_rdata;
  uint8_t ht_rtag;
  bool lm_valid, lm_write;
  uint32_t lm_addr;
  uint64_t lm_wdata;
  bool out_valid;
  uint8_t out_kind, out_vc;
  uint32_t out_data;
  uint8_t out_credit;
  bool irq_valid;
  uint8_t irq_cause;
  uint16_t irq_info;
  uint64_t irq_data;
  uint32_t cnt_shown[ELAN4_NCNT];
  bool tr_cmd, tr_form, tr_fire;
  uint16_t tr_cmd_q, tr_form_q;
  uint32_t tr_fire_addr;
} elan4_reg_t;

/* The whole state: every register of the NIC. */
typedef struct {
  uint64_t cyc; /* cycles since reset (the model's clock for eligibility and timeouts) */
  elan4_reg_t r;
  elan4_slot_t slot[ELAN4_MAX_CQ];
  uint8_t cp_rr, refill_rr, drain_rr, victim_rr;
  elan4_pio_t pio;
  elan4_arr_t arr;
  elan4_lmr_t lmr[ELAN4_LMQ];
  elan4_sten_t st;
  elan4_resend_t resend[ELAN4_MAX_RESEND];
  uint8_t n_resend;
  elan4_outst_t outst[ELAN4_MAX_VCS][ELAN4_MAX_OUTST];
  uint8_t n_outst[ELAN4_MAX_VCS];
  uint64_t last_leave[ELAN4_MAX_VCS]; /* the cycle the previous oldest left v's list */
  uint8_t credits[ELAN4_MAX_VCS];
  elan4_txp_t txp;
  uint8_t tok_vc[ELAN4_MAX_VCS * 2], tok_ack[ELAN4_MAX_VCS * 2]; /* token queue, oldest first */
  uint8_t n_tok;
  elan4_rxp_t rx[ELAN4_MAX_VCS];
  uint8_t ipq[ELAN4_MAX_VCS]; /* FULL packets in TAIL order (VC numbers) */
  uint8_t n_ipq;
  /* event FIFO (§6.7) and the event processor; the DMA queue and engine (§6.8) */
  elan4_epreq_t epf[ELAN4_MAX_EPFIFO];
  uint8_t n_epf;
  elan4_ep_t ep;
  uint8_t n_dmaq;
  elan4_dmad_t dmaq[ELAN4_MAX_DMAQ];
  elan4_dma_t dma;
  uint8_t tlb_repl; /* MMU replacement pointer */
  elan4_tlbe_t tlb[ELAN4_MAX_TLB];
  elan4_fill_t fill;
  elan4_ip_t ip;
  elan4_rslot_t rs[16];
  uint8_t rp_order[16], n_rp_order; /* reserved slots not yet gathered, in reservation order */
  elan4_gather_t gat;
  elan4_rpsend_t rp_send[16];
  uint8_t n_rp_send;
  elan4_hm_t hm;
  bool tag_busy[16];
  uint8_t tag_len[16], tag_got[16], tag_owner[16];
  elan4_irq_t irq[ELAN4_MAX_IRQ];
  uint8_t irq_head, n_irq;
  uint32_t cnt[ELAN4_NCNT];
} elan4_state_t;

/* s: the registers; nx: the next state eval builds; commit swaps them. An
   elan4_t is not copied by value (the pointers name its own buffers).
   The large arrays that few cycles write are copied into nx only when the
   other buffer's copy is stale: bit k is slot k's have/ibuf/head. */
#define ELAN4_DIRTY_TLB    (1ull << 32)
#define ELAN4_DIRTY_RS     (1ull << 33)
#define ELAN4_DIRTY_IRQ    (1ull << 34)
#define ELAN4_DIRTY_DMABUF (1ull << 35)
typedef struct {
  elan4_cfg_t cfg;
  elan4_state_t *s, *nx;
  uint64_t stale; /* ELAN4_DIRTY_* regions where *nx is not yet a copy of *s (elan4.c) */
  elan4_state_t buf[2];
} elan4_t;

/* Checks every parameter's legal range (§2); 0, or -EINVAL after a message on
   stderr naming the field. */
int elan4_init(elan4_t *m, const elan4_cfg_t *cfg);
void elan4_reset(elan4_t *m);
void elan4_eval(elan4_t *m, const elan4_in_t *in, elan4_out_t *out);
void elan4_commit(elan4_t *m);
void elan4_free(elan4_t *m);

#ifdef __cplusplus
}
#endif
#endif
