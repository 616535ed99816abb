/* elite4 fabric -> results store (testbench/store/store.h): a thin mapping
 * of the fabric's records, hop records and port counters onto store rows
 * (docs/store.md). --db=PATH of elite4_fabric_sim. */
#ifndef E4T_STORE_H
#define E4T_STORE_H

#include "e4t_report.h"
#include "store/store.h"

/* One run into s: parameters, packets, hops (with records on), links; one
 * transaction. 0, or -1 with a message in err. */
int e4t_store_write(store_t *s, const e4t_fabric_t *f, const e4t_result_t *r, const char *name, char *err,
                    size_t len);

#endif
