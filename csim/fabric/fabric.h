/* The generic fabric core: block instances wired by typed links, one cycle
 * at a time, with idle instances and idle time skipped exactly.
 * No block names here (docs/fabric.md): a block enters through an instance
 * type (fabric_type_t), whose model and RTL implementations are written in
 * testbench/bind/.
 *
 * One fabric cycle c:
 *   1. every link delivers what was sent into it in c - L (L its latency)
 *      to its receiver's input port;
 *   2. every instance that is not skippable evaluates (inputs -> outputs
 *      of cycle c and its next state); in lockstep the model and the RTL
 *      both evaluate on the same inputs and their outputs are compared;
 *   3. every output port's flit enters its link; every evaluated instance
 *      commits (its clock edge);
 *   4. the cycle's observer runs (records, digest, checks in testbench/).
 * Outputs of every instance are registers (links have at least one cycle),
 * so the order of instances inside a step does not matter.
 *
 * Skipping (the fast path; fabric_t.no_skip turns it off): an instance is
 * skipped in cycle c when its implementation says it is quiet (nothing
 * inside: with idle inputs, eval gives idle outputs and leaves the state
 * unchanged), nothing arrives on any of its inputs in c, and its own wake-up
 * time (an endpoint's next injection) is later than c. When every instance
 * is quiet and every link empty, the fabric jumps to the earliest wake-up.
 * A run with skipping equals the run without it as long as every quiet()
 * tells the truth; fabric_digest_* and the per-packet records of
 * testbench/ let a test compare both paths.
 *
 * Parallel (fabric_threads(), docs/fabric.md "Parallel"): the instances are
 * split into parts whose only shared state is links; each part runs on its
 * own thread (part 0 on the caller's), delivering into and evaluating its
 * own instances. Every link is a ring of at least 2L + 1 slots, so a slot read in a
 * window was written before the window's start as long as the window is no
 * longer than the shortest link between parts (the lookahead). The parts
 * synchronise once per window: one cycle when an observer is installed (it
 * reads every instance's ports of every cycle), else the lookahead. The
 * per-cycle digest, counters and failures are merged in instance order, so
 * every output equals the one-thread run's. The same parts run on MPI
 * processes, one per rank (fabric_mpi.h, MPI builds only). */
#ifndef NETCOSIM_FABRIC_H
#define NETCOSIM_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FABRIC_MAX_VCS     8u
#define FABRIC_MAX_LATENCY 4096u
#define FABRIC_NONE        UINT32_MAX
#define FABRIC_NEVER       UINT64_MAX
/* Nominal clock and cable delay (docs/architecture.md "Time and clocks"). */
#define FABRIC_NOMINAL_MHZ 250.0
#define FABRIC_NS_PER_M    4.0

/* One direction of a link in one cycle: at most one flit, plus credit
 * returns (bit v: one credit for VC v) for flits that travelled the other way. */
typedef struct {
  uint8_t valid, kind, vc, credit;
  uint64_t data;
} fabric_flit_t;

static inline bool fabric_flit_idle(const fabric_flit_t *f) { return !f->valid && !f->credit; }

/* What a port carries; links join only ports of the same kind. */
typedef struct {
  const char *name; /* e.g. the flit format's name */
  unsigned data_bits, kind_bits, vcs;
} fabric_port_kind_t;

typedef enum { FABRIC_MODEL = 0, FABRIC_RTL = 1, FABRIC_LOCKSTEP = 2 } fabric_mode_t;
extern const char *const fabric_mode_names[3];

/* One implementation (the C model or the Verilated RTL) of an instance type.
 * Every function except create, destroy and eval may be NULL. */
