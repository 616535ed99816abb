/* libFuzzer target: the ibnetdiscover topology reader (csim/fabric/fabric_ibnd.c).
 * Any input must give a table or an error naming the input, never a crash,
 * a leak or undefined behaviour (built with ASan and UBSan, mk/fuzz.sh).
 * A table it accepts must be consistent: every switch-switch link symmetric,
 * every node's switch port pointing back at it; and writing it and reading
 * that back must give the same wiring. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fabric_topo_t t, r;
  char err[600];
  if (fabric_topo_parse_ibnd(&t, "fuzz", (const char *)data, size, err, sizeof err)) {
    if (strncmp(err, "fuzz", 4)) abort(); /* an error must name the file */
    return 0;
  }
  for (unsigned s = 0; s < t.nsw; s++)
    for (unsigned q = 0; q < t.sw_ports; q++) {
      const fabric_end_t *e = fabric_topo_peer(&t, s, q);
      if (e->kind == FABRIC_END_SWITCH) {
        const fabric_end_t *b = fabric_topo_peer(&t, e->id, e->port);
        if (e->id >= t.nsw || b->kind != FABRIC_END_SWITCH || b->id != s || b->port != q) abort();
      } else if (e->kind == FABRIC_END_NODE) {
        if (e->id >= t.nodes || t.node[e->id].id != s || t.node[e->id].port != q) abort();
      }
      if (q >= fabric_topo_nports(&t, s) && e->kind != FABRIC_END_NONE) abort();
    }
  char *buf = NULL, why[600];
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (m && fabric_topo_write_ibnd(&t, m, err, sizeof err) == 0) {
    fclose(m);
    m = NULL;
    if (fabric_topo_parse_ibnd(&r, "again", buf, len, err, sizeof err)) abort();
    if (fabric_topo_diff(&t, &r, why, sizeof why)) abort();
    fabric_topo_free(&r);
  }
  if (m) fclose(m);
  free(buf);
  fabric_topo_free(&t);
  return 0;
}
