#!/bin/sh
# The oracle's gain on fresh ECMP draws (docs/oracle.md, "What the oracle's
# gain means where epochs are noisy").
#
# usage: bench/decisions/fresh-ecmp.sh SWEEP_DIR [-e ECMP_SEEDS] [-B BUILD] [-w FILE]
#
#   SWEEP_DIR  a sweep of scenarios/paper/fig8.yaml made with --oracle whose
#              axes are seed, count and rate (bench/decisions/run.sh makes
#              one: DIR/fig8); its runs hold each configuration's oracle
#              pattern (runs/<id>/oracle-tree.json), searched on the run's
#              own ECMP draws (ecmp_seed = seed)
#   -e LIST    the fresh ECMP draws: a list or range for ecmp_seed (default
#              1001..1008)
#   -B BUILD   build directory (default build)
#   -w FILE    also write the report to FILE
#
# For every configuration and fresh ecmp_seed E, with the same placement and
# degraded links (seed, count, rate unchanged):
#   - the baseline (generated pattern) and REACT: react sweep fig8.yaml
#     --set ecmp_seed=E ...
#   - the oracle's pattern as a fixed pattern: the same with
#     --set jobs.0.pattern=runs/<id>/oracle-tree.json --set jobs.0.react=false
# and, as a check, the oracle's pattern on its own draws (no ecmp_seed): its
# baseline must equal the oracle's oracle_mean_gbps.  Gains are means over
# the runs of (x / baseline - 1) with x and the baseline on the same draws;
# captured = mean REACT gain / mean oracle gain (bench-decisions' definition);
# se: the standard error of a mean gain over its runs (the fresh runs of one
# configuration are not independent of each other, so it is a lower bound).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build
seeds=1001..1008
report=
[ $# -ge 1 ] || { sed -n '2,26p' "$0" >&2; exit 2; }
sweep=$1; shift
while getopts e:B:w: o; do
	case $o in
	e) seeds=$OPTARG ;;
	B) build=$OPTARG ;;
	w) report=$OPTARG ;;
	*) exit 2 ;;
	esac
done
react=$root/$build/react
[ -x "$react" ] || react=$build/react
scen=$root/scenarios/paper/fig8.yaml
out=$(mktemp -d "${TMPDIR:-/tmp}/fresh-ecmp.XXXXXX")
trap 'rm -rf "$out"' EXIT
[ "$(head -1 "$sweep/runs.csv" | cut -d, -f2-4,17)" = "seed,count,rate,oracle_mean_gbps" ] ||
	{ echo "$sweep/runs.csv: expected the axes seed,count,rate and --oracle" >&2; exit 2; }

# id seed count rate baseline react oracle (own draws), from the sweep
tail -n +2 "$sweep/runs.csv" | awk -F, '{ print $1, $2, $3, $4, $7, $9, $17 }' > "$out/own.txt"

: > "$out/fresh.txt"
: > "$out/check.txt"
while read -r id seed count rate base rct orc; do
	set -- --set seed="$seed" --set congestion.degraded_links.count="$count" \
		--set congestion.degraded_links.rate="$rate"
	pat=$sweep/runs/$id/oracle-tree.json
	"$react" sweep "$scen" "$@" --set ecmp_seed="$seeds" -o "$out/$id-gen" \
		-j 1 --no-plot --quiet > /dev/null
	"$react" sweep "$scen" "$@" --set ecmp_seed="$seeds" --set jobs.0.pattern="$pat" \
		--set jobs.0.react=false -o "$out/$id-orc" -j 1 --no-plot --quiet > /dev/null
	"$react" sweep "$scen" "$@" --set jobs.0.pattern="$pat" --set jobs.0.react=false \
		-o "$out/$id-own" -j 1 --no-plot --quiet > /dev/null
	# runs.csv columns: id,ecmp_seed,job,react,baseline_mean_gbps,_,react_mean_gbps
	paste -d, "$out/$id-gen/runs.csv" "$out/$id-orc/runs.csv" | tail -n +2 |
		awk -F, -v id="$id" '{ print id, $2, $5, $7, $19 }' >> "$out/fresh.txt"
	own=$(tail -1 "$out/$id-own/runs.csv" | cut -d, -f4)
	echo "$id $orc $own" >> "$out/check.txt"
done < "$out/own.txt"

{
	echo "# bench/decisions/fresh-ecmp.sh $sweep -e '$seeds'"
	echo "# react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
	echo "# per configuration: gains on the run's own ECMP draws (the sweep) and mean gains over the fresh draws"
	echo "# id      seed count rate    own: react  oracle  | fresh: react  oracle-pattern"
	awk 'NR == FNR { r[$1] += $4 / $3 - 1; o[$1] += $5 / $3 - 1; n[$1]++; next }
	     { printf "%-8s %4s %5s %-7s   %+7.2f%% %+7.2f%% |       %+7.2f%% %+7.2f%%\n",
	       $1, $2, $3, $4, 100 * ($6 / $5 - 1), 100 * ($7 / $5 - 1),
	       100 * r[$1] / n[$1], 100 * o[$1] / n[$1] }' "$out/fresh.txt" "$out/own.txt"
	awk 'function se(s, q, n) { return n > 1 ? 100 * sqrt((q - s * s / n) / (n - 1) / n) : 0 }
	     NR == FNR { x = $4 / $3 - 1; y = $5 / $3 - 1; fr += x; fo += y; frq += x * x
	                 foq += y * y; fn++; next }
	     { x = $6 / $5 - 1; y = $7 / $5 - 1; orr += x; oo += y; orq += x * x; ooq += y * y; on++ }
	     END {
	       printf "own draws (%d runs):   REACT %+.2f %% (se %.2f), oracle %+.2f %% (se %.2f); captured %.3f\n",
	              on, 100 * orr / on, se(orr, orq, on), 100 * oo / on, se(oo, ooq, on), orr / oo
	       printf "fresh draws (%d runs): REACT %+.2f %% (se %.2f), oracle pattern %+.2f %% (se %.2f); captured %.3f\n",
	              fn, 100 * fr / fn, se(fr, frq, fn), 100 * fo / fn, se(fo, foq, fn), fr / fo
	       printf "REACT on own draws against the oracle pattern on fresh draws: captured %.3f\n",
	              (orr / on) / (fo / fn)
	     }' "$out/fresh.txt" "$out/own.txt"
	awk '{ n++; if ($2 == $3) same++ }
	     END { printf "check: the oracle pattern run through pattern: on its own draws gives the oracle'"'"'s algbw in %d of %d configurations\n", same, n }' \
		"$out/check.txt"
} > "$out/report"
[ -z "$report" ] || { cp "$out/report" "$report.tmp.$$" && mv "$report.tmp.$$" "$report"; }
cat "$out/report"
