/*
 * link_rx -- the receiver's output register and per-VC CRC-32 check of each
 * TAIL against the BODY words of its packet (docs/link.md §6). The CRC
 * register is common_crc32's (csim/common/common_crc32.c), fed 4 bytes a word.
 * crcerr is the raw mismatch; link.c delays it to crc_err_o (docs/link.md §6.1).
 */
#include "link.h"

void link_rx_eval(const link_cfg_t *cfg, const link_rx_state_t *s, uint64_t fw, link_rx_state_t *nx) {
  const link_flit_t f = link_flit_unpack(fw);
  const unsigned v = cfg->bug == LINK_BUG_CRC_ONE_VC ? 0 : f.vc;
  for (unsigned k = 0; k < LINK_MAX_VCS; k++) nx->crc[k] = s->crc[k];
  nx->rxq = fw;
  nx->crcerr = false;
  if (!f.valid || f.kind == LINK_TOKEN) return;

  const common_crc32_cfg_t ccfg = {0};
  common_crc32_out_t co;
  common_crc32_next_t cn;
  common_crc32_in_t ci = {f.kind == LINK_HEAD, f.kind == LINK_BODY, f.data, 0xFu};
  common_crc32_eval(&ccfg, &s->crc[v], &ci, &co, &cn);
  if (f.kind == LINK_TAIL) {
    nx->crcerr = f.data != co.crc; /* crc_o = ~c: the body's CRC */
    return;                        /* the register holds; the next HEAD restarts it */
  }
  common_crc32_commit(&ccfg, &nx->crc[v], &cn);
}
