/* elite4 fabric scoreboard: see e4t_score.h. */
#include "e4t_score.h"
#include "first_failure.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/crc32_ref.h" /* the scoreboard's own CRC, never the model's */

int e4t_score_init(e4t_score_t *sb, unsigned nodes, unsigned vcs) {
  memset(sb, 0, sizeof *sb);
  sb->nodes = nodes;
  sb->vcs = vcs;
  sb->last_seq = malloc((size_t)nodes * vcs * sizeof *sb->last_seq);
  sb->next_seq = calloc((size_t)nodes * vcs, sizeof *sb->next_seq);
  if (!sb->last_seq || !sb->next_seq) return -ENOMEM;
  for (unsigned i = 0; i < nodes * vcs; i++) sb->last_seq[i] = -1;
  return 0;
}

void e4t_score_free(e4t_score_t *sb) {
  free(sb->last_seq);
  free(sb->next_seq);
  sb->last_seq = NULL;
  sb->next_seq = NULL;
}

void e4t_failf(e4t_score_t *sb, uint64_t cycle, const char *id, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  first_failure(&sb->failed, &sb->fail_cycle, sb->fail_id, sizeof sb->fail_id, sb->fail, sizeof sb->fail,
                cycle, id, fmt, ap);
  va_end(ap);
}

bool e4t_score_check(e4t_score_t *sb, const e4t_records_t *r, unsigned node, unsigned v, uint32_t head,
                     const uint32_t *words, unsigned n, uint32_t tail, uint64_t c, uint32_t *id) {
  *id = n ? words[0] : UINT32_MAX;
  if (n && e4t_records_retired(r, words[0])) { /* records off: done, its record folded away */
    e4t_failf(sb, c, "fabric.duplicate",
              "packet %u delivered again after its token came back: at node %u VC %u, cycle %" PRIu64,
              words[0], node, v, c);
    return false;
  }
  const e4t_pkt_t *k = n ? e4t_records_get((e4t_records_t *)(uintptr_t)r, words[0]) : NULL;
  if (!k) {
    e4t_failf(sb, c, "fabric.unknown_packet", "node %u VC %u: packet with %s at cycle %" PRIu64, node, v,
              n ? "an unknown id" : "no body", c);
    return false;
  }
  const unsigned pv = k->src * sb->vcs + k->vc;
  const char *why = NULL, *id_ = NULL;
  const bool crc_bad = tail != crc32_ref_words(words, n);
  if (crc_bad)
    why = "TAIL CRC does not match the body", id_ = "fabric.crc";
  else if (k->dst != node)
    why = "arrived at the wrong node", id_ = "fabric.wrong_node";
  else if (k->vc != v)
    why = "arrived on the wrong VC", id_ = "fabric.wrong_vc";
  else if (head != 0xFFFFFFFFu)
    why = "arrived with route tags left in its HEAD", id_ = "fabric.route_left";
  else if (n != k->nbody)
    why = "arrived with a different body length", id_ = "fabric.body_length";
  else if (k->state == E4T_PKT_DELIVERED || k->state == E4T_PKT_DONE)
    why = "delivered twice", id_ = "fabric.duplicate";
  else if ((int64_t)k->seq != sb->last_seq[pv] + 1)
    why = "out of order for its (source, VC)", id_ = "fabric.order";
  else
    for (unsigned i = 1; i < n && !why; i++)
      if (words[i] != e4t_body_word(r, words[0], i))
        why = "arrived with a different body", id_ = "fabric.body";
  if (why) {
    if (crc_bad) sb->crc_bad++;
    e4t_failf(sb, c, id_,
              "packet %u (node %u -> %u, VC %u, seq %u) %s: at node %u VC %u, cycle %" PRIu64
              " (HEAD 0x%08x, %u body words, last seq delivered %" PRId64 ")",
              words[0], k->src, k->dst, k->vc, k->seq, why, node, v, c, head, n, sb->last_seq[pv]);
    return false;
  }
  return true;
}

void e4t_score_deliver(e4t_score_t *sb, e4t_records_t *r, uint32_t id, uint64_t c) {
  e4t_pkt_t *k = e4t_records_get(r, id);
  sb->last_seq[k->src * sb->vcs + k->vc] = k->seq;
  k->state = E4T_PKT_DELIVERED;
  k->t_tail_rx = (uint32_t)c;
  sb->delivered++;
}
