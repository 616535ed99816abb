/* The host of one elan4 node (issue 11 item 4, docs/elan4fab.md "Host"):
 * a program's commands become PIO writes into the NIC's queue pages
 * (docs/elan4.md §4.1, §4.3, §6.1), presented on ht_* in order until
 * accepted, never more than the queue's depth ahead of its free position
 * fp (read from the status word, §4.2, when the host's copy says the queue
 * is full); the NIC's host-master requests (hm_*) are taken at once, a
 * read's dwords returned in order from `read_lat` cycles after it was taken
 * (seed 004: a PCI-X master read is about 750 ns), writes applied to host
 * memory when taken; interrupt records are logged with their cycle.
 *
 * The command encoding is built here from docs/elan4.md §4.3, never from
 * the model's code. */
#ifndef EF_HOST_H
#define EF_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "ef_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { EF_NQ = 4 }; /* queues a host drives (ids 0..3) */
#define EF_NEVER UINT64_MAX

/* What the node's NIC shows the host in one cycle, and what the host drives. */
typedef struct {
  bool valid, write;
  uint32_t addr;
  uint64_t data;
  uint8_t tag, be;
} ef_ht_req_t;

typedef struct {
  uint32_t addr;
  uint64_t data;
  uint64_t pos; /* a queue-page write: its position in the queue's stream */
  uint8_t write, q;
  uint8_t be_off; /* byte enables 0xFF ^ be_off (0: every byte) */
  int32_t op;     /* the op whose first dword this is, else -1 */
} ef_pio_t;

typedef struct {
  uint64_t due, addr; /* first dword's cycle, byte address */
  uint8_t len, tag, i;
} ef_hread_t;

typedef struct {
  uint64_t cycle;
  uint8_t cause;
  uint16_t info;
  uint64_t data;
} ef_irq_t;

typedef struct {
  uint64_t queued; /* cycle the program issued it */
  uint64_t accept; /* its first dword accepted on ht_* (EF_NEVER: not yet) */
  uint8_t op, q;   /* docs/elan4.md §4.3 opcode, queue */
} ef_op_t;

typedef struct {
  unsigned node;
  unsigned read_lat;             /* host read latency in cycles (>= 1) */
  unsigned reorder;              /* > 1: queue-page writes presented out of order within this window */
  uint64_t rng;                  /* the reordering choices (xorshift, seeded per node) */
  uint32_t depth_dw[EF_NQ];      /* the queue's ring (0: not opened) */
  uint64_t wp[EF_NQ], fp[EF_NQ]; /* positions the host has written / knows free, full width */
  bool fp_wait[EF_NQ];           /* a status read is out */
  /* commands not yet released into the PIO stream (no room), in order */
  ef_pio_t *back;
  unsigned back_h, back_n, back_cap;
  /* the PIO stream, presented on ht_* in order */
  ef_pio_t *pio;
  unsigned pio_h, pio_n, pio_cap;
  uint8_t next_tag;
  int8_t tag_q[256];             /* a read tag's queue (status read), -1: a program's read */
  uint64_t status[EF_NQ];        /* the last status word read (§4.2) */
  unsigned status_n[EF_NQ];      /* status words read */
  unsigned status_issued[EF_NQ]; /* status reads issued (answered in order) */
  ef_mem_t mem;                  /* host memory */
  ef_hread_t rd[16];             /* host reads taken, answered in order */
  unsigned rd_h, rd_n;
  unsigned rd_cap; /* reads the host holds at once: 16 (HostReadTags' bound) */
  bool no_alloc;   /* planted bug host_no_alloc: every growth fails */
  ef_irq_t *irq;
  unsigned nirq, cap_irq;
  ef_op_t *op;
  unsigned nop, cap_op;
  uint64_t pio_accepted, hm_reads, hm_writes;
  uint64_t pio_ooo;        /* queue-page writes accepted after a higher position of their queue */
  uint64_t top_pos[EF_NQ]; /* the highest position accepted + 1, per queue */
  int oom;                 /* an allocation failed: the run reports it */
  unsigned rd_over;        /* reads taken beyond rd_cap (dropped): the run reports it */
} ef_host_t;

void ef_host_init(ef_host_t *h, unsigned node, unsigned read_lat);
/* PIO writes to a queue page leave the host in any order within a window of
 * `window` dwords (the seed's relaxed-order PCI-X bursts; docs/elan4.md §6.1
 * reassembles them): window <= the NIC's OooWindow, 0 or 1 in order. */
void ef_host_reorder(ef_host_t *h, unsigned window, uint64_t seed);
void ef_host_free(ef_host_t *h);

