/*
 * elite4_route_decode -- route tag to request, illegal tags, route stripping.
 * Spec: docs/elite4.md sections 3 and 5.3.
 */
#include "elite4_internal.h"

void elite4_route_decode(const elite4_cfg_t *cfg, uint32_t route, elite4_route_t *r) {
  const unsigned tag = route & 0xFu; /* the front tag, bits [3:0] */

  r->kind = ELITE4_REQ_ILLEGAL;
  r->bcast = false;
  r->upn = false;
  r->ports = 0;

  /* Section 3 tests "tag < NumPorts" first: with 13..16 ports, tags 12, 13, 14 (and 15)
       name ports, not TagUpN/TagUp/TagBcast. */
  if (tag < cfg->num_ports) {
    r->kind = ELITE4_REQ_PORTS;
    r->ports = 1u << tag;
  } else if (tag == ELITE4_TAG_UP) {
    r->kind = ELITE4_REQ_UP; /* resolved by the VC allocator (section 5.4) */
  } else if (tag == ELITE4_TAG_UPN) {
    /* Counted up (ours): the next tag is the count k, legal 1..15; routed as TagUp. */
    if (((route >> 4) & 0xFu) != 0) {
      r->kind = ELITE4_REQ_UP;
      r->upn = true;
    }
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
  /* Anything else (NumPorts..11, 15, TagBcast with a bad range, TagUpN with count 0) stays
     illegal. */
}

uint32_t elite4_route_strip(const elite4_cfg_t *cfg, uint32_t route, bool bcast, bool upn) {
  if (cfg->bug == ELITE4_BUG_NO_ROUTE_STRIP) return route;
  if (upn) {
    /* Section 3, TagUpN with count k: k > 1, {data[31:8], k-1, 4'd12} (the count decremented
       in place); k = 1, both tags removed as for a broadcast. */
    const unsigned k = (route >> 4) & 0xFu;
    if (k > 1) {
      if (cfg->bug == ELITE4_BUG_UPN_NO_DECREMENT) return route; /* planted: k unchanged */
      return (route & 0xFFFFFF00u) | ((k - 1u) << 4) | ELITE4_TAG_UPN;
    }
    return 0xFF000000u | (route >> 8);
  }
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
