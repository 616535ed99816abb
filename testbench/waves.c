/* Writes the GTKWave view of one run. See waves.h. */
#define _XOPEN_SOURCE 700
#include "waves.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void default_layout(FILE *f, const cosim_glue_t *g) {
  fprintf(f, "@28\nTOP.clk_i\nTOP.rst_ni\n@800200\n-inputs\n");
  for (unsigned i = 0; i < g->n_in; i++)
    fprintf(f, "@%s\nTOP.%s%s\n", g->in_ports[i].width > 1 ? "22" : "28", g->in_ports[i].name, "");
  fprintf(f, "@1000200\n-inputs\n@800200\n-outputs\n");
  for (unsigned i = 0; i < g->n_out; i++)
    fprintf(f, "@%s\nTOP.%s\n", g->out_ports[i].width > 1 ? "22" : "28", g->out_ports[i].name);
  fprintf(f, "@1000200\n-outputs\n");
}

int waves_write_view(const char *view_path, const char *fst_path, const cosim_glue_t *g,
                     const char *test, uint64_t seed, const uint64_t *fail_cycle, const char *why) {
  char fst_abs[PATH_MAX], view_abs[PATH_MAX], layout[PATH_MAX];
  if (!realpath(fst_path, fst_abs)) snprintf(fst_abs, sizeof fst_abs, "%s", fst_path);
  FILE *f = fopen(view_path, "w");
  if (!f) {
    perror(view_path);
    return -1;
  }
  if (!realpath(view_path, view_abs)) snprintf(view_abs, sizeof view_abs, "%s", view_path);
  fprintf(f, "[*] netcosim %s seed %" PRIu64 ": %s\n", test, seed, why ? why : "passed");
  fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n", fst_abs, view_abs);
  uint64_t start = 0;
  long long marker = -1;
  if (fail_cycle) {
    start = *fail_cycle > 24 ? (*fail_cycle - 24) * WAVES_CYCLE_PS : 0;
    marker = (long long)(*fail_cycle * WAVES_CYCLE_PS + WAVES_SAMPLE_PS);
  }
  fprintf(f, "[timestart] %" PRIu64 "\n[size] 1400 720\n[pos] -1 -1\n", start);
  /* zoom -14: about 100 ps per pixel, ~34 cycles across the default window */
  fprintf(f, "*-14.000000 %lld", marker);
  for (int i = 0; i < 26; i++) fprintf(f, " -1");
  fprintf(f, "\n[sst_width] 200\n[signals_width] 260\n[sst_expanded] 1\n[sst_vpaned_height] 180\n");

  snprintf(layout, sizeof layout, "%s/waves/%s.gtkw", NETCOSIM_SRCDIR, g->top);
  FILE *lf = fopen(layout, "r");
  if (lf) {
    char line[512];
    while (fgets(line, sizeof line, lf)) {
      if (line[0] == '[' || line[0] == '*') continue; /* the header is ours */
      if (!strncmp(line, "TOP.", 4)) put_signal(f, g, line);
      else fputs(line, f);
    }
    fclose(lf);
  } else {
    default_layout(f, g);
  }
  fclose(f);
  return 0;
}