/* --- the program's side (the C API a workload is written against) --- */
/* Open queue q: CQCTL(q) = base, depth class, context, every command class
 * enabled (§4.2); depth_dw: the class's ring size in dwords. */
void ef_open(ef_host_t *h, unsigned q, uint32_t base, unsigned cls, uint32_t depth_dw, unsigned ctx,
             uint64_t now);
/* Each returns the op's index (its stamps: h->op[i]). n: data dwords 1..8. */
int ef_put(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, const uint64_t *data, unsigned n,
           uint64_t event_va, uint64_t now);
int ef_get(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, unsigned n, uint64_t reply_va,
           uint64_t event_va, uint64_t now);
int ef_fadd(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, uint64_t addend, uint64_t reply_va,
            uint64_t event_va, uint64_t now);
int ef_cas(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, uint64_t cmp, uint64_t swap,
           uint64_t reply_va, uint64_t event_va, uint64_t now);
/* SETEVENT: remote (on dest) when remote, else local */
int ef_setevent(ef_host_t *h, unsigned q, bool remote, unsigned dest, uint64_t event_va, uint32_t inc,
                uint64_t now);
/* WAITEVENT: re-prime a local event (§6.7): e0, param0, param1 */
int ef_waitevent(ef_host_t *h, unsigned q, uint64_t event_va, uint64_t e0, uint64_t p0, uint64_t p1,
                 uint64_t now);
int ef_guard(ef_host_t *h, unsigned q, uint64_t now);
int ef_interrupt(ef_host_t *h, unsigned q, uint32_t cookie, uint64_t now);
/* RUN_DMA (§4.3, §6.8): bytes (a non-zero multiple of 8) from local VA
 * src_va (host or local memory) to dst_va on dest; events 0: none. */
int ef_dma(ef_host_t *h, unsigned q, unsigned dest, uint64_t src_va, uint64_t dst_va, uint32_t bytes,
           uint64_t remote_ev, uint64_t local_ev, uint64_t now);
/* An event's e0 (§4.4): count, COPY length, type (0 COPY, 1 WRITE, 2 INTERRUPT). */
static inline uint64_t ef_e0(int32_t count, unsigned len, unsigned type) {
  return (uint64_t)(uint32_t)count | (uint64_t)len << 32 | (uint64_t)type << 41;
}
/* The first interrupt record at index >= from with this cause and data:
 * its index, or -1. */
int ef_irq_find(const ef_host_t *h, unsigned from, unsigned cause, uint64_t data);
/* Nothing waiting to be written and no host read being answered. */
bool ef_host_idle(const ef_host_t *h);

/* --- for tests of malformed input (docs/elan4fab.md "Isolation") --- */
/* CQCTL(q) = value as given (any bits); the host's copy of the queue restarts */
void ef_cqctl(ef_host_t *h, unsigned q, uint64_t value, uint32_t depth_dw);
/* n dwords as one command, whatever they say (flow control as ef_put) */
int ef_raw(ef_host_t *h, unsigned q, const uint64_t *dw, unsigned n, uint64_t now);
/* one write of `data` at position wp + ahead of queue q (wp not advanced),
   byte enables be */
void ef_raw_at(ef_host_t *h, unsigned q, unsigned ahead, uint64_t data, uint8_t be);
/* a read of queue q's status word (§4.2): its answer lands in status[q],
   status_n[q] counts the answers */
void ef_status(ef_host_t *h, unsigned q);

/* --- the NIC's side, once per cycle (ef_node.c) --- */
/* The request to present in `cycle` (releases commands that now have room). */
void ef_host_drive(ef_host_t *h, ef_ht_req_t *req);
/* After the NIC's outputs of `cycle` are known: ht_ready (the request was
 * accepted), a read answer, an interrupt record. */
void ef_host_ht_result(ef_host_t *h, uint64_t cycle, bool ready, bool rvalid, uint8_t rtag, uint64_t rdata);
void ef_host_irq(ef_host_t *h, uint64_t cycle, uint8_t cause, uint16_t info, uint64_t data);
/* hm_*: the read data due in `cycle` (true, *tag, *data) */
bool ef_host_hm_answer(ef_host_t *h, uint64_t cycle, uint8_t *tag, uint64_t *data);
/* hm_*: a request shown in `cycle` is taken (hm_ready_i is always 1) */
void ef_host_hm_take(ef_host_t *h, uint64_t cycle, bool write, uint64_t addr, uint64_t data, uint8_t len,
                     uint8_t tag);

#ifdef __cplusplus
}
#endif
#endif