typedef struct {
  /* params: the type's own parameter struct (may be NULL); 0 / -1 with err */
  void *(*create)(const void *params, unsigned index, char *err, size_t errlen);
  void (*destroy)(void *inst);
  /* in[nports] -> out[nports] (cleared by the core) and side[nside] (cleared)
   * for cycle `cycle`; computes the next state, commit applies it. An RTL
   * implementation may take its clock edge here and leave commit NULL. */
  void (*eval)(void *inst, uint64_t cycle, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side);
  void (*commit)(void *inst);
  /* Nothing inside: with idle inputs, eval would give idle outputs, zero
   * side outputs and leave the state unchanged. NULL: never quiet. */
  bool (*quiet)(const void *inst);
  /* Earliest cycle >= now at which the instance acts without input (an
   * endpoint's next packet); FABRIC_NEVER if none. NULL: never. */
  uint64_t (*wake)(void *inst, uint64_t now);
  /* Counter `id` of port `port`, read on demand, as the instance's outputs
   * showed it in cycle `last` (the last cycle the fabric ran; an instance
   * skipped since its last eval shows its registers): 0, or -1 if none. */
  int (*counter)(const void *inst, uint64_t last, unsigned port, unsigned id, uint64_t *val);
  /* Configuration channel (e.g. a forwarding table entry): 0, or -1 with err. */
  int (*config)(void *inst, const char *key, uint64_t index, uint64_t value, char *err, size_t errlen);
  /* Start a waveform of this instance into path (RTL): 0, or -1 with err. */
  int (*trace)(void *inst, const char *path, char *err, size_t errlen);
  /* An internal check of the implementation failed in the cycle just
   * evaluated (an RTL assertion): its label, else NULL. The run fails with
   * check "assert:<label>" (before a lockstep comparison of that cycle). */
  const char *(*failed)(const void *inst);
} fabric_impl_t;

/* An instance type: ports, side outputs (per-cycle events such as error
 * pulses, zero when nothing happens; compared in lockstep), counters. */
typedef struct {
  const char *name;
  unsigned nports;
  const fabric_port_kind_t *const *port; /* [nports] */
  unsigned nside;
  const char *const *side_name; /* [nside] */
  unsigned ncounters;
  const char *const *counter_name;  /* [ncounters] */
  const fabric_impl_t *model, *rtl; /* either may be NULL (not available) */
} fabric_type_t;

typedef struct {
  const fabric_type_t *type;
  fabric_mode_t mode;
  char name[32];
  void *m, *r;                     /* model / RTL instance (by mode) */
  fabric_flit_t *in, *out, *out_r; /* [nports]; out_r: lockstep RTL outputs */
  uint64_t *side, *side_r;         /* [nside] */
  uint32_t *link_in, *link_out;    /* [nports]: link index or FABRIC_NONE */
  uint64_t next_wake;              /* cached wake-up time */
  uint32_t arrivals;               /* flits/credits delivered this cycle (in[] cleared next cycle) */
  bool ran;                        /* evaluated in the current cycle */
  uint64_t evals;                  /* cycles evaluated (statistics) */
  /* set by the driver before fabric_threads(): eval touches state shared with
   * other instances (a driver's tables), so it runs on the calling thread (part 0) */
  bool serial;
  uint16_t part;    /* the part (thread) that evaluates it */
  uint64_t cost_ns; /* threads: eval time while the core samples it (the second cut) */
} fabric_inst_t;

/* One direction of a link: a ring of 2 * latency + 1 slots rounded up to a
 * power of two (the slot of cycle c is c % ring; see "Parallel" above). */
typedef struct {
  uint32_t src, src_port, dst, dst_port;
  unsigned latency, ring;
  fabric_flit_t *slot; /* [ring] */
  uint32_t sent;       /* non-idle slots written (by the sender's part) */
  uint32_t taken;      /* ... and delivered (by the receiver's part): busy while they differ */
  uint64_t flits;      /* valid flits carried */
} fabric_link_t;

typedef struct fabric_par fabric_par_t; /* the threads and their parts (fabric.c) */
/* Planted bugs of the parallel path (negative tests of the identity checks
 * fabric.threads and fabric.mpi): a part reads its cut links (links from
 * another part) one cycle late, as a part that does not wait for the
 * other's writes would; (processes, fabric_mpi.c) the first non-idle flit a
 * rank sends another is lost in the exchange. */
enum { FABRIC_PBUG_NONE = 0, FABRIC_PBUG_CUT_LATE = 1, FABRIC_PBUG_MPI_DROP = 2 };

typedef struct fabric fabric_t;
/* Called after every evaluated cycle (step 4). */
typedef void (*fabric_observer_fn)(fabric_t *f, void *ctx);

/* A distributed run (fabric_mpi.h, docs/fabric.md "Parallel"): this
 * process evaluates part `part`; fabric_step, fabric_counter of another
 * part's instance and fabric_free go through these. */
typedef struct {
  void (*step)(fabric_t *f, uint64_t limit);
  int (*counter)(const fabric_t *f, uint32_t inst, unsigned port, unsigned id, uint64_t *val);
  void (*free)(fabric_t *f);
  unsigned part;
  void *ctx;
} fabric_dist_t;

