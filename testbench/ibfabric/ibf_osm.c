/* OpenSM's LFT dump into netcosim's table: see ibf_osm.h. */
#include "ibf_osm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/core/route_lft.h"

/* Which switch (or node, for a port GUID) a GUID names, or -1: the export's GUIDs are a base plus
 * 16 times the index (fabric_topo.h). */
static long sw_of(const fabric_topo_t *t, uint64_t g) {
  const uint64_t b = FABRIC_IBND_SW_GUID(0);
  if (g < b || (g - b) % 16) return -1;
  const uint64_t s = (g - b) / 16;
  return s < t->nsw ? (long)s : -1;
}
static long node_of_port(const fabric_topo_t *t, uint64_t g) {
  const uint64_t b = FABRIC_IBND_NODE_GUID(0) + 1;
  if (g < b || (g - b) % 16) return -1;
  const uint64_t d = (g - b) / 16;
  return d < t->nodes ? (long)d : -1;
}

int ibf_osm_read_lfts(const char *path, const fabric_topo_t *t, uint8_t *lft, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  memset(lft, ROUTE_LFT_NONE, (size_t)t->nsw * t->nodes);
  uint8_t *seen = calloc(t->nsw, 1);
  char line[1024];
  unsigned ln = 0;
  long cur = -1;
  int rc = 0;
#define BAD(...)                                                                             \
  do {                                                                                       \
    int n_ = snprintf(err, errlen, "%s:%u: ", path, ln);                                     \
    if (n_ > 0 && (size_t)n_ < errlen) snprintf(err + n_, errlen - (size_t)n_, __VA_ARGS__); \
    rc = -1;                                                                                 \
    goto out;                                                                                \
  } while (0)
  while (fgets(line, sizeof line, f)) {
    ln++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0]) continue;
    if (!strncmp(line, "Unicast lids ", 13)) {
      const char *g = strstr(line, " guid 0x");
      uint64_t guid;
      if (!g || sscanf(g + 8, "%" SCNx64, &guid) != 1) BAD("switch header without 'guid 0x...'");
      cur = sw_of(t, guid);
      if (cur < 0) BAD("switch GUID 0x%016" PRIx64 " is not a switch of this fabric", guid);
      if (seen[cur]) BAD("switch %ld (GUID 0x%016" PRIx64 ") has a second block", cur, guid);
      seen[cur] = 1;
      continue;
    }
    unsigned lid, port;
    int n = 0;
    if (sscanf(line, "%u lids dumped%n", &lid, &n) == 1 && n > 0 && !line[n]) {
      cur = -1;
      continue;
    }
    if (strncmp(line, "0x", 2)) BAD("neither a switch header, an entry nor 'N lids dumped': '%.60s'", line);
    if (cur < 0) BAD("an entry outside a switch block");
    if (strstr(line, "UNREACHABLE") || strstr(line, "unknown node")) continue; /* left NONE */
    n = 0;
    if (sscanf(line, "0x%x %u # %n", &lid, &port, &n) != 2 || n == 0)
      BAD("entry: expected '0xLID PORT # ...'");
    const char *k = line + n;
    const char *pg = strstr(k, "portguid 0x");
    uint64_t guid;
    if (!pg || sscanf(pg + 11, "%" SCNx64, &guid) != 1) BAD("entry for LID %u: no 'portguid 0x...'", lid);
    if (!strncmp(k, "Switch", 6)) {
      if (sw_of(t, guid) < 0)
        BAD("entry for LID %u: switch GUID 0x%016" PRIx64 " not in this fabric", lid, guid);
      continue; /* switch LIDs: not data destinations here */
    }
    const long d = node_of_port(t, guid);
    if (d < 0)
      BAD("entry for LID %u: port GUID 0x%016" PRIx64 " is not a host port of this fabric", lid, guid);
    if (port == 0 || port > fabric_topo_nports(t, (unsigned)cur) || port > 254)
      BAD("switch %ld, host %ld (LID %u): port %u, the switch has ports 1..%u", cur, d, lid, port,
          fabric_topo_nports(t, (unsigned)cur));
    lft[(size_t)cur * t->nodes + (size_t)d] = (uint8_t)(port - 1);
  }
out:
#undef BAD
  free(seen);
  fclose(f);
  return rc;
}

int ibf_osm_hops(const fabric_topo_t *t, const uint8_t *lft, unsigned s, unsigned d) {
  for (unsigned h = 0; h <= t->nsw; h++) {
    const uint8_t e = lft[(size_t)s * t->nodes + d];
    if (e == ROUTE_LFT_NONE || e >= fabric_topo_nports(t, s)) return -1;
    const fabric_end_t *pe = fabric_topo_peer(t, s, e);
    if (pe->kind == FABRIC_END_NODE) return pe->id == d ? (int)h : -1;
    if (pe->kind != FABRIC_END_SWITCH) return -1;
    s = pe->id;
  }
  return -1;
}
