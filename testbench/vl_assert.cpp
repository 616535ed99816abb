// The Verilator runtime's printf (see vl_assert.h): print, and remember the
// label of an "Assertion failed in <hier>.<label>:" message.
#include "vl_assert.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace {
constexpr unsigned kRing = 16;
unsigned long g_count = 0;
char g_label[kRing][128];
}  // namespace

extern "C" void netcosim_vl_printf(const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::fputs(buf, stdout);
  const char *key = "Assertion failed in ";
  const char *p = std::strstr(buf, key);
  if (!p) return;
  p += std::strlen(key);
  const char *end = std::strchr(p, ':');
  if (!end) end = p + std::strlen(p);
  // the label is the last hierarchy component (generate scopes come before it)
  const char *start = p;
  for (const char *q = p; q < end; q++)
    if (*q == '.') start = q + 1;
  size_t n = static_cast<size_t>(end - start);
  char *l = g_label[g_count % kRing];
  if (n >= sizeof g_label[0]) n = sizeof g_label[0] - 1;
  std::memcpy(l, start, n);
  l[n] = '\0';
  g_count++;
}

extern "C" unsigned long netcosim_vl_assert_count(void) { return g_count; }
extern "C" const char *netcosim_vl_assert_label(unsigned long n) {
  if (g_count == 0) return "";
  if (n >= g_count || g_count - n > kRing) n = g_count - 1;
  return g_label[n % kRing];
}
