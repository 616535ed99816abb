/*
 * cp_config -- configuration registers of the congestion point: the shadow written by
 * the register port, APPLY validation, and the derived constants D and DF.
 * Spec: docs/cp.md section 3.
 */
#include "cp_internal.h"

#include <errno.h>
#include <stdio.h>

/* The sampler's LFSR resets to the SEED reset value (section 3: reset of SEED is 1). */
const common_lfsr32_cfg_t cp_lfsr_cfg = {.seed = CP_RESET_SEED, .bug = 0};

/* The registers at addresses 0..9: name, field, and width (0 = QW bits). */
typedef struct {
  const char *name;
  size_t offset;
  unsigned bits;
} reg_desc_t;

static const reg_desc_t reg_desc[] = {
    [CP_ADDR_MODE] = {"MODE", offsetof(cp_regs_t, mode), 2},
    [CP_ADDR_QEQ] = {"QEQ", offsetof(cp_regs_t, qeq), 0},
    [CP_ADDR_W] = {"W", offsetof(cp_regs_t, w), 4},
    [CP_ADDR_PSAMPLE] = {"PSAMPLE", offsetof(cp_regs_t, psample), 32},
    [CP_ADDR_SAMPLE_BYTES] = {"SAMPLE_BYTES", offsetof(cp_regs_t, sample_bytes), 32},
    [CP_ADDR_BCNMAX] = {"BCNMAX", offsetof(cp_regs_t, bcnmax), 0},
    [CP_ADDR_QEQ_FLOW] = {"QEQ_FLOW", offsetof(cp_regs_t, qeq_flow), 0},
    [CP_ADDR_BCNMAX_FLOW] = {"BCNMAX_FLOW", offsetof(cp_regs_t, bcnmax_flow), 0},
    [CP_ADDR_CPID] = {"CPID", offsetof(cp_regs_t, cpid), 16},
    [CP_ADDR_SEED] = {"SEED", offsetof(cp_regs_t, seed), 32},
};
#define NUM_REGS (sizeof(reg_desc) / sizeof(reg_desc[0]))

static uint32_t *reg_field(cp_regs_t *r, unsigned addr) {
  return (uint32_t *)(void *)((char *)r + reg_desc[addr].offset);
}

static uint32_t reg_get(const cp_regs_t *r, unsigned addr) {
  return *(const uint32_t *)(const void *)((const char *)r + reg_desc[addr].offset);
}

static unsigned reg_bits(unsigned addr, unsigned qw) {
  return reg_desc[addr].bits == 0 ? qw : reg_desc[addr].bits;
}

/* "Only the low `bits` of cfg_wdata_i are stored." */
static uint32_t reg_mask(unsigned addr, unsigned qw) {
  unsigned bits = reg_bits(addr, qw);
  return bits >= 32 ? 0xFFFFFFFFu : (uint32_t)((UINT32_C(1) << bits) - 1u);
}

void cp_regs_default(cp_regs_t *r) {
  r->mode = CP_RESET_MODE;
  r->qeq = CP_RESET_QEQ;
  r->w = CP_RESET_W;
  r->psample = CP_RESET_PSAMPLE;
  r->sample_bytes = CP_RESET_SAMPLE_BYTES;
  r->bcnmax = CP_RESET_BCNMAX;
  r->qeq_flow = CP_RESET_QEQ_FLOW;
  r->bcnmax_flow = CP_RESET_BCNMAX_FLOW;
  r->cpid = CP_RESET_CPID;
  r->seed = CP_RESET_SEED;
}

void cp_regs_mask(cp_regs_t *r, unsigned qw) {
  for (unsigned a = 0; a < NUM_REGS; a++) *reg_field(r, a) &= reg_mask(a, qw);
}

uint64_t cp_derive_d(uint32_t w, uint32_t qeq) {
  /* <= 31 * QMax < 2^(QW+5) (section 7 "Widths"). */
  return (2u * (uint64_t)w + 1u) * (uint64_t)qeq;
}

/* "QEQ=76800", or "QEQ=0 (written as 134217728, cut to 27 bits)" when the register
   would not hold the value software asked for. */
static void fmt_reg(char *buf, size_t n, const cp_regs_t *given, const cp_regs_t *stored, unsigned addr,
                    unsigned qw) {
  uint32_t g = reg_get(given, addr), s = reg_get(stored, addr);
  if (g == s)
    snprintf(buf, n, "%s=%u", reg_desc[addr].name, (unsigned)s);
  else
    snprintf(buf, n, "%s=%u (written as %u, cut to %u bits)", reg_desc[addr].name, (unsigned)s, (unsigned)g,
             reg_bits(addr, qw));
}

/* Check `code` (1..6) of section 3 on the stored values st; true if it fails, then the
   message goes to msg (if non-NULL). */
