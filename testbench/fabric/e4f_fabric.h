/* elite4 fabric: switch instances (C model or Verilated RTL, each through
 * the elite4_p8 target's ops), NICs, links, and the fabric cycle.
 *
 * One fabric cycle c:
 *   1. traffic: each node may queue a packet (injection window only);
 *   2. every switch's inputs are what its neighbours sent in c - D;
 *   3. every NIC reads what its leaf switch sent in c - D and sends;
 *   4. every switch evaluates (model: eval; RTL: step = settle + edge);
 *   5. every model commits (its clock edge);
 *   6. observers: per-hop records (arrival, grant, departure), switch
 *      errors, flits on tied-off ports, the output digest, counters.
 * Switch outputs are registers, so the order of instances within a step
 * does not matter, and an RTL instance may take its edge in step 4.
 *
 * A run injects for cfg.cycles cycles, then drains: it ends when every
 * packet's token is back at its source, or fails (deadlock) when the drain
 * takes longer than cfg.drain_max or nothing reaches any NIC for
 * cfg.watchdog cycles while packets are outstanding. */
#ifndef E4F_FABRIC_H
#define E4F_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "bind/elite4.h"
#include "e4f_link.h"
#include "e4f_nic.h"
#include "e4f_records.h"
#include "e4f_score.h"
#include "e4f_topo.h"
#include "e4f_traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Planted fabric bugs (negative tests), bit k = e4f_fab_bug_names[k + 1]. */
enum { E4F_BUG_ROUTE_WRONG_PORT = 1u << 0, E4F_BUG_NIC_NO_TOKEN = 1u << 1 };
extern const char *const e4f_fab_bug_names[]; /* NULL-terminated, [0] = "none" */

typedef struct {
  unsigned nodes;
  e4f_pattern_t pattern;
  double load;    /* offered flits / node / cycle */
  unsigned nbody; /* body words per packet: HEAD + nbody + TAIL flits */
  e4f_vc_policy_t policy;
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
  uint8_t rtl[E4F_MAX_SW]; /* 1: switch s is the Verilated RTL */
  unsigned model_bug;      /* elite4 planted bug in the model instances */
  unsigned fab_bug;        /* E4F_BUG_* */
  const char *trace_dir;   /* FST per RTL instance (sw<s>.fst), NULL: none */
} e4f_cfg_t;

void e4f_cfg_default(e4f_cfg_t *c);

/* Per (switch, port, VC): the packet whose HEAD is at that input / output. */
typedef struct {
  uint32_t arr, grant;
  int64_t id; /* packet id; -2: HEAD seen, id not yet (its first BODY carries it); -1: none */
  uint8_t hop;
} e4f_islot_t;
typedef struct {
  uint32_t dep;
  bool pending; /* HEAD left, id not seen yet */
} e4f_oslot_t;

/* Counter snapshot: [switch * 8 + port] */
typedef struct {
  uint32_t *xmit_flits, *rcv_flits, *xmit_wait, *xmit_pkts;
  uint64_t *nic_tx; /* [node] */
  uint64_t cycle;
} e4f_counters_t;

typedef struct {
  e4f_cfg_t cfg;
  e4f_topo_t topo;
  const cosim_target_t *tgt;
  void *inst[E4F_MAX_SW];
  elite4_p8_in_t *in;
  elite4_p8_out_t *out;
  e4f_lines_t to_sw;  /* [switch * 8 + port]: what arrives at that input */
  e4f_lines_t to_nic; /* [node] */
  e4f_nic_t *nic;
  cosim_rng_t *gen; /* [node]: traffic streams */
  e4f_traffic_t traffic;
  e4f_nic_env_t env;
  e4f_records_t rec;
  e4f_score_t sb;
  e4f_islot_t *islot;
  e4f_oslot_t *oslot;
  e4f_counters_t cnt[2]; /* at the window's start and end */
  uint64_t cycle;        /* the next cycle to run */
  uint64_t cycle_digest, digest;
  bool finished;        /* drained (or failed) */
  uint64_t busy_cycles; /* cycles with traffic in flight (a packet's token not back) */
  double wall_s;
} e4f_fabric_t;

/* 0, or -1 with a message in err. */
int e4f_fabric_init(e4f_fabric_t *f, const e4f_cfg_t *cfg, char *err, size_t errlen);
void e4f_fabric_free(e4f_fabric_t *f);
/* One fabric cycle. */
void e4f_fabric_step(e4f_fabric_t *f);
/* After a step: true when the run is over (drained, or a failure is recorded). */
bool e4f_fabric_done(e4f_fabric_t *f);
/* Steps until done. */
void e4f_fabric_run(e4f_fabric_t *f);
/* The first output field of switch s that differs between two fabrics' last
 * cycle: writes "switch S port FIELD: a 0x.. b 0x.." into buf; false if equal. */
bool e4f_fabric_diff(const e4f_fabric_t *a, const e4f_fabric_t *b, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
