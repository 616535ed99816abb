#!/usr/bin/env bash
# One row of build/claims/elite4.csv from a run directory of elite4_fabric_core_sim
# (mk/claims.sh elite4): config,seed,accepted,lat_mean,switch_trav_mean,
# switch_trav_min,net_head_mean,total_mean,wall_s. The per-switch figures are
# over the longest paths' switches ("total (arrival -> departure)" rows of
# breakdown.csv, weighted by their counts); empty when the run kept no records.
set -euo pipefail
d=$1 name=$2 seed=$3
sw_mean="" sw_min="" net="" tot=""
if [[ -f $d/breakdown.csv ]]; then
  read -r sw_mean sw_min net tot < <(awk -F, '
    NR == 1 { next }
    { h = $1 + 0; if (h > hmax) hmax = h; line[NR] = $0 }
    END {
      for (r in line) {
        n = split(line[r], x, ","); if (x[1] + 0 != hmax) continue
        # the stage is quoted and holds no comma; fields: switches,stage,count,min,mean,...
        if (x[2] ~ /: total \(arrival -> departure\)/) { c += x[3]; s += x[3] * x[5]; if (mn == "" || x[4] + 0 < mn) mn = x[4] + 0 }
        if (x[2] ~ /^"network: HEAD injected -> HEAD/) net = x[5]
        if (x[2] ~ /^"total: created -> TAIL/) tot = x[5]
      }
      printf "%.4f %s %s %s\n", c ? s / c : 0, mn, net, tot
    }' "$d/breakdown.csv")
fi
awk -F, -v cfg="$name" -v seed="$seed" -v a="$sw_mean" -v b="$sw_min" -v c="$net" -v t="$tot" '
  NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
  { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", cfg, seed, $k["accepted"], $k["lat_mean"], a, b, c, t, $k["wall_s"] }' "$d/summary.csv"
