/* Topology builders of the generic fabric (docs/fabric.md "Topologies"):
 * a wiring table of switches and nodes, independent of any block, and
 * fabric_topo_wire() to join instances by it.
 *
 * k-ary n-tree (the butterfly-wired fat tree): k^n nodes, n levels of
 * k^(n-1) switches with 2k ports, 0..k-1 down and k..2k-1 up; switch
 * s = level * k^(n-1) + w, w written in base k with n-1 digits; node d on
 * leaf switch d / k, port d % k; up port k + j of (l, w) joins down port
 * w_l of (l + 1, w with digit l set to j); the top level's up ports are
 * tied off. With k = 4 this is the wiring of the Elite radix-4 trees.
 * Single switch: nodes on ports 0..nodes-1 of one switch.
 * 2-D torus X x Y with P parallel links per direction and c nodes per
 * router: router r = y * X + x, ports 0..c-1 its nodes, then X+, X-, Y+, Y-
 * with P ports each (c + dir * P + j); X+ port j of (x, y) joins X- port j
 * of (x + 1 mod X, y), Y likewise.
 * Two-level fat tree of R-port switches (fabric_topo_fat2): L leaves, then S
 * spines; leaf l has its R/2 nodes on ports 0..R/2-1 (node d on leaf
 * d / (R/2), port d % (R/2)) and R/2 up ports; with m = R / (2 S) parallel
 * links per (leaf, spine), up port R/2 + s m + i of leaf l joins down port
 * l m + i of spine s (switch L + s). Spine ports from L m on are tied off.
 * Read graph (fabric_ibnd.c): a topology file in the ibnetdiscover format;
 * switches and nodes numbered in the order the file declares them. */
#ifndef NETCOSIM_FABRIC_TOPO_H
#define NETCOSIM_FABRIC_TOPO_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FABRIC_END_NONE = 0, FABRIC_END_NODE = 1, FABRIC_END_SWITCH = 2 } fabric_end_kind_t;
typedef struct {
  uint8_t kind; /* fabric_end_kind_t */
  uint16_t port;
  uint32_t id;
} fabric_end_t;

typedef enum {
  FABRIC_TOPO_TREE = 0,
  FABRIC_TOPO_SINGLE = 1,
  FABRIC_TOPO_TORUS = 2,
  FABRIC_TOPO_FAT2 = 3, /* two-level fat tree */
  FABRIC_TOPO_READ = 4  /* read from a file (fabric_topo_read_ibnd) */
} fabric_topo_kind_t;
enum { FABRIC_TORUS_XP = 0, FABRIC_TORUS_XM = 1, FABRIC_TORUS_YP = 2, FABRIC_TORUS_YM = 3 };

typedef struct {
  fabric_topo_kind_t kind;
  unsigned nodes, nsw, sw_ports;
  unsigned k, n, per_level;             /* tree */
  unsigned x, y, p, conc;               /* torus */
  unsigned radix, leaves, spines, mult; /* two-level fat tree: R, L, S, m */
  fabric_end_t *peer;                   /* [nsw * sw_ports]: what switch port (s, q) joins */
  fabric_end_t *node;                   /* [nodes]: the switch port node d joins */
  /* read graph only (NULL otherwise): */
  uint16_t *nports;  /* [nsw] ports switch s declares (sw_ports is their maximum) */
  uint32_t *sw_line; /* [nsw] file line of switch s's Switch line */
  uint32_t *line;    /* [nsw * sw_ports] file line of port (s, q)'s link, 0 if none */
  char src[256];     /* the file's name as given */
} fabric_topo_t;

#define FABRIC_TOPO_MAX_NODES (1u << 20)

/* 0, or -1 with a message naming the parameter and its range. */
int fabric_topo_kary_ntree(fabric_topo_t *t, unsigned k, unsigned n, char *err, size_t errlen);
int fabric_topo_single(fabric_topo_t *t, unsigned nodes, unsigned ports, char *err, size_t errlen);
int fabric_topo_torus2d(fabric_topo_t *t, unsigned x, unsigned y, unsigned p, unsigned conc, char *err,
                        size_t errlen);
