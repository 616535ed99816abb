/* elite4 fabric: radix-4 fat-trees (4-ary n-trees) of 8-port elite4
 * switches, ports 0..3 down and 4..7 up, and their source routes.
 *
 * N = 4^n nodes (n = 1..6 levels: 4, 16, 64, 256, 1,024, 4,096 nodes), 4^(n-1) switches
 * per level, switch id s = level * 4^(n-1) + w. Digits are base 4, digit 0
 * the least significant.
 *   node d      -> leaf switch (0, d div 4), down port d_0;
 *   (l, w) up port 4 + j <-> (l + 1, w with digit l replaced by j), down port w_l;
 *   top-level up ports: tied off (no peer).
 * Route src -> dst: t = the lowest level whose subtree holds both (src and dst
 * agree on every digit above t), then t adaptive up tags (13) and the down
 * tags dst_t, dst_(t-1), ..., dst_0: 2t + 1 switches. When those 2t + 1 tags
 * do not fit the route word's 8 (t >= 4), the t up tags are one counted up
 * tag, TagUpN (12) and the count t (docs/elite4.md §3, ours): t + 3 tags.
 * (See docs/elite4.md "Fabrics" for the proof that any up choice reaches a
 * switch whose down tag dst_t leads toward dst.) */
#ifndef E4T_TOPO_H
#define E4T_TOPO_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define E4T_MAX_LEVELS    6u
#define E4T_MAX_NODES     4096u
#define E4T_MAX_PER_LEVEL 1024u
#define E4T_MAX_SW        (E4T_MAX_LEVELS * E4T_MAX_PER_LEVEL)
#define E4T_MAX_HOPS      (2u * E4T_MAX_LEVELS - 1u) /* switches on a path */
#define E4T_MAX_TAGS      8u                         /* tags in a route word */
#define E4T_TOPO_PORTS    8u

enum { E4T_PEER_NONE = 0, E4T_PEER_NIC, E4T_PEER_SW };

/* What is on the other end of a switch port. */
typedef struct {
  uint8_t kind; /* E4T_PEER_* */
  uint8_t port; /* the peer switch's port (E4T_PEER_SW) */
  uint16_t id;  /* node (NIC) or switch id */
} e4t_peer_t;

typedef struct {
  unsigned nodes, levels, per_level, nsw;
  e4t_peer_t peer[E4T_MAX_SW][E4T_TOPO_PORTS];
  uint16_t leaf_sw[E4T_MAX_NODES]; /* node d: on switch leaf_sw[d], port d % 4 */
} e4t_topo_t;

/* 0, or -EINVAL (nodes not 4, 16, 64, 256, 1,024 or 4,096). */
int e4t_topo_build(e4t_topo_t *t, unsigned nodes);
static inline unsigned e4t_sw_level(const e4t_topo_t *t, unsigned s) { return s / t->per_level; }
static inline unsigned e4t_sw_index(const e4t_topo_t *t, unsigned s) { return s % t->per_level; }

/* The route word from src to dst (the NIC's source route) and its switch
 * count 2t + 1; tags[] (E4T_MAX_TAGS) gets the tags, front first. src ==
 * dst: a U-turn at the leaf (1 switch). */
unsigned e4t_route(const e4t_topo_t *t, unsigned src, unsigned dst, uint32_t *word, uint8_t *tags);
/* The same route; returns the number of tags (2t + 1, or t + 3 with TagUpN)
 * and *nsw the switch count. */
unsigned e4t_route_tags(const e4t_topo_t *t, unsigned src, unsigned dst, uint32_t *word, uint8_t *tags,
                        unsigned *nsw);

/* The wiring table, one row per switch port (CSV). */
void e4t_topo_csv(const e4t_topo_t *t, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
