/* Unit test of the LFT routing plug-in (route_lft.h; `make unit`): on tori of
 * several shapes, with links deactivated from none to the most the seed's rule
 * allows, every (source switch, destination) of up* / down* and of DOR has a
 * legal path by the table (route_lft_check: no hole, loop, misroute, illegal
 * turn or dependency cycle), and the plug-in's route agrees with the walk.
 * Then each defect planted in a good table is named by the check: a hole, a
 * misroute (another host's port at the destination's switch), a loop, a
 * down->up turn, DOR on one VL (a dependency cycle); and a bad link set is
 * refused with a message. The build sets the VLs it was given.
 * Multiple spanning trees (updn_mst, T = 2 and 4 on 4 VLs) run on the same
 * shapes and link sets: every tree's table passes the check with its paths
 * on its flows' VLs, the roots differ, the plug-in's DLID is the flow's
 * tree's LID; its negatives: two trees sharing a VL (a real dependency
 * cycle), every flow on VL 0 (a cycle), a down->up turn by tree 1's ranks in
 * tree 1's table (illegal), a hole and a misroute in the last tree's table. */
#define _POSIX_C_SOURCE 200809L /* unit.h: dup, fileno */
#include <stdlib.h>
#include <string.h>

#include "fabric/core/route_lft.h"
#include "unit.h"

