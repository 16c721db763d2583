#!/bin/sh
# Where the oracle beats REACT, is it the search or the estimate?  For every
# REACT run of a decision-benchmark output (bench/decisions/run.sh -t, which
# keeps each run's FCT trace), the run's trace is replayed through the
# controller (react replay --estimate) and, after every batch, the
# controller's estimate of the oracle's pattern against its base pattern
# is read.  The last batch's estimate is set beside the gap the oracle
# leaves: its mean bandwidth over REACT's (both over the epochs after
# warm-up; REACT's includes its tries, so the gap to REACT's final pattern
# is somewhat smaller).
#
# Per set, over the runs the oracle beats by more than 2 %:
#   seen     the estimate puts the oracle's pattern ahead of the base by
#            epsilon (3 %) or more at the end: REACT's search did not reach
#            a pattern its own estimate prefers (a search miss);
#   unseen   ahead by less, or behind: the estimate does not see the gain
#            (an estimate miss);
# and over every run, the mean estimated and observed gap and their
# correlation r.  A replay that diverges from the run is reported (it must
# not: the trace records the run's parameters and seed).
#
# usage: bench/decisions/gap.sh [-B BUILD] [-e ESTIMATOR] DIR [SET...]
#   DIR   run.sh's -o directory (sweeps run with -t); SETs default to every
#         set there whose runs carry traces
#   -e E  the oracle's pattern as estimator E (paper, pattern, overlap or
#         fluid) sees it on each run's own history (react replay
#         --estimate-with): how well E times it, whichever estimator made
#         the run's decisions
set -e
build=build
with=
while getopts "B:e:" opt; do
	case $opt in
	B) build=$OPTARG ;;
	e) with=$OPTARG ;;
	*) sed -n '2,28p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,28p' "$0" >&2; exit 2; }
dir=$1; shift
root=$(cd "$(dirname "$0")/../.." && pwd)
react=$root/$build/react
[ -x "$react" ] || { echo "gap.sh: $react missing: build first (meson compile -C $build)" >&2; exit 2; }
[ -d "$dir" ] || { echo "gap.sh: $dir: no such directory" >&2; exit 2; }
if [ $# -eq 0 ]; then
	for d in "$dir"/*/runs.csv; do
		s=$(basename "$(dirname "$d")")
		ls "$dir/$s"/runs/*/trace-*.jsonl > /dev/null 2>&1 && set -- "$@" "$s"
	done
fi
[ $# -ge 1 ] || { echo "gap.sh: no set in $dir has traces (run bench/decisions/run.sh with -t)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# bench/decisions/gap.sh${with:+ -e $with} $dir; react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# per set: runs the oracle beats by > 2 %, seen (estimate >= +3 % at the end) / unseen; over all runs: mean estimated and observed gap, r"
for set in "$@"; do
	csv=$dir/$set/runs.csv
	[ -f "$csv" ] || { echo "gap.sh: $csv missing" >&2; exit 2; }
	# id job react_gbps oracle_gbps, by header name
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["react"] == 1 && $c["oracle_mean_gbps"] != "" {
			print $c["id"], $c["job"], $c["react_mean_gbps"], $c["oracle_mean_gbps"] }' "$csv" > "$tmp/runs"
	: > "$tmp/rows"
	while read -r id job rg og; do
		r=$dir/$set/runs/$id
		[ -f "$r/trace-$job.jsonl" ] && [ -f "$r/oracle-$job.json" ] || continue
		if ! "$react" replay "$r/pattern-$job.json" "$r/trace-$job.jsonl" \
			--estimate "$r/oracle-$job.json" ${with:+--estimate-with "$with"} \
			> "$tmp/log" 2> "$tmp/err"; then
			echo "gap.sh: $set $id: replay failed: $(tail -1 "$tmp/err")" >&2
			exit 1
		fi
		est=$(grep '"estimate_hash"' "$tmp/log" | tail -1 | sed 's/.*"est_gain":\([-0-9.e]*\)}.*/\1/')
		[ -n "$est" ] || continue
		echo "$id $est $rg $og" >> "$tmp/rows"
	done < "$tmp/runs"
	awk -v set="$set" '
		{ e = $2; g = $4 / $3 - 1; n++; se += e; sg += g; see += e * e; sgg += g * g; seg += e * g
		  if (g > 0.02) { m++; if (e >= 0.03) seen++; else { unseen++; ids = ids " " $1 } } }
		END {
			if (!n) { printf "%s: no run with a trace and an oracle pattern\n", set; exit }
			vx = see - se * se / n; vy = sgg - sg * sg / n
			r = (vx > 0 && vy > 0) ? sprintf("%.2f", (seg - se * sg / n) / sqrt(vx * vy)) : "n/a"
			printf "%s: %d runs; the oracle beats REACT by > 2 %% in %d: seen %d, unseen %d\n", set, n, m, seen, unseen
			printf "  gap at the end: estimated %+.1f %%, observed %+.1f %% (mean over all runs), r = %s\n", 100 * se / n, 100 * sg / n, r
			if (unseen) printf "  unseen:%s\n", ids
		}' "$tmp/rows"
done
