/* elan4 interrupts, counters and trace registers (docs/elan4.md §6.9, §6.10). */
#include "elan4_internal.h"

void elan4_irq_cnt_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  /* the oldest record (start-of-cycle) is shown next cycle; it makes no room
     for this cycle's pushes */
  if (s->n_irq) {
    const elan4_irq_t *e = &s->irq[s->irq_head];
    n->r.irq_valid = true;
    n->r.irq_cause = e->cause;
    n->r.irq_info = e->info;
    n->r.irq_data = e->data;
    n->irq_head = (uint8_t)((s->irq_head + 1u) % ELAN4_MAX_IRQ);
    n->n_irq = (uint8_t)(s->n_irq - 1u);
  } else {
    n->r.irq_valid = false;
    n->r.irq_cause = 0;
    n->r.irq_info = 0;
    n->r.irq_data = 0;
  }
  unsigned pushed = 0;
  for (unsigned src = 0; src < IS_N; src++)
    for (unsigned i = 0; i < y->n_irq[src]; i++) {
      if (s->n_irq + pushed >= c->irq_depth) {
        cyc_count(y, ELAN4_CNT_IRQ_LOST);
        continue;
      }
      cyc_dirty(y, ELAN4_DIRTY_IRQ);
      n->irq[(n->irq_head + n->n_irq) % ELAN4_MAX_IRQ] = y->irq[src][i];
      n->n_irq++;
      pushed++;
    }
  /* an event of cycle t is in the value shown in t+2 */
  memcpy(n->r.cnt_shown, s->cnt, sizeof s->cnt);
  for (unsigned k = 0; k < ELAN4_NCNT; k++) n->cnt[k] = s->cnt[k] + y->inc[k];
}
