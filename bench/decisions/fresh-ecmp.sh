#!/bin/sh
# The oracle's gain on fresh ECMP draws (docs/oracle.md, "What the oracle's
# gain means where epochs are noisy").
#
# usage: bench/decisions/fresh-ecmp.sh SWEEP_DIR [-f SCENARIO] [-S KEY=VALUE]...
#                                      [-e ECMP_SEEDS] [-B BUILD] [-w FILE]
#
#   SWEEP_DIR  a one-job sweep made with --oracle (bench/decisions/run.sh
#              makes them: DIR/fig8, DIR/fig8-allreduce); its runs hold each
#              configuration's oracle pattern (runs/<id>/oracle-<job>.json),
#              searched on the run's own ECMP draws.  Its axes (the columns
#              of runs.csv between id and job) must be among seed, count,
#              rate, algorithm, p and congested_pairs
#   -f FILE    the scenario the sweep ran (default scenarios/paper/fig8.yaml)
#   -S K=V     a setting the sweep fixed without sweeping it (repeatable),
#              e.g. -S congestion.degraded_links.count=16 for fig8-allreduce
#   -e LIST    the fresh draws: a list or range for ecmp_seed (default
#              1001..1008)
#   -B BUILD   build directory (default build)
#   -w FILE    also write the report to FILE
#
# For every configuration and fresh ecmp_seed E, with the same placement and
# congestion (the configuration's axes and -S unchanged):
#   - the baseline (generated pattern) and REACT: react sweep SCENARIO
#     --set ecmp_seed=E ...
#   - the oracle's pattern as a fixed pattern: the same with
#     --set jobs.0.pattern=runs/<id>/oracle-<job>.json --set jobs.0.react=false
# and, as a check, the oracle's pattern on its own draws (no ecmp_seed): its
# baseline must equal the oracle's oracle_mean_gbps.  Gains are means over
# the runs of (x / baseline - 1) with x and the baseline on the same draws;
# captured = mean REACT gain / mean oracle gain (bench-decisions' definition);
# se: the standard error of a mean gain over its runs (the fresh runs of one
# configuration are not independent of each other, so it is a lower bound).
# Besides the totals, one line per value of every axis but seed that takes
# more than one.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build
seeds=1001..1008
report=
scen=$root/scenarios/paper/fig8.yaml
fixed=
[ $# -ge 1 ] || { sed -n '2,34p' "$0" >&2; exit 2; }
sweep=$1; shift
while getopts f:S:e:B:w: o; do
	case $o in
	f) scen=$OPTARG ;;
	S) case $OPTARG in *=*) fixed="$fixed $OPTARG" ;;
	   *) echo "fresh-ecmp.sh: -S: '$OPTARG': expected KEY=VALUE" >&2; exit 2 ;; esac ;;
	e) seeds=$OPTARG ;;
	B) build=$OPTARG ;;
	w) report=$OPTARG ;;
	*) exit 2 ;;
	esac
done
react=$root/$build/react
[ -x "$react" ] || react=$build/react
[ -x "$react" ] || { echo "fresh-ecmp.sh: $build/react: not built" >&2; exit 2; }
[ -f "$scen" ] || { echo "fresh-ecmp.sh: -f: $scen: no such file" >&2; exit 2; }
[ -f "$sweep/runs.csv" ] || { echo "fresh-ecmp.sh: $sweep/runs.csv: no such file" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/fresh-ecmp.XXXXXX")
trap 'rm -rf "$out"' EXIT

# own.txt: id job baseline react oracle axis=value... (one line per
# configuration), from the sweep's header, so that any axes fit
awk -F, -v f="$sweep/runs.csv" '
	NR == 1 {
		for (i = 1; i <= NF; i++) c[$i] = i
		if (!("job" in c) || !("oracle_mean_gbps" in c)) {
			print f ": expected the columns job and oracle_mean_gbps (a sweep made with --oracle)" > "/dev/stderr"
			bad = 1; exit 2
		}
		na = c["job"] - 2
		for (i = 2; i < c["job"]; i++) {
			if ($i !~ /^(seed|count|rate|algorithm|p|congested_pairs)$/) {
				print f ": axis \"" $i "\": expected seed, count, rate, algorithm, p or congested_pairs" > "/dev/stderr"
				bad = 1; exit 2
			}
			ax[i] = $i
		}
		next
	}
	{
		if (job != "" && $c["job"] != job) {
			print f ": more than one job (" job ", " $c["job"] "): expected a one-job sweep" > "/dev/stderr"
			bad = 1; exit 2
		}
		job = $c["job"]
		s = $1 " " job " " $c["baseline_mean_gbps"] " " $c["react_mean_gbps"] " " $c["oracle_mean_gbps"]
		for (i = 2; i < c["job"]; i++) s = s " " ax[i] "=" $i
		print s
	}
	END { if (bad) exit 2 }' "$sweep/runs.csv" > "$out/own.txt"

# the --set key of an axis
key() {
	case $1 in
	seed) echo seed ;;
	count) echo congestion.degraded_links.count ;;
	rate) echo congestion.degraded_links.rate ;;
	algorithm) echo jobs.0.algorithm ;;
	p) echo congestion.external.p ;;
	congested_pairs) echo congestion.external.congested_pairs ;;
	esac
}

