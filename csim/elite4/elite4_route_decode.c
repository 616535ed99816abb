/*
 * elite4_route_decode -- route tag to request, illegal tags, route stripping.
 * Spec: docs/elite4.md sections 3 and 5.3.
 */
#include "elite4_internal.h"

void elite4_route_decode(const elite4_cfg_t *cfg, uint32_t route, elite4_route_t *r) {
  const unsigned tag = route & 0xFu; /* the front tag, bits [3:0] */

  r->kind = ELITE4_REQ_ILLEGAL;
  r->bcast = false;
  r->ports = 0;

  /* Section 5.3 tests "tag < NumPorts" first: with 14..16 ports, tags 13, 14 (and 15)
       name ports, not TagUp/TagBcast. */
  if (tag < cfg->num_ports) {
    r->kind = ELITE4_REQ_PORTS;
    r->ports = 1u << tag;
  } else if (tag == ELITE4_TAG_UP) {
    r->kind = ELITE4_REQ_UP; /* resolved by the VC allocator (section 5.4) */
  } else if (tag == ELITE4_TAG_BCAST) {
    /* The next tag is the range: lo = bits [3:2], hi = bits [1:0]; illegal if
           lo > hi or hi >= NumPorts. */
    const unsigned range = (route >> 4) & 0xFu;
    const unsigned lo = range >> 2;
    const unsigned hi = range & 0x3u;
    if (lo <= hi && hi < cfg->num_ports) {
      r->kind = ELITE4_REQ_PORTS;
      r->bcast = true;
      r->ports = ((2u << hi) - 1u) & ~((1u << lo) - 1u); /* ports lo..hi */
    }
  }
  /* Anything else (NumPorts..12, 15, TagBcast with a bad range) stays illegal. */
}

uint32_t elite4_route_strip(const elite4_cfg_t *cfg, uint32_t route, bool bcast) {
  if (cfg->bug == ELITE4_BUG_NO_ROUTE_STRIP) return route;
  /* Port or up tag: {4'hF, data[31:4]}; broadcast: {8'hFF, data[31:8]} (section 3). */
  return bcast ? 0xFF000000u | (route >> 8) : 0xF0000000u | (route >> 4);
}

uint32_t elite4_route_word(const uint8_t *tags, unsigned n) {
  uint32_t w = 0xFFFFFFFFu; /* unused tags are 15 */
  for (unsigned k = 0; k < n && k < 8u; k++) {
    w &= ~(0xFu << (4u * k));
    w |= (uint32_t)(tags[k] & 0xFu) << (4u * k);
  }
  return w;
}
