/*
 * cp_quantiser -- QntzFb = min(63, floor(|Fb|*63 / D)), exact.
 * Spec: docs/cp.md section 7.1 (the result only; how to get it is left to each side).
 *
 * Written the plain software way, one integer division, so that the lockstep
 * checks the RTL's divider against arithmetic rather than against a C copy of
 * its own algorithm.
 */
#include "cp_internal.h"

unsigned cp_quantise(uint64_t abs_fb, uint64_t d, unsigned bug) {
  /* |Fb| < 2^(QW+4) <= 2^34, so |Fb|*63 < 2^40: no overflow in 64 bits. D > 0 after
       validation; a zero D (never loaded by a legal APPLY) is treated as "infinite
       feedback" rather than a division by zero. */
  const uint64_t quotient = d ? abs_fb * 63u / d : UINT64_MAX;
  unsigned q = quotient > CP_QNTZ_MAX ? CP_QNTZ_MAX : (unsigned)quotient;
  /* Planted bug cp_quant_off_by_one: clamp at 62. MAX messages still force 63. */
  if (bug == CP_BUG_QUANT_OFF_BY_ONE && q > CP_QNTZ_MAX - 1u) q = CP_QNTZ_MAX - 1u;
  return q;
}