struct fabric {
  fabric_inst_t *inst;
  uint32_t ninst, cap_inst;
  fabric_link_t *link;
  uint32_t nlink, cap_link;
  uint64_t cycle; /* the next cycle to run */
  bool no_skip;   /* the straightforward path: evaluate everything every cycle */
  bool digest_on; /* keep the per-cycle digest trace */
  /* first lockstep divergence (or other failure): message and cycle */
  bool failed;
  uint64_t fail_cycle;
  char fail_msg[256];
  char fail_check[48];
  /* output digest: hash of every non-idle output flit and non-zero side
   * output (cycle, instance, port, value); one entry per cycle that had any */
  uint64_t digest;
  uint64_t *dg_cycle, *dg_value;
  size_t ndg, cap_dg;
  /* statistics */
  uint64_t cycles_run, cycles_jumped, evals;
  fabric_observer_fn observer;
  void *observer_ctx;
  /* parallel (fabric_threads): parts, the lookahead (cycles; FABRIC_NEVER
   * when no link crosses parts), cut links, synchronisations */
  unsigned parts;
  uint64_t lookahead;
  uint32_t cut_links;
  uint64_t syncs;
  unsigned par_bug; /* FABRIC_PBUG_* */
  fabric_par_t *par;
  /* par_timing (a benchmark's): thread CPU seconds, summed over windows, of
   * the slowest part (the critical path on idle cores), of the parts the
   * caller ran, and of the caller waiting for the others */
  bool par_timing;
  double par_crit_s, par_caller_s, par_wait_s, par_work_s; /* work: every part */
  fabric_dist_t *dist;                                     /* a distributed run, else NULL */
  /* distributed, rank 0's wall seconds: in the broadcast and exchange of every
   * window (messages and waiting for the slowest part), and that less the
   * time the slowest part's work outlasted part 0's (an estimate of the messages' cost) */
  double sync_s, sync_msg_s;
};

void fabric_init(fabric_t *f);
void fabric_free(fabric_t *f);
/* Add an instance: its index, or FABRIC_NONE with err (no such implementation, create failed). */
uint32_t fabric_add(fabric_t *f, const fabric_type_t *type, fabric_mode_t mode, const char *name,
                    const void *params, char *err, size_t errlen);
/* Both directions between (a, pa) and (b, pb), latency cycles each: 0, or -1 with err
 * (kinds differ, port out of range or already wired, latency 0 or above FABRIC_MAX_LATENCY). */
int fabric_connect(fabric_t *f, uint32_t a, unsigned pa, uint32_t b, unsigned pb, unsigned latency, char *err,
                   size_t errlen);
/* Cycles for a link: `reg` register stages plus a cable of `metres` at FABRIC_NS_PER_M
 * at clock `mhz` (rounded up; our choice, docs/fabric.md). */
unsigned fabric_link_cycles(unsigned reg, double metres, double mhz);

/* Run on `threads` parts (1: the calling thread only), after every instance
 * and link is added: the partition (docs/fabric.md "Parallel": contiguous
 * ranges of instances balanced by ports; serial and RTL instances in part 0)
 * and the threads. 0, or -1 with err (threads 0 or above 64, no threads). */
int fabric_threads(fabric_t *f, unsigned threads, char *err, size_t errlen);

/* One cycle (or, when everything is quiet, a jump to the next wake-up, never
 * past `limit`); threaded without an observer, up to one lookahead window. */
void fabric_step(fabric_t *f, uint64_t limit);
/* Steps until cycle `until` (exclusive) or a failure. */
void fabric_run(fabric_t *f, uint64_t until);
/* True when no instance holds anything and no link carries anything. */
bool fabric_idle(fabric_t *f);

/* As the outputs showed it in the last cycle run (f->cycle - 1). */
int fabric_counter(const fabric_t *f, uint32_t inst, unsigned port, unsigned id, uint64_t *val);
/* Configuration to both implementations of a lockstep instance. */
int fabric_config(fabric_t *f, uint32_t inst, const char *key, uint64_t index, uint64_t value, char *err,
                  size_t errlen);
/* An FST per RTL (or lockstep) instance with a trace op, dir/<name>.fst:
 * the number started, or -1 with err. */
int fabric_trace(fabric_t *f, const char *dir, char *err, size_t errlen);
/* Instance index by name, FABRIC_NONE if none. */
uint32_t fabric_find(const fabric_t *f, const char *name);

/* The first cycle at which two runs' digest traces differ: true and *cycle set,
 * false when identical. */
bool fabric_digest_diff(const fabric_t *a, const fabric_t *b, uint64_t *cycle);

#ifdef __cplusplus
}
#endif
#endif