static const char *check_what(route_lft_t *r) {
  const char *what = "";
  char err[300];
  return route_lft_check(r, &what, err, sizeof err) ? what : "ok";
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  tctx_t t = {0, 0, 1};
  printf("seed: 1\n");
  static const unsigned shapes[][4] = {{4, 4, 2, 16}, {4, 4, 4, 8}, {3, 5, 3, 4}, {2, 3, 2, 2}, {8, 8, 2, 4}};
  char err[300];
  for (unsigned si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    fabric_topo_t tp;
    if (!CHECK(&t,
               !fabric_topo_torus2d(&tp, shapes[si][0], shapes[si][1], shapes[si][2], shapes[si][3], err,
                                    sizeof err),
               "torus: %s", err))
      continue;
    const unsigned maxoff = 2 * tp.nsw * (tp.p - 1);
    uint8_t *off = calloc((size_t)tp.nsw * tp.sw_ports, 1);
    /* every number of links off, three link choices (seeds) and roots each */
    for (unsigned k = 0, sd = 0; k <= maxoff; sd = (sd + 1) % 3, k += sd == 0) {
      memset(off, 0, (size_t)tp.nsw * tp.sw_ports);
      CHECK(&t, !route_lft_pick_off(&tp, k, 3 * k + sd + 7, off, err, sizeof err), "pick %u: %s", k, err);
      /* a = 2: updn_mst with 4 trees, a = 3: with 2 trees (LMC 1) */
      /* updn_mst: the first link choice of every fourth number of links off and of the most, to keep
         `make unit` short (its check walks every tree) */
      const bool mst_too = sd == 0 && (k % 4 == 0 || k == maxoff);
      for (unsigned a = 0; a < (mst_too ? 4u : 2u); a++) {
        route_lft_t r;
        const unsigned root = (k + sd) % tp.nsw, T = a == 2 ? 4 : a == 3 ? 2 : 1;
        const int brc = a < 2 ? route_lft_build(&r, &tp, (route_lft_algo_t)a, off, root, 4, err, sizeof err)
                              : route_lft_build_mst(&r, &tp, off, root, 4, T, err, sizeof err);
        if (!CHECK(&t, !brc, "build %s T=%u, %u off: %s", route_lft_algo_names[a < 2 ? a : 2], T, k, err))
          continue;
        CHECK(&t, r.vls == (a == 1 ? 1u : 4u), "the build sets vls (%u)", r.vls);
        CHECK(&t, r.trees == T && (1u << r.lmc) >= T && (r.lmc == 0 || (1u << (r.lmc - 1)) < T),
              "trees %u, LMC %u for T = %u", r.trees, r.lmc, T);
        bool distinct = r.roots[0] == root;
        for (unsigned i = 0; i < T && T <= tp.nsw; i++)
          for (unsigned j = 0; j < i; j++) distinct = distinct && r.roots[i] != r.roots[j];
        CHECK(&t, distinct, "%ux%u updn_mst T=%u: roots not distinct or root 0 not %u", tp.x, tp.y, T, root);
        CHECK(&t, !strcmp(check_what(&r), "ok"), "%ux%u %s T=%u %u off: table fails its check: %s", tp.x,
              tp.y, route_lft_algo_names[r.algo], T, k, check_what(&r));
        /* every flow's VL is one of its tree's (v mod T == tree) */
        unsigned badvl = 0;
        for (unsigned s2 = 0; a >= 2 && s2 < tp.nodes; s2++)
          for (unsigned d2 = 0; d2 < tp.nodes; d2++)
            badvl +=
                route_lft_vl(&r, s2, d2) % T != route_lft_tree(&r, s2, d2) || route_lft_vl(&r, s2, d2) >= 4;
        CHECK(&t, !badvl, "updn_mst T=%u: %u flows on a VL not their tree's", T, badvl);
        fabric_router_t rt;
        route_lft_router_init(&rt, &r);
        uint64_t w;
        unsigned hops;
        const unsigned s = tp.nodes / 3, d = tp.nodes - 1;
        CHECK(&t,
              !rt.route(rt.ctx, &tp, s, d, &w, &hops, err, sizeof err) &&
                  w >> 48 == ((d + 1) << r.lmc) + route_lft_tree(&r, s, d) && hops >= 1,
              "router: %s", err);
        route_lft_free(&r);
      }
    }
    CHECK(&t, route_lft_pick_off(&tp, maxoff + 1, 1, off, err, sizeof err) != 0,
          "too many links off accepted");
    free(off);
    fabric_topo_free(&tp);
  }
  /* planted defects, each named */
  fabric_topo_t tp;
  fabric_topo_torus2d(&tp, 4, 4, 2, 4, err, sizeof err);
  route_lft_t r;
  const unsigned d = tp.nodes - 1;
  route_lft_build(&r, &tp, ROUTE_LFT_UPDN, NULL, 0, 4, err, sizeof err);
  r.lft[d] = ROUTE_LFT_NONE;
  CHECK(&t, !strcmp(check_what(&r), "hole"), "planted hole: %s", check_what(&r));
  route_lft_free(&r);
  /* a misroute: at the destination's switch, the entry names another host's port there */
  route_lft_build(&r, &tp, ROUTE_LFT_UPDN, NULL, 0, 4, err, sizeof err);
  unsigned d2 = 0;
  while (d2 < tp.nodes && (d2 == d || tp.node[d2].id != tp.node[d].id)) d2++;
  if (CHECK(&t, d2 < tp.nodes, "no second host on switch %u", tp.node[d].id)) {
    r.lft[(size_t)tp.node[d].id * r.nodes + d] = (uint8_t)tp.node[d2].port;
    CHECK(&t, !strcmp(check_what(&r), "misroute"), "planted misroute: %s", check_what(&r));
  }
  route_lft_free(&r);
  route_lft_build(&r, &tp, ROUTE_LFT_DOR, NULL, 0, 4, err, sizeof err);
  const unsigned xp = tp.conc + FABRIC_TORUS_XP * tp.p, nb = fabric_topo_peer(&tp, 0, xp)->id;
  r.lft[d] = (uint8_t)xp;
  r.lft[(size_t)nb * r.nodes + d] = (uint8_t)(tp.conc + FABRIC_TORUS_XM * tp.p);
  CHECK(&t, !strcmp(check_what(&r), "loop"), "planted loop: %s", check_what(&r));
  route_lft_free(&r);
  route_lft_build(&r, &tp, ROUTE_LFT_DOR, NULL, 0, 4, err, sizeof err);
  r.one_vl = true;
  CHECK(&t, !strcmp(check_what(&r), "cycle"), "DOR on one VL: %s", check_what(&r));
  route_lft_free(&r);
  route_lft_build(&r, &tp, ROUTE_LFT_UPDN, NULL, 0, 4, err, sizeof err);
  bool planted = false;
  for (unsigned sw = 0; sw < r.nsw && !planted; sw++)
    for (unsigned q = tp.conc; q < tp.sw_ports && !planted; q++) {
      unsigned n2 = fabric_topo_peer(&tp, sw, q)->id;
      if (r.rank[n2] > r.rank[sw] && tp.node[d].id != n2 && tp.node[d].id != sw &&
          r.lft[(size_t)sw * r.nodes + d] != q) {
        r.lft[(size_t)sw * r.nodes + d] = (uint8_t)q; /* down, where the table went otherwise */
        planted = true;
      }
    }
  CHECK(&t, planted && !strcmp(check_what(&r), "illegal"), "planted down->up turn: %s", check_what(&r));
  route_lft_free(&r);
  /* multiple trees: the flows of T = 4 trees spread over the trees and VLs */
  route_lft_build_mst(&r, &tp, NULL, 0, 4, 4, err, sizeof err);
  unsigned per_tree[4] = {0};
  for (unsigned s2 = 0; s2 < tp.nodes; s2++)
    for (unsigned d3 = 0; d3 < tp.nodes; d3++) per_tree[route_lft_tree(&r, s2, d3)]++;
  CHECK(&t, per_tree[0] && per_tree[1] && per_tree[2] && per_tree[3], "a tree without flows: %u %u %u %u",
        per_tree[0], per_tree[1], per_tree[2], per_tree[3]);
  /* two trees on one VL (tree 1's flows on tree 0's): their up/down orientations differ, a real cycle */
  r.mst_bug = ROUTE_LFT_MST_BUG_SHARED_VL;
  CHECK(&t, !strcmp(check_what(&r), "cycle"), "updn_mst, trees 0 and 1 on one VL: %s", check_what(&r));
  r.mst_bug = ROUTE_LFT_MST_BUG_NONE;
  r.one_vl = true;
  CHECK(&t, !strcmp(check_what(&r), "cycle"), "updn_mst, every tree on VL 0: %s", check_what(&r));
  r.one_vl = false;
  CHECK(&t, !strcmp(check_what(&r), "ok"), "updn_mst unplanted: %s", check_what(&r));
  /* a down->up turn by tree 1's own ranks, in tree 1's table (legal by tree 0's: not looked at) */
  planted = false;
  {
    uint8_t *l1 = route_lft_table(&r, 1);
    const uint32_t *rk1 = r.rank + r.nsw;
    for (unsigned sw = 0; sw < r.nsw && !planted; sw++)
      for (unsigned q = tp.conc; q < tp.sw_ports && !planted; q++) {
        unsigned n2 = fabric_topo_peer(&tp, sw, q)->id;
        if (rk1[n2] > rk1[sw] && tp.node[d].id != n2 && tp.node[d].id != sw &&
            l1[(size_t)sw * r.nodes + d] != q) {
          l1[(size_t)sw * r.nodes + d] = (uint8_t)q;
          planted = true;
        }
      }
  }
  CHECK(&t, planted && !strcmp(check_what(&r), "illegal"), "planted down->up turn in tree 1: %s",
        check_what(&r));
  route_lft_free(&r);
  route_lft_build_mst(&r, &tp, NULL, 0, 4, 4, err, sizeof err);
  route_lft_table(&r, 3)[d] = ROUTE_LFT_NONE;
  CHECK(&t, !strcmp(check_what(&r), "hole"), "planted hole in tree 3: %s", check_what(&r));
  route_lft_free(&r);
  route_lft_build_mst(&r, &tp, NULL, 0, 4, 4, err, sizeof err);
  route_lft_table(&r, 3)[(size_t)tp.node[d].id * r.nodes + d] = (uint8_t)tp.node[d2].port;
  CHECK(&t, !strcmp(check_what(&r), "misroute"), "planted misroute in tree 3: %s", check_what(&r));
  route_lft_free(&r);
  CHECK(&t, route_lft_build_mst(&r, &tp, NULL, 0, 4, 5, err, sizeof err) != 0 && strstr(err, "trees"),
        "5 trees on 4 VLs accepted: %s", err);
  uint8_t *off = calloc((size_t)tp.nsw * tp.sw_ports, 1);
  off[tp.conc] = 1; /* one end only */
  CHECK(&t,
        route_lft_build(&r, &tp, ROUTE_LFT_UPDN, off, 0, 4, err, sizeof err) != 0 && strstr(err, "both ends"),
        "one end off accepted: %s", err);
  free(off);
  fabric_topo_free(&tp);
  return unit_summary(&t);
}
