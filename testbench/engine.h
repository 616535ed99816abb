/* The lockstep engine: runs one test on a target in one of four modes. */
#ifndef NETCOSIM_ENGINE_H
#define NETCOSIM_ENGINE_H

#include "cosim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MODE_LOCKSTEP, /* C model and Verilated RTL, outputs compared every cycle */
  MODE_NETLIST,  /* C model and the Verilated yosys netlist: gate-level lockstep */
  MODE_MODEL,    /* C model alone (fast) */
  MODE_RTL,      /* Verilated RTL alone */
  MODE_STIMULUS, /* the test's stimulus alone: the baseline `make bench` subtracts */
} sim_mode_t;

typedef struct {
  const cosim_test_t *test;
  const char *name;       /* regression name for the rerun line (default: test name) */
  const char *rerun;      /* the rerun command when not run through the testlist */
  const char *rerun_vars; /* make variables besides T and SEED that made this run ("MODE=model BUG=x") */
  uint64_t seed;
  uint64_t cycles;
  sim_mode_t mode;
  unsigned bug; /* planted model bug, 0 = none */
  const char *bug_name;
  const char *trace_path;  /* NULL: trace only when a mismatch needs a waveform */
  const char *out_dir;     /* where waves and view files go */
  const char *expect_what; /* expected failure: output port, check:<id> or assert:<label>; NULL = none */
  uint64_t expect_cycle;
  unsigned history;     /* input vectors shown on a mismatch */
  unsigned wave_window; /* cycles of waveform before a divergence */
  bool no_check;        /* skip the test's scoreboard (benchmarks measure the simulators) */
} sim_opts_t;

/* Runs the test; prints the report and the final TEST PASSED / TEST FAILED
 * line. Returns 0 on pass. */
int sim_run(const sim_opts_t *o);

const char *sim_mode_name(sim_mode_t m);

#ifdef __cplusplus
}
#endif
#endif
