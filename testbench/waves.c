/* Writes the GTKWave view of one run. See waves.h. */
#define _XOPEN_SOURCE 700
#include "waves.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fstapi (GTKWave's FST library, shipped with Verilator and already linked
 * into every simulator through verilated_fst_c) reads the RTL's dump and
 * writes the merged one. */
#include "fstapi.h"

#ifndef NETCOSIM_SRCDIR
#define NETCOSIM_SRCDIR "."
#endif

/* Width of TOP-level signal `name`, 0 if it is not a port. */
static unsigned port_width(const cosim_glue_t *g, const char *name) {
  if (!strcmp(name, "clk_i") || !strcmp(name, "rst_ni")) return 1;
  for (unsigned i = 0; i < g->n_in; i++)
    if (!strcmp(g->in_ports[i].name, name)) return g->in_ports[i].width;
  for (unsigned i = 0; i < g->n_out; i++)
    if (!strcmp(g->out_ports[i].name, name)) return g->out_ports[i].width;
  return 0;
}

/* A layout line "TOP.port" gets its "[W-1:0]": GTKWave matches vectors by
 * full name, and one committed layout serves every parameter set. */
static void put_signal(FILE *f, const cosim_glue_t *g, const char *line) {
  char name[512];
  snprintf(name, sizeof name, "%s", line + 4);
  name[strcspn(name, "[\r\n ")] = 0;
  unsigned w = port_width(g, name);
  if (!w) printf("warning: waves/%s.gtkw shows TOP.%s, which is not a port of %s\n", g->top, name, g->top);
  if (w > 1 && !strchr(line, '['))
    fprintf(f, "TOP.%s[%u:0]\n", name, w - 1);
  else
    fputs(line, f);
}

/* GTKWave trace flags (.gtkw "@" lines, hex): 0x1 highlighted, 0x2 hex,
 * 0x8 binary, 0x20 right-justified; 0x200 blank line, 0x800000 group begin,
 * 0x1000000 group end. */
static void put_port(FILE *f, const char *scope, const char *alias, const cosim_port_t *p, bool hl) {
  fprintf(f, "@%x\n", (p->width > 1 ? 0x22 : 0x28) | (hl ? 1 : 0));
  if (alias) fprintf(f, "+{%s %s} ", alias, p->name); /* "+{name}": the name GTKWave shows */
  if (p->width > 1)
    fprintf(f, "%s.%s[%u:0]\n", scope, p->name, p->width - 1);
  else
    fprintf(f, "%s.%s\n", scope, p->name);
}

/* No committed layout (waves/<module>.gtkw): every port, inputs then outputs,
 * vectors with their range (GTKWave finds a vector only by its full name). */
static void default_layout(FILE *f, const cosim_glue_t *g) {
  fprintf(f, "@28\nTOP.clk_i\nTOP.rst_ni\n@800200\n-inputs\n");
  for (unsigned i = 0; i < g->n_in; i++) put_port(f, "TOP", NULL, &g->in_ports[i], false);
  fprintf(f, "@1000200\n-inputs\n@800200\n-outputs\n");
  for (unsigned i = 0; i < g->n_out; i++) put_port(f, "TOP", NULL, &g->out_ports[i], false);
  fprintf(f, "@1000200\n-outputs\n");
}