: > "$out/fresh.txt"
: > "$out/check.txt"
while read -r id job base rct orc axes; do
	set --
	for kv in $fixed; do set -- "$@" --set "$kv"; done
	for a in $axes; do set -- "$@" --set "$(key "${a%%=*}")=${a#*=}"; done
	pat=$sweep/runs/$id/oracle-$job.json
	[ -f "$pat" ] || { echo "fresh-ecmp.sh: $pat: no such file (a sweep made with --oracle keeps it)" >&2; exit 2; }
	"$react" sweep "$scen" "$@" --set ecmp_seed="$seeds" -o "$out/$id-gen" \
		-j 1 --no-plot --quiet < /dev/null > /dev/null
	"$react" sweep "$scen" "$@" --set ecmp_seed="$seeds" --set jobs.0.pattern="$pat" \
		--set jobs.0.react=false -o "$out/$id-orc" -j 1 --no-plot --quiet < /dev/null > /dev/null
	"$react" sweep "$scen" "$@" --set jobs.0.pattern="$pat" --set jobs.0.react=false \
		-o "$out/$id-own" -j 1 --no-plot --quiet < /dev/null > /dev/null
	# runs.csv columns: id,ecmp_seed,job,react,baseline_mean_gbps,_,react_mean_gbps
	paste -d, "$out/$id-gen/runs.csv" "$out/$id-orc/runs.csv" | tail -n +2 |
		awk -F, -v id="$id" -v axes="$axes" '{ print id, $2, $5, $7, $19, axes }' >> "$out/fresh.txt"
	own=$(tail -1 "$out/$id-own/runs.csv" | cut -d, -f4)
	echo "$id $orc $own" >> "$out/check.txt"
done < "$out/own.txt"

{
	echo "# bench/decisions/fresh-ecmp.sh $sweep -f ${scen#"$root"/}$(for kv in $fixed; do printf ' -S %s' "$kv"; done) -e '$seeds'"
	echo "# react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
	echo "# per configuration: gains on the run's own ECMP draws (the sweep) and mean gains over the fresh draws"
	echo "# id      own: react  oracle  | fresh: react  oracle-pattern   configuration"
	awk 'NR == FNR { r[$1] += $4 / $3 - 1; o[$1] += $5 / $3 - 1; n[$1]++; next }
	     { a = ""; for (i = 6; i <= NF; i++) a = a " " $i
	       printf "%-8s   %+7.2f%% %+7.2f%% |       %+7.2f%% %+7.2f%%        %s\n",
	       $1, 100 * ($4 / $3 - 1), 100 * ($5 / $3 - 1),
	       100 * r[$1] / n[$1], 100 * o[$1] / n[$1], substr(a, 2) }' "$out/fresh.txt" "$out/own.txt"
	# totals, then one line per value of each axis but seed with several
	awk 'function se(s, q, n) { return n > 1 ? 100 * sqrt((q - s * s / n) / (n - 1) / n) : 0 }
	     function add(g, x, y, own) {
	       if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
	       if (own) { OR[g] += x; OO[g] += y; ORQ[g] += x * x; OOQ[g] += y * y; ON[g]++ }
	       else { FR[g] += x; FO[g] += y; FRQ[g] += x * x; FOQ[g] += y * y; FN[g]++ }
	     }
	     # gains x, y of one run into "all" and into each of its axis values
	     function groups(x, y, own) {
	       add("all", x, y, own)
	       for (i = 6; i <= NF; i++) {
	         split($i, kv, "=")
	         if (kv[1] != "seed") { add(kv[1] "=" kv[2], x, y, own); vals[kv[1], kv[2]] = 1 }
	       }
	     }
	     NR == FNR { groups($4 / $3 - 1, $5 / $3 - 1, 0); next }
	     { groups($4 / $3 - 1, $5 / $3 - 1, 1) }
	     END {
	       for (k in vals) { split(k, p, SUBSEP); cnt[p[1]]++ }
	       for (j = 1; j <= ng; j++) {
	         g = order[j]
	         if (g != "all") { split(g, p, "="); if (cnt[p[1]] < 2) continue }
	         lab = g == "all" ? "" : g ", "
	         printf "%sown draws (%d runs):   REACT %+.2f %% (se %.2f), oracle %+.2f %% (se %.2f); captured %.3f\n",
	                lab, ON[g], 100 * OR[g] / ON[g], se(OR[g], ORQ[g], ON[g]), 100 * OO[g] / ON[g],
	                se(OO[g], OOQ[g], ON[g]), OR[g] / OO[g]
	         printf "%sfresh draws (%d runs): REACT %+.2f %% (se %.2f), oracle pattern %+.2f %% (se %.2f); captured %.3f\n",
	                lab, FN[g], 100 * FR[g] / FN[g], se(FR[g], FRQ[g], FN[g]), 100 * FO[g] / FN[g],
	                se(FO[g], FOQ[g], FN[g]), FR[g] / FO[g]
	         printf "%sREACT on own draws against the oracle pattern on fresh draws: captured %.3f\n",
	                lab, (OR[g] / ON[g]) / (FO[g] / FN[g])
	       }
	     }' "$out/fresh.txt" "$out/own.txt"
	awk '{ n++; if ($2 == $3) same++ }
	     END { printf "check: the oracle pattern run through pattern: on its own draws gives the oracle'"'"'s algbw in %d of %d configurations\n", same, n }' \
		"$out/check.txt"
} > "$out/report"
[ -z "$report" ] || { cp "$out/report" "$report.tmp.$$" && mv "$report.tmp.$$" "$report"; }
cat "$out/report"
