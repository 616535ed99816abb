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
 * of (x + 1 mod X, y), Y likewise. */
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

typedef enum { FABRIC_TOPO_TREE = 0, FABRIC_TOPO_SINGLE = 1, FABRIC_TOPO_TORUS = 2 } fabric_topo_kind_t;
enum { FABRIC_TORUS_XP = 0, FABRIC_TORUS_XM = 1, FABRIC_TORUS_YP = 2, FABRIC_TORUS_YM = 3 };

typedef struct {
  fabric_topo_kind_t kind;
  unsigned nodes, nsw, sw_ports;
  unsigned k, n, per_level; /* tree */
  unsigned x, y, p, conc;   /* torus */
  fabric_end_t *peer;       /* [nsw * sw_ports]: what switch port (s, q) joins */
  fabric_end_t *node;       /* [nodes]: the switch port node d joins */
} fabric_topo_t;

#define FABRIC_TOPO_MAX_NODES (1u << 20)

/* 0, or -1 with a message naming the parameter and its range. */
int fabric_topo_kary_ntree(fabric_topo_t *t, unsigned k, unsigned n, char *err, size_t errlen);
int fabric_topo_single(fabric_topo_t *t, unsigned nodes, unsigned ports, char *err, size_t errlen);
int fabric_topo_torus2d(fabric_topo_t *t, unsigned x, unsigned y, unsigned p, unsigned conc, char *err,
                        size_t errlen);
void fabric_topo_free(fabric_topo_t *t);

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
