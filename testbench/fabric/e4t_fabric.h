/* elite4 fabric on the generic fabric core (csim/fabric/, docs/fabric.md):
 * the switches are instances of type elite4_p8 (testbench/bind/fabric_elite4.c,
 * C model, Verilated RTL or both in lockstep per switch), the NICs endpoint
 * instances around e4t_nic.c, wired by the core's k-ary n-tree builder.
 *
 * One fabric cycle c (the core's, docs/fabric.md "The scheduler"):
 *   1. every link delivers what was sent into it in c - D;
 *   2. every NIC with a packet due in c queues it (injection window only),
 *      reads what its leaf switch sent and sends;
 *   3. every switch evaluates (idle ones are skipped: their eval would change
 *      nothing); models commit (their clock edge);
 *   4. observers: per-hop records (arrival, grant, departure), switch
 *      errors, flits on tied-off ports, counters at the window's edges.
 * When nothing holds anything the core jumps to the next packet's cycle.
 *
 * A run injects for cfg.cycles cycles, then drains: it ends when every
 * packet's token is back at its source, or fails (deadlock) when the drain
 * takes longer than cfg.drain_max or nothing reaches any NIC for
 * cfg.watchdog cycles while packets are outstanding. */
#ifndef E4T_FABRIC_H
#define E4T_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "bind/elite4.h"
#include "fabric/fabric.h"
#include "fabric/fabric_topo.h"
#include "e4t_link.h"
#include "e4t_nic.h"
#include "e4t_records.h"
#include "e4t_score.h"
#include "e4t_stats.h"
#include "e4t_topo.h"
#include "e4t_traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Planted fabric bugs (negative tests): E4T_BUG_* in e4t_nic.h, bit k = e4t_fab_bug_names[k + 1]. */
extern const char *const e4t_fab_bug_names[]; /* NULL-terminated, [0] = "none" */

typedef struct {
  unsigned nodes;
  e4t_pattern_t pattern;
  double load;    /* offered flits / node / cycle */
  unsigned nbody; /* body words per packet: HEAD + nbody + TAIL flits */
  e4t_vc_policy_t policy;
  double hot_frac;
  unsigned hot_node;
  unsigned link_delay; /* D */
  uint64_t seed;
  uint64_t cycles; /* injection window */
  uint64_t warmup; /* statistics from this cycle to `cycles` */
  uint64_t drain_max, watchdog;
  unsigned src_queue; /* packets per source queue */
  double nack_rate;
  bool records;            /* per-hop records (arrival, grant, departure) */
  bool digest;             /* per-cycle digest of every switch output */
  uint8_t rtl[E4T_MAX_SW]; /* E4T_SW_MODEL / E4T_SW_RTL / E4T_SW_LOCKSTEP per switch */
  unsigned model_bug;      /* elite4 planted bug in the model instances */
  unsigned fab_bug;        /* E4T_BUG_* */
  unsigned fe4_bug;        /* FE4_BUG_* of the switch's instance type (testbench/bind/fabric_elite4.h) */
  bool no_skip;            /* the core's straightforward path: every instance every cycle */
  bool no_observer;        /* no per-cycle observer (no hops, switch errors, busy cycles): the core's
                            * parallel windows are then the lookahead (docs/fabric.md "Parallel") */
  unsigned threads;        /* the core's parts (threads), 1: one thread (docs/fabric.md "Parallel") */
  bool mpi;                /* the core's parts on the MPI ranks, one each (elite4_fabric_mpi only) */
  unsigned par_bug;        /* FABRIC_PBUG_* planted in the core's parallel path */
  const char *trace_dir;   /* FST per RTL / lockstep instance (sw<s>.fst), NULL: none */
  unsigned trace_only;     /* 0: every RTL / lockstep switch; s + 1: switch s only */
  const char *replay;      /* traffic replay: the trace file (e4t_traffic.h) */
  double burst;            /* bursty: mean packets per burst */
  /* the wiring: NULL = the built-in 4-ary n-tree; else this table (a topology
   * file's, --topo-file; e4t_main.c checks it equals the built-in one) */
  const fabric_topo_t *wiring;
} e4t_cfg_t;

