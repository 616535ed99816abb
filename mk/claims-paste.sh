#!/usr/bin/env bash
# Paste a generated claims table (build/claims/<block>.md, without its title)
# into a doc between "<!-- claims:<block> begin -->" and "<!-- claims:<block> end -->".
#   mk/claims-paste.sh cp docs/cp.md
set -euo pipefail
cd "$(dirname "$0")/.."
block=$1 doc=$2 src=build/claims/$1.md
[[ -f $src ]] || { echo "claims-paste: $src missing (make claims B=$block)"; exit 2; }
grep -q "<!-- claims:$block begin -->" "$doc" || { echo "claims-paste: $doc has no claims:$block markers"; exit 2; }
tmp=$(mktemp)
awk -v b="<!-- claims:$block begin -->" -v e="<!-- claims:$block end -->" -v src="$src" '
  $0 == b { print; n = 0; while ((getline l < src) > 0) if (++n > 2) print l; skip = 1; next }
  $0 == e { skip = 0 }
  !skip' "$doc" > "$tmp"
mv "$tmp" "$doc"
echo "claims-paste: $src -> $doc"
