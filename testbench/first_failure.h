/* The first failure of a run, kept as the testbenches report it: a flag,
 * its cycle, its check id and its message; later failures are dropped (the
 * first is the cause, the rest its echoes). Shared by the fabric drivers'
 * scoreboards (testbench/fabric/, testbench/ibfabric/, testbench/elan4fab/). */
#ifndef NETCOSIM_FIRST_FAILURE_H
#define NETCOSIM_FIRST_FAILURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static inline void first_failure(bool *failed, uint64_t *at, char *id, size_t idlen, char *msg, size_t msglen,
                                 uint64_t cycle, const char *check, const char *fmt, va_list ap) {
  if (*failed) return;
  *failed = true;
  *at = cycle;
  snprintf(id, idlen, "%s", check);
  vsnprintf(msg, msglen, fmt, ap);
}

#endif
