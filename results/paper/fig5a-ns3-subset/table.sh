#!/bin/sh
# The fig5a subset on ns-3 beside the flow backend and its oracle: one row
# per configuration found in the ns-3 run directories given, joined with a
# flow-backend sweep of the same points made with --oracle.  A point found
# in more than one run directory counts once, from the first given.
#
# usage: results/paper/fig5a-ns3-subset/table.sh FLOW_SWEEP_DIR NS3_RUNS_DIR...
#   (from the repository root; see README.md beside this script)
set -eu
[ $# -ge 2 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
flow=$1; shift
[ -f "$flow/runs.csv" ] || { echo "table.sh: $flow/runs.csv: missing" >&2; exit 2; }
{
	# ns-3 rows: seed (from config.txt), pairs, p, baseline, react, impr, changes, reverts
	for d in "$@"; do
		for r in "$d"/c[0-9]*; do
			[ -f "$r/summary.csv" ] || continue
			# seed, congested pairs and p from config.txt (a sweep whose axis
			# had one value has no column for it): one "external SRC -> DST x P"
			# line per congested pair
			cfg=$(awk '$1 == "seed" { s = $2 } $1 == "external" { n++; p = $6 }
				END { print s, n + 0, p + 0 }' "$r/config.txt")
			awk -F, -v cfg="$cfg" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ printf "N %s %s %s %s %s %s\n", cfg,
				  $c["baseline_mean_gbps"], $c["react_mean_gbps"], $c["improvement_mean_pct"],
				  $c["pattern_changes"], $c["reverts"] }' "$r/summary.csv"
		done
	done
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "F %s %s %s %s %s %s\n", $c["seed"], $c["congested_pairs"], $c["p"],
		  $c["improvement_mean_pct"], $c["oracle_impr_pct"], $c["baseline_mean_gbps"] }' "$flow/runs.csv"
} | awk '
$1 == "F" { k = $2 " " $3 " " $4; fi[k] = $5; fo[k] = $6; fb[k] = $7; next }
$1 == "N" { k = $2 " " $3 " " $4; if (k in nb) next
	n++; key[n] = k; nb[k] = $5; nr[k] = $6; ni[k] = $7; ch[k] = $8; rv[k] = $9 }
END {
	printf "| seed | pairs | p | ns-3 baseline -> REACT (GB/s) | ns-3 gain | changes / reverts | flow: REACT gain | flow: oracle gain | ns-3 / flow baseline |\n"
	printf "|---|---|---|---|---|---|---|---|---|\n"
	# sort by seed, pairs, p
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
		split(key[i], a, " "); split(key[j], b, " ")
		if (a[1] * 10000 + a[2] * 100 + a[3] > b[1] * 10000 + b[2] * 100 + b[3]) { t = key[i]; key[i] = key[j]; key[j] = t }
	}
	for (i = 1; i <= n; i++) {
		k = key[i]; split(k, a, " ")
		if (!(k in fi)) { printf "table.sh: no flow row for seed %s pairs %s p %s\n", a[1], a[2], a[3] > "/dev/stderr"; exit 2 }
		printf "| %s | %s | %s | %.3f -> %.3f | %+.1f %% | %s / %s | %+.1f %% | %+.1f %% | %.2f |\n",
		       a[1], a[2], a[3], nb[k], nr[k], ni[k], ch[k], rv[k], fi[k], fo[k], nb[k] / fb[k]
		sn += ni[k]; sf += fi[k]; so += fo[k]; pos += (ni[k] > 2); neg += (ni[k] < -2)
	}
	printf "\n%d configurations: mean gain ns-3 %+.1f %%, flow %+.1f %%, flow oracle %+.1f %%; ns-3 REACT / flow oracle %.2f; ns-3 gains > 2 %% in %d, losses < -2 %% in %d\n",
	       n, sn / n, sf / n, so / n, (so ? sn / so : 0), pos, neg
}'