/* Two-level fat tree: R-port switches (R even, 4..254), L leaves (2..2S),
 * S spines (S divides R/2; 0 = R/2, one link per leaf and spine). */
int fabric_topo_fat2(fabric_topo_t *t, unsigned radix, unsigned leaves, unsigned spines, char *err,
                     size_t errlen);
void fabric_topo_free(fabric_topo_t *t);
/* The ports switch s has (a read graph's switches declare their own). */
static inline unsigned fabric_topo_nports(const fabric_topo_t *t, unsigned s) {
  return t->nports ? t->nports[s] : t->sw_ports;
}
/* Do a and b wire the same switches, ports and nodes the same way? 0 when
 * they do; 1 and the first difference in why (switch, port, each side's
 * peer, and the file line when one side was read). */
int fabric_topo_diff(const fabric_topo_t *a, const fabric_topo_t *b, char *why, size_t len);

/* ibnetdiscover format (fabric_ibnd.c, docs/fabric.md "Topology files").
 * Write: one Switch block per switch, one Ca block (1 port) per node; switch
 * port q is IBA port q + 1; GUIDs and LIDs derived from the index (below).
 * 0, or -1 with err (a topology the format cannot hold: > 254 ports or more
 * endpoints than unicast LIDs). */
#define FABRIC_IBND_SW_GUID(s)   (UINT64_C(0x4e43530100000000) + ((uint64_t)(s) << 4))
#define FABRIC_IBND_NODE_GUID(d) (UINT64_C(0x4e43530200000000) + ((uint64_t)(d) << 4))
#define FABRIC_IBND_MAX_PORTS    254u    /* IBA NumPorts: 8 bits, 255 reserved */
#define FABRIC_IBND_MAX_LID      0xBFFFu /* the last unicast LID */
int fabric_topo_write_ibnd(const fabric_topo_t *t, FILE *out, char *err, size_t errlen);
/* Read: 0, or -1 with "FILE:LINE: field: what is wrong" in err. parse takes
 * the text in memory (len bytes, need not end in NUL; name is the FILE). */
int fabric_topo_read_ibnd(fabric_topo_t *t, const char *path, char *err, size_t errlen);
int fabric_topo_parse_ibnd(fabric_topo_t *t, const char *name, const char *buf, size_t len, char *err,
                           size_t errlen);

static inline const fabric_end_t *fabric_topo_peer(const fabric_topo_t *t, unsigned s, unsigned q) {
  return &t->peer[(size_t)s * t->sw_ports + q];
}
/* tree: level and index of switch s */
static inline unsigned fabric_tree_level(const fabric_topo_t *t, unsigned s) { return s / t->per_level; }
static inline unsigned fabric_tree_index(const fabric_topo_t *t, unsigned s) { return s % t->per_level; }
/* tree: digit i (base k) of x */
unsigned fabric_tree_digit(const fabric_topo_t *t, unsigned x, unsigned i);
/* tree: the minimal route src -> dst: returns the number of up hops u (each
 * free to take any up port: adaptive), and writes the u + 1 down ports, from
 * the turning switch at level u to the leaf, into down[]. */
unsigned fabric_tree_route(const fabric_topo_t *t, unsigned src, unsigned dst, uint8_t *down);

/* Join instances by the table: switch s is instance sw0 + s, node d is
 * instance node0 + d with its link on port node_port; every link `latency`
 * cycles. 0, or -1 with err. */
int fabric_topo_wire(fabric_t *f, const fabric_topo_t *t, uint32_t sw0, uint32_t node0, unsigned node_port,
                     unsigned latency, char *err, size_t errlen);

/* The wiring table as CSV: switch,port,peer_kind,peer,peer_port */
void fabric_topo_csv(const fabric_topo_t *t, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
