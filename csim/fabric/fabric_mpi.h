/* The fabric core's parts on Open MPI processes, one part per rank (docs/fabric.md
 * "Parallel"). Compiled into MPI builds only (mpicc; mk/elite4_fabric.mk).
 *
 * Every rank builds the same fabric (same binary, same arguments) and calls
 * fabric_mpi_start; rank 0 (part 0: serial and RTL instances, the driver)
 * then steps it as usual while ranks >= 1 call fabric_mpi_serve and
 * evaluate their part of every window rank 0 starts. After each window the
 * ranks send each other the slots written into the links that cross parts
 * (lookahead = the shortest such link, so no slot is read in the window it
 * was written) and rank 0 gets every part's digest items, failure, idle
 * state and the ports of the instances that ran (for the observer), merged
 * in instance order as the threads' are: the results are the one-process
 * run's. fabric_idle() on rank 0 sees only part 0 (not used in an MPI run). */
#ifndef NETCOSIM_FABRIC_MPI_H
#define NETCOSIM_FABRIC_MPI_H

#include "fabric.h"

/* MPI_Init; this process's rank and the number of ranks. 0, or -1. */
int fabric_mpi_init(int *argc, char ***argv, unsigned *rank, unsigned *ranks);
void fabric_mpi_finalize(void);
/* On every rank, after every instance and link is added: part = rank (at
 * least 2 ranks; the ranks' fabrics must be the same: checked). 0, or -1
 * with err. */
int fabric_mpi_start(fabric_t *f, char *err, size_t errlen);
/* Ranks >= 1: run this rank's part of every window until rank 0 frees the fabric. */
void fabric_mpi_serve(fabric_t *f);

#endif
