/* GTKWave save files for a run: the block's committed layout (waves/<module>.gtkw)
 * with this run's dump, port ranges resolved, and a marker on a failing cycle. */
#ifndef NETCOSIM_WAVES_H
#define NETCOSIM_WAVES_H

#include "cosim.h"

/* Time of cycle c in the dump (ps): inputs change at c*2500, the rising edge is
 * at c*2500+1250; outputs are compared in between. */
#define WAVES_CYCLE_PS 2500ULL
#define WAVES_SAMPLE_PS 625ULL /* marker offset: mid-way through the compared phase */

/* fail_cycle NULL: no marker. Returns 0, or -1 after printing why. */
int waves_write_view(const char *view_path, const char *fst_path, const cosim_glue_t *g,
                     const char *test, uint64_t seed, const uint64_t *fail_cycle, const char *why);

#endif
