/* The nominal clock of every netcosim figure: cycles convert to ns with it.
 * Chosen from the osu018 timing flow (docs/timing.md, docs/architecture.md
 * "Clocks and time"); mk/clock.mk's NOMINAL_MHZ must say the same (make lint
 * checks). A cycle count is a latency only for a block that closes this clock
 * in `make timing-check`; the blocks that do not yet are listed there. */
#ifndef NETCOSIM_CLOCK_H
#define NETCOSIM_CLOCK_H

#define NETCOSIM_CLOCK_MHZ 250
#define NETCOSIM_CYCLE_PS  4000ULL /* 1e6 / NETCOSIM_CLOCK_MHZ */
#define NETCOSIM_CYCLE_NS  4.0

#endif