int waves_write_view(const char *view_path, const char *fst_path, const cosim_glue_t *g, const char *test,
                     uint64_t seed, const uint64_t *fail_cycle, int fail_port, bool has_model,
                     const char *why) {
  char fst_abs[PATH_MAX], view_abs[PATH_MAX], layout[PATH_MAX];
  if (!realpath(fst_path, fst_abs)) snprintf(fst_abs, sizeof fst_abs, "%s", fst_path);
  FILE *f = fopen(view_path, "w");
  if (!f) {
    perror(view_path);
    return -1;
  }
  if (!realpath(view_path, view_abs)) snprintf(view_abs, sizeof view_abs, "%s", view_path);
  fprintf(f, "[*] netcosim %s seed %" PRIu64 ": %s\n", test, seed, why ? why : "passed");
  /* The window shown: 24 cycles before the failing one, 8 after (it is the
   * last simulated). wave-png.sh reads this line and zooms to exactly it. */
  uint64_t from = 0, to = 32 * WAVES_CYCLE_PS;
  long long marker = -1;
  if (fail_cycle) {
    from = *fail_cycle > 24 ? (*fail_cycle - 24) * WAVES_CYCLE_PS : 0;
    to = from + 32 * WAVES_CYCLE_PS;
    marker = (long long)(*fail_cycle * WAVES_CYCLE_PS + WAVES_SAMPLE_PS);
  }
  fprintf(f, "[*] zoom %" PRIu64 " %" PRIu64 "\n", from, to);
  fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n", fst_abs, view_abs);
  fprintf(f, "[timestart] %" PRIu64 "\n[size] 1400 900\n[pos] -1 -1\n", from);
  /* zoom z shows 2^-z ps a pixel: -6 = 64 ps, ~32 cycles over the 1100-pixel wave pane */
  fprintf(f, "*-6.000000 %lld", marker);
  for (int i = 0; i < 26; i++) fprintf(f, " -1");
  fprintf(f, "\n[sst_width] 1\n[signals_width] 300\n[sst_expanded] 0\n[sst_vpaned_height] 100\n");

  /* First, what differs: the RTL's port (highlighted, red) and the model's
   * expected value just below it. */
  if (fail_cycle && fail_port >= 0 && (unsigned)fail_port < g->n_out) {
    const cosim_port_t *p = &g->out_ports[fail_port];
    fprintf(f, "@800200\n-divergence\n[color] 1\n");
    put_port(f, "TOP", "actual (rtl)", p, true);
    if (has_model) {
      fprintf(f, "[color] 3\n");
      put_port(f, "model", "expected (model)", p, false);
    }
    fprintf(f, "@1000200\n-divergence\n");
  }

  snprintf(layout, sizeof layout, "%s/waves/%s.gtkw", NETCOSIM_SRCDIR, g->top);
  FILE *lf = fopen(layout, "r");
  if (lf) {
    char line[512];
    while (fgets(line, sizeof line, lf)) {
      if (line[0] == '[' || line[0] == '*') continue; /* the header is ours */
      if (!strncmp(line, "TOP.", 4))
        put_signal(f, g, line);
      else
        fputs(line, f);
    }
    fclose(lf);
  } else {
    default_layout(f, g);
  }
  /* Last, every output as the model expected it. */
  if (has_model) {
    fprintf(f, "@800200\n-model (expected outputs)\n");
    for (unsigned i = 0; i < g->n_out; i++) put_port(f, "model", "model", &g->out_ports[i], false);
    fprintf(f, "@1000200\n-model (expected outputs)\n");
  }
  fclose(f);
  return 0;
}

/* --- the merged dump --------------------------------------------------------- */

typedef struct {
  void *w;
  fstHandle *map;
  fstHandle max;
  uint64_t last_time;
  bool any_time;
  const cosim_glue_t *g;
  const char *outs;
  uint64_t ring, next, end;
  fstHandle *mh;
  const char *prev; /* the model outputs last emitted */
  char *bits;
} merge_t;

static void emit_time(merge_t *m, uint64_t t) {
  if (m->any_time && t == m->last_time) return;
  fstWriterEmitTimeChange(m->w, t);
  m->last_time = t;
  m->any_time = true;
}

/* "0"/"1" string, most significant bit first; bytes are little-endian for
 * both the scalar and the word storage of a port. */
static void port_bits(const cosim_port_t *p, const void *s, char *b) {
  const uint8_t *by = (const uint8_t *)s + p->offset;
  for (unsigned i = 0; i < p->width; i++) {
    unsigned bit = p->width - 1 - i;
    b[i] = (by[bit / 8] >> (bit % 8)) & 1 ? '1' : '0';
  }
  b[p->width] = 0;
}

/* The model's outputs of cycle c change at c * WAVES_CYCLE_PS, when the RTL's inputs do,
 * and hold for the whole cycle: they equal the RTL's in each compared (first)
 * half cycle; a registered RTL output changes half a cycle earlier, at the edge. */
