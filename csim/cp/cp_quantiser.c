/*
 * cp_quantiser -- QntzFb = min(63, floor(|Fb|*63 / D)), exact, no reciprocal.
 * Spec: docs/cp.md section 7.1.
 */
#include "cp_internal.h"

unsigned cp_quantise(uint64_t abs_fb, uint64_t d, unsigned bug)
{
    /* |Fb|*63 < 2^(QW+10) and D << 5 < 2^(QW+10): 40 bits at QW = 30, no overflow. */
    uint64_t n = abs_fb * 63u;
    unsigned q = 0;
    if (n >= (d << 6)) {
        /* Clamp before the quotient is formed: it would not fit in 6 bits. */
        q = CP_QNTZ_MAX;
    } else {
        /* 6-step restoring division; n < 64*D so the quotient fits in 6 bits. */
        for (int k = 5; k >= 0; k--) {
            if (n >= (d << k)) {
                q |= 1u << k;
                n -= d << k;
            }
        }
    }
    /* Planted bug cp_quant_off_by_one: clamp at 62. MAX messages still force 63. */
    if (bug == CP_BUG_QUANT_OFF_BY_ONE && q > CP_QNTZ_MAX - 1u)
        q = CP_QNTZ_MAX - 1u;
    return q;
}
