/* The core's parts, for the modules that run them (fabric.c: threads;
 * fabric_mpi.c: processes). Not for drivers: see fabric.h. */
#ifndef NETCOSIM_FABRIC_PAR_H
#define NETCOSIM_FABRIC_PAR_H

#include <pthread.h>

#include "fabric.h"

/* A part: its instances and the links into them, and what it found in the
 * window (evaluations, digest items, its first failure). Parts write only
 * their own instances, their own slots of links (a link's slot of cycle c is
 * written by the sender's part and read by the receiver's part L cycles
 * later, in a later window) and these fields. */
typedef struct {
  uint32_t *inst, ninst;
  uint32_t *link, nlink; /* links whose receiver is in the part */
  uint8_t *cut;          /* [nlink]: its sender is in another part */
  uint64_t evals;
  uint64_t *dg; /* digest items: cycle, instance, n, then n words fed to mix() */
  size_t ndg, cap_dg;
  bool oom;
  bool failed;
  uint64_t fail_cycle;
  char fail_msg[256], fail_check[48];
  pthread_t th;
  bool started;
  fabric_par_t *par;
  double cpu_s; /* par_timing: thread CPU time of the part's last window */
  bool sample;  /* time every eval (x->cost_ns) for the second cut */
} fabric_part_t;

struct fabric_par {
  fabric_t *f;
  fabric_part_t *part;
  unsigned n;
  uint64_t c0, c1; /* the window */
  unsigned go;     /* generation: bumped by the caller to start a window (or quit) */
  unsigned done;   /* parts 1.. finished in the current generation */
  unsigned *claim; /* [n]: the last generation whose window part q was taken for */
  bool quit;
  uint32_t ninst, nlink; /* the fabric when it was partitioned */
  bool rebalanced;
};

/* Split f into `parts` parts (docs/fabric.md "Parallel": serial and RTL
 * instances in part 0, the others in contiguous ranges balanced by ports),
 * without threads and without the second cut by eval times (a distributed
 * run: the ranks' timings differ, so would their cuts). 0, or -1 with err. */
int fabric_par_split(fabric_t *f, unsigned parts, char *err, size_t errlen);
/* Cycles c0 .. c1 - 1 of part pt (digest items into pt unless inline_dg);
 * stops after a failing cycle. Returns the cycle after the last one run. */
uint64_t fabric_part_run(fabric_t *f, fabric_part_t *pt, uint64_t c0, uint64_t c1, bool inline_dg);
/* The parts' digest items of cycles c0 .. end - 1 into f, in one part's order. */
void fabric_par_merge(fabric_t *f, fabric_par_t *par, uint64_t c0, uint64_t end);
/* A part's failure into f's (the earliest cycle, then the lowest instance). */
void fabric_par_failure(fabric_t *f, const fabric_part_t *pt);
bool fabric_inst_quiet(const fabric_inst_t *x);
uint64_t fabric_inst_wake(fabric_inst_t *x, uint64_t now);
/* Every instance idle until cycle `to` (> f->cycle): their outputs idle, the
 * cycles counted as jumped, f->cycle = to (fabric_step and the MPI step). */
void fabric_jump_idle(fabric_t *f, uint64_t to);
/* The end of a window the parts ran (cycles c .. end - 1); check names a
 * failure to hold the parts' digest items (fabric.threads, fabric.mpi). */
void fabric_par_end_window(fabric_t *f, fabric_par_t *par, uint64_t c, uint64_t end, const char *check);

#endif