/* How switch s runs (cfg.rtl[s]): the C model, the Verilated RTL, or both in
 * lockstep inside the run (the model drives the links; the first output that
 * differs stops the run with check fabric.lockstep). */
enum { E4T_SW_MODEL = 0, E4T_SW_RTL = 1, E4T_SW_LOCKSTEP = 2 };

void e4t_cfg_default(e4t_cfg_t *c);

/* Per (switch, port, VC): the packet whose HEAD is at that input / output. */
typedef struct {
  uint32_t arr, grant;
  int64_t id; /* packet id; -2: HEAD seen, id not yet (its first BODY carries it); -1: none */
  uint8_t hop;
} e4t_islot_t;
typedef struct {
  uint32_t dep;
  bool pending; /* HEAD left, id not seen yet */
} e4t_oslot_t;

/* The run's per-packet statistics, folded packet by packet (e4t_report.c):
 * with records off each packet is folded when it retires and its record
 * freed, so nothing per packet stays; e4t_result_compute() folds what is
 * still held. */
typedef struct {
  uint64_t created_win, delivered;
  e4t_samples_t lat, net, head; /* window packets: created->TAIL, injected->TAIL, injected->HEAD */
  uint64_t n_by_len[E4T_MAX_HOPS + 1];
  uint32_t min_head[E4T_MAX_HOPS + 1], min_pkt[E4T_MAX_HOPS + 1];
  uint32_t min_hop, min_link, max_link;
  uint64_t hops_seen;
  uint64_t rec_hash; /* FNV-1a over the records, in the order folded */
} e4t_acc_t;

/* Counter snapshot: [switch * 8 + port] */
typedef struct {
  uint32_t *xmit_flits, *rcv_flits, *xmit_wait, *xmit_pkts;
  uint64_t *nic_tx; /* [node] */
  uint64_t cycle;
} e4t_counters_t;

typedef struct {
  e4t_cfg_t cfg;
  e4t_topo_t topo;
  /* the generic fabric core (csim/fabric/): instances 0..nsw-1 the switches
   * (instance type elite4_p8, testbench/bind/fabric_elite4.c), then the NICs */
  fabric_t core;
  void **ep; /* [node]: the NIC endpoints (e4t_fabric.c) */
  e4t_nic_t *nic;
  cosim_rng_t *gen; /* [node]: traffic streams */
  e4t_traffic_t traffic;
  e4t_trace_t trace; /* replay */
  e4t_nic_env_t env;
  e4t_records_t rec;
  e4t_acc_t acc; /* packets retired so far (records off) */
  e4t_score_t sb;
  e4t_islot_t *islot;
  e4t_oslot_t *oslot;
  e4t_counters_t cnt[2]; /* at the window's start and end */
  uint64_t cycle;        /* the next cycle to run */
  uint64_t digest;       /* the core's output digest (every non-idle flit and side output) */
  bool finished;         /* drained (or failed) */
  uint64_t busy_cycles;  /* cycles with traffic in flight (a packet's token not back) */
  double wall_s;
} e4t_fabric_t;

/* The parameters' ranges: 0, or -1 with a message naming the parameter in err. */
int e4t_cfg_check(const e4t_cfg_t *cfg, char *err, size_t errlen);
/* 0, or -1 with a message in err. */
int e4t_fabric_init(e4t_fabric_t *f, const e4t_cfg_t *cfg, char *err, size_t errlen);
void e4t_fabric_free(e4t_fabric_t *f);
/* One fabric cycle (idle instances skipped, never a jump over a cycle). */
void e4t_fabric_step(e4t_fabric_t *f);
/* After a step: true when the run is over (drained, or a failure is recorded). */
bool e4t_fabric_done(e4t_fabric_t *f);
/* Steps until done; whole-fabric idle time is jumped (never over the
 * window's first and last cycles, whose counters are read). */
void e4t_fabric_run(e4t_fabric_t *f);
/* The first switch output (flit or side output) that differs between two
 * fabrics' last cycle: "switch S (model vs RTL) port P: ..." into buf; false if equal. */
bool e4t_fabric_diff(const e4t_fabric_t *a, const e4t_fabric_t *b, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