static void flush_model(merge_t *m, uint64_t upto) {
  for (; m->next < m->end && m->next * WAVES_CYCLE_PS <= upto; m->next++) {
    const char *o = m->outs + (m->next % m->ring) * m->g->out_size;
    emit_time(m, m->next * WAVES_CYCLE_PS);
    for (unsigned i = 0; i < m->g->n_out; i++) {
      const cosim_port_t *p = &m->g->out_ports[i];
      size_t nb = (p->width + 7) / 8;
      if (m->prev && !memcmp(o + p->offset, m->prev + p->offset, nb)) continue;
      port_bits(p, o, m->bits);
      fstWriterEmitValueChange(m->w, m->mh[i], m->bits);
    }
    m->prev = o;
  }
}

static void on_change(void *user, uint64_t time, fstHandle fac, const unsigned char *value) {
  merge_t *m = user;
  flush_model(m, time);
  emit_time(m, time);
  if (fac <= m->max && m->map[fac]) fstWriterEmitValueChange(m->w, m->map[fac], value);
}

int waves_merge_model(const char *rtl_fst, const char *out_fst, const cosim_glue_t *g, uint64_t first,
                      uint64_t n, const void *outs, uint64_t ring) {
  void *r = fstReaderOpen(rtl_fst);
  if (!r) {
    printf("warning: cannot read %s to add the model's outputs\n", rtl_fst);
    return -1;
  }
  void *w = fstWriterCreate(out_fst, 1);
  if (!w) {
    fstReaderClose(r);
    printf("warning: cannot write %s\n", out_fst);
    return -1;
  }
  merge_t m = {.w = w, .g = g, .outs = outs, .ring = ring, .max = fstReaderGetMaxHandle(r)};
  unsigned maxw = 1;
  for (unsigned i = 0; i < g->n_out; i++)
    if (g->out_ports[i].width > maxw) maxw = g->out_ports[i].width;
  m.map = calloc((size_t)m.max + 1, sizeof *m.map);
  m.mh = calloc(g->n_out ? g->n_out : 1, sizeof *m.mh);
  m.bits = malloc(maxw + 1);
  if (!m.map || !m.mh || !m.bits) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  fstWriterSetTimescale(w, fstReaderGetTimescale(r));
  struct fstHier *h;
  while ((h = fstReaderIterateHier(r))) {
    switch (h->htyp) {
      case FST_HT_SCOPE:
        fstWriterSetScope(w, (enum fstScopeType)h->u.scope.typ, h->u.scope.name, h->u.scope.component);
        break;
      case FST_HT_UPSCOPE: fstWriterSetUpscope(w); break;
      case FST_HT_VAR: {
        fstHandle rh = h->u.var.handle;
        if (rh > m.max) break;
        fstHandle wh =
            fstWriterCreateVar(w, (enum fstVarType)h->u.var.typ, (enum fstVarDir)h->u.var.direction,
                               h->u.var.length, h->u.var.name, h->u.var.is_alias ? m.map[rh] : 0);
        if (!h->u.var.is_alias) m.map[rh] = wh;
        break;
      }
      default: break; /* attributes: not needed to show the values */
    }
  }
  fstWriterSetScope(w, FST_ST_VCD_MODULE, "model", NULL);
  for (unsigned i = 0; i < g->n_out; i++) {
    const cosim_port_t *p = &g->out_ports[i];
    char name[256];
    if (p->width > 1)
      snprintf(name, sizeof name, "%s [%u:0]", p->name, p->width - 1);
    else
      snprintf(name, sizeof name, "%s", p->name);
    m.mh[i] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_OUTPUT, p->width, name, 0);
  }
  fstWriterSetUpscope(w);

  /* only the model's cycles inside the RTL dump's time span */
  uint64_t t0 = fstReaderGetStartTime(r), c0 = (t0 + WAVES_CYCLE_PS - 1) / WAVES_CYCLE_PS;
  m.next = first > c0 ? first : c0;
  m.end = first + n;
  fstReaderSetFacProcessMaskAll(r);
  fstReaderIterBlocks(r, on_change, &m, NULL);
  flush_model(&m, UINT64_MAX);
  fstWriterClose(w);
  fstReaderClose(r);
  free(m.map);
  free(m.mh);
  free(m.bits);
  return 0;
}
