/* GTKWave save files for a run: the block's committed layout (waves/<module>.gtkw)
 * with this run's dump, port ranges resolved, and a marker on a failing cycle. */
#ifndef NETCOSIM_WAVES_H
#define NETCOSIM_WAVES_H

#include "cosim.h"

#include "clock.h"

/* Time of cycle c in the dump (ps): inputs change at c*CYCLE, the rising edge is
 * at c*CYCLE + CYCLE/2; outputs are compared in between. */
#define WAVES_CYCLE_PS NETCOSIM_CYCLE_PS
#define WAVES_SAMPLE_PS \
  (NETCOSIM_CYCLE_PS /  \
   4) /* marker: mid-way through the compared phase */ /* marker offset: mid-way through the compared phase */

/* fail_cycle NULL: no marker. fail_port >= 0: the output that differs, shown
 * first in a highlighted "divergence" group with the model's value beside it
 * (model.<port>, present when the dump is a merge_model one). has_model: the
 * dump has the model's outputs under model.*. Returns 0, or -1 after printing why. */
int waves_write_view(const char *view_path, const char *fst_path, const cosim_glue_t *g, const char *test,
                     uint64_t seed, const uint64_t *fail_cycle, int fail_port, bool has_model,
                     const char *why);

/* Writes out_fst: the RTL's dump rtl_fst plus a scope "model" holding the C
 * model's outputs of cycles first..first+n-1 (outs: n structs of g->out_size,
 * cycle first+i at index (first+i) % ring), so GTKWave, which opens one dump,
 * shows expected and actual side by side. Returns 0, or -1 after printing why. */
int waves_merge_model(const char *rtl_fst, const char *out_fst, const cosim_glue_t *g, uint64_t first,
                      uint64_t n, const void *outs, uint64_t ring);

#endif
