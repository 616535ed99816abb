#!/usr/bin/env bash
# mk/rtl-bug.sh BUG OUTDIR: a scratch copy of rtl/ in OUTDIR/rtl with planted
# bug BUG (a line of rtl/*/*.bugs: name|target|file|assertion|old|new) applied
# as a fixed-string edit. Fails (status 2) if the bug is unknown or the old
# text is not found exactly once: a bug that no longer applies must not pass
# silently as "caught". Prints "target assertion" of the bug on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
bug=${1:?usage: mk/rtl-bug.sh BUG OUTDIR} out=${2:?usage: mk/rtl-bug.sh BUG OUTDIR}
line=$(grep -h "^$bug@@" rtl/*/*.bugs || true)
[[ -n $line ]] || { echo "rtl-bug: unknown bug '$bug' (rtl/*/*.bugs)" >&2; exit 2; }
field() { awk -F'@@' -v k="$1" '{ print $k }' <<<"$line"; }
target=$(field 2) file=$(field 3) label=$(field 4) old=$(field 5) new=$(field 6)
rm -rf "$out/rtl" && mkdir -p "$out" && cp -r rtl "$out/rtl"
n=$(grep -cF -- "$old" "$file" || true)
[[ $n == 1 ]] || { echo "rtl-bug: $bug: '$old' found $n times in $file (must be once)" >&2; exit 2; }
OLD=$old NEW=$new awk '{ i = index($0, ENVIRON["OLD"]);
  if (i) $0 = substr($0, 1, i - 1) ENVIRON["NEW"] substr($0, i + length(ENVIRON["OLD"])); print }' \
  "$file" > "$out/$file"
! cmp -s "$file" "$out/$file" || { echo "rtl-bug: $bug changed nothing" >&2; exit 2; }
echo "$target $label"
