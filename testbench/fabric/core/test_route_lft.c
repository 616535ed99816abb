/* Unit test of the LFT routing plug-in (route_lft.h; `make unit`): on tori of
 * several shapes, with links deactivated from none to the most the seed's rule
 * allows, every (source switch, destination) of up* / down* and of DOR has a
 * legal path by the table (route_lft_check: no hole, loop, misroute, illegal
 * turn or dependency cycle), and the plug-in's route agrees with the walk.
 * Then each defect planted in a good table is named by the check: a hole, a
 * misroute (another host's port at the destination's switch), a loop, a
 * down->up turn, DOR on one VL (a dependency cycle); and a bad link set is
 * refused with a message. The build sets the VLs it was given. */
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
      for (unsigned a = 0; a < 2; a++) {
        route_lft_t r;
        if (!CHECK(&t,
                   !route_lft_build(&r, &tp, (route_lft_algo_t)a, off, (k + sd) % tp.nsw, 4, err, sizeof err),
                   "build %s, %u off: %s", route_lft_algo_names[a], k, err))
          continue;
        CHECK(&t, r.vls == (a == 0 ? 4u : 1u), "the build sets vls (%u)", r.vls);
        CHECK(&t, !strcmp(check_what(&r), "ok"), "%ux%u %s %u off: table fails its check", tp.x, tp.y,
              route_lft_algo_names[a], k);
        fabric_router_t rt;
        route_lft_router_init(&rt, &r);
        uint64_t w;
        unsigned hops;
        const unsigned s = tp.nodes / 3, d = tp.nodes - 1;
        CHECK(&t, !rt.route(rt.ctx, &tp, s, d, &w, &hops, err, sizeof err) && w >> 48 == d + 1 && hops >= 1,
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
  uint8_t *off = calloc((size_t)tp.nsw * tp.sw_ports, 1);
  off[tp.conc] = 1; /* one end only */
  CHECK(&t,
        route_lft_build(&r, &tp, ROUTE_LFT_UPDN, off, 0, 4, err, sizeof err) != 0 && strstr(err, "both ends"),
        "one end off accepted: %s", err);
  free(off);
  fabric_topo_free(&tp);
  return unit_summary(&t);
}
