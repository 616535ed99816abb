/* elite4 fabric scoreboard: every packet arrives exactly once, at the right
 * node, intact, in order per (source, VC); plus the run's first failure.
 *
 * "In order per (source, VC)": a source numbers the packets it puts on VC v
 * 0, 1, 2, ... (seq, fixed when the packet takes the VC; a retry keeps it).
 * With one packet per VC in flight until its token returns, a correct
 * fabric delivers packet seq only after seq - 1, so a delivery must carry
 * exactly last + 1: a duplicate, a loss or an overtaking all show. */
#ifndef E4T_SCORE_H
#define E4T_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include "e4t_records.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned nodes, vcs;
  int64_t *last_seq;  /* [src * vcs + v]: seq of the last delivered packet, -1 none */
  uint32_t *next_seq; /* [src * vcs + v]: seq for the next packet to take VC v */
  uint64_t delivered, refused_by_dst, crc_bad;
  bool failed;
  uint64_t fail_cycle;
  char fail_id[160]; /* what failed: check "fabric.<what>" or "assert:<label>" (an RTL assertion) */
  char fail[512];
} e4t_score_t;

int e4t_score_init(e4t_score_t *sb, unsigned nodes, unsigned vcs);
void e4t_score_free(e4t_score_t *sb);
/* Record a failure of check `id` (the first one is kept). */
void e4t_failf(e4t_score_t *sb, uint64_t cycle, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A complete packet on node `node`'s input, VC v: the HEAD's data, the body
 * words, the TAIL's data. Checks it against its record; true if it is the
 * packet the scoreboard expects there now (on false a failure is recorded).
 * *id gets body word 0 (or UINT32_MAX). */
bool e4t_score_check(e4t_score_t *sb, const e4t_records_t *r, unsigned node, unsigned v, uint32_t head,
                     const uint32_t *words, unsigned n, uint32_t tail, uint64_t c, uint32_t *id);
/* The destination accepted (acked) packet id. */
void e4t_score_deliver(e4t_score_t *sb, e4t_records_t *r, uint32_t id, uint64_t c);

#ifdef __cplusplus
}
#endif
#endif