static bool check_fails(unsigned code, const cp_regs_t *given, const cp_regs_t *st, unsigned qw, char *msg,
                        size_t n) {
  bool fail = false;
  unsigned a = 0, b = 0; /* the register named first, and the one it is compared with
                              (0: none; MODE is never compared) */
  const char *what = "";
  switch (code) {
    case CP_CFG_ERR_QEQ:
      fail = st->qeq == 0;
      a = CP_ADDR_QEQ, what = "must be non-zero";
      break;
    case CP_CFG_ERR_BCNMAX:
      fail = st->bcnmax <= st->qeq;
      a = CP_ADDR_BCNMAX, b = CP_ADDR_QEQ, what = "must be above";
      break;
    case CP_CFG_ERR_QEQ_FLOW:
      fail = st->qeq_flow == 0;
      a = CP_ADDR_QEQ_FLOW, what = "must be non-zero";
      break;
    case CP_CFG_ERR_BCNMAX_FLOW:
      fail = st->bcnmax_flow <= st->qeq_flow;
      a = CP_ADDR_BCNMAX_FLOW, b = CP_ADDR_QEQ_FLOW, what = "must be above";
      break;
    case CP_CFG_ERR_SEED:
      fail = st->seed == 0;
      a = CP_ADDR_SEED, what = "must be non-zero (the LFSR never leaves 0)";
      break;
    case CP_CFG_ERR_SAMPLE_BYTES:
      fail = st->sample_bytes != 0 && st->sample_bytes < CP_MIN_FRAME;
      a = CP_ADDR_SAMPLE_BYTES, what = "must be 0 (random sampling) or at least 64";
      break;
    default: break;
  }
  if (fail && msg != NULL && n > 0) {
    char fa[96], fb[96];
    fmt_reg(fa, sizeof(fa), given, st, a, qw);
    if (b != 0) {
      fmt_reg(fb, sizeof(fb), given, st, b, qw);
      snprintf(msg, n, "cp: %s %s %s", fa, what, fb);
    } else {
      snprintf(msg, n, "cp: %s %s", fa, what);
    }
  }
  return fail;
}

int cp_regs_check(const cp_regs_t *r, unsigned qw, char *msg, size_t n) {
  /* Check what the hardware would hold after the writes, so the answer is APPLY's. */
  cp_regs_t st = *r;
  cp_regs_mask(&st, qw);
  for (unsigned code = CP_CFG_ERR_QEQ; code <= CP_CFG_ERR_SAMPLE_BYTES; code++)
    if (check_fails(code, r, &st, qw, msg, n)) return (int)code;
  if (msg != NULL && n > 0) msg[0] = '\0';
  return CP_CFG_OK;
}

int cp_regs_validate(const cp_regs_t *r, unsigned qw) {
  cp_regs_t st = *r;
  cp_regs_mask(&st, qw);
  int rc = 0;
  char msg[256];
  for (unsigned a = 0; a < NUM_REGS; a++) {
    if (reg_get(r, a) != reg_get(&st, a)) {
      fprintf(stderr, "cp: %s=%u does not fit in its %u-bit register (max %u)\n", reg_desc[a].name,
              (unsigned)reg_get(r, a), reg_bits(a, qw), (unsigned)reg_mask(a, qw));
      rc = -EINVAL;
    }
  }
  for (unsigned code = CP_CFG_ERR_QEQ; code <= CP_CFG_ERR_SAMPLE_BYTES; code++) {
    if (check_fails(code, r, &st, qw, msg, sizeof(msg))) {
      fprintf(stderr, "%s\n", msg);
      rc = -EINVAL;
    }
  }
  return rc;
}

uint32_t cp_psample_from_probability(double p) {
  if (!(p > 0.0)) /* also NaN */
    return 0;
  const double x = p * 4294967296.0; /* exact: a power-of-two scale */
  if (x >= 4294967295.0) return 0xFFFFFFFFu;
  /* round half up without libm: x - trunc(x) is exact for 0 <= x < 2^32. */
  const uint32_t t = (uint32_t)x;
  return x - (double)t >= 0.5 ? t + 1u : t;
}

void cp_config_eval(const cp_cfg_t *cfg, const cp_regs_t *shadow, const cp_in_t *in, cp_config_result_t *r) {
  r->shadow = *shadow;
  r->apply_ok = false;
  r->err = false;
  r->code = CP_CFG_OK;
  if (!in->cfg_we) return;

  if (in->cfg_addr == CP_ADDR_APPLY) {
    /* Validate the whole shadow; first failure wins. A rejected APPLY changes nothing
           but cfg_err_o / cfg_err_code_o. */
    const int code = cp_regs_check(shadow, cfg->qw, NULL, 0);
    if (code == CP_CFG_OK) {
      r->apply_ok = true;
    } else {
      r->err = true;
      r->code = (unsigned)code;
    }
  } else if (in->cfg_addr < NUM_REGS) {
    *reg_field(&r->shadow, in->cfg_addr) = in->cfg_wdata & reg_mask(in->cfg_addr, cfg->qw);
  } else {
    /* 10..14: ignored, reported at the write. */
    r->err = true;
    r->code = CP_CFG_ERR_ADDR;
  }
}
