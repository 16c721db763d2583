#!/bin/sh
# No external congestion, on the flow backend: the tail of REACT's result
# over many seeds (no oracle).  What REACT costs where no external flow
# congests the job is a question of its worst runs, so each set runs 200
# seeds of scenarios/paper/ with no external flow:
#   fig5a-p0   tree AllReduce, fat-tree k = 8: the job's flows rarely
#              collide (little to gain, little to lose)
#   fig12-p0   tree AllReduce, star: nothing to gain
#   fig5b-p0   recursive doubling AllGather, fat-tree k = 8: the job's own
#              flows collide on the per-epoch ECMP draws, epoch times vary
#              by 15-20 % from epoch to epoch, and a fixed pattern can gain
#              (the noisiest regime of the decision benchmark)
# Per set: REACT's mean gain over the baseline (epochs 25-99), the runs
# that lose more than 1 % and the worst, pattern changes and reverts per
# run; then, from bench-decisions over the same runs, the measured epochs
# on patterns later reverted, the changes per 100 epochs in the second
# half and the correlation of estimated and observed gain (the settling
# targets of the decision benchmark, over 200 seeds instead of 5).
#
# usage: bench/decisions/quiet.sh [-B BUILD] [-j N] [-o DIR] [-n SEEDS] [-S KEY=VALUE]...
#   -n SEEDS  seeds per set (default 200)
set -e
build=build
jobs=2
out=
sopts=
nseeds=200
while getopts "B:j:o:n:S:" opt; do
	case $opt in
	B) build=$OPTARG ;;
	j) jobs=$OPTARG ;;
	o) out=$OPTARG ;;
	n) nseeds=$OPTARG ;;
	S) sopts="$sopts --set $OPTARG" ;;
	*) sed -n '2,19p' "$0" >&2; exit 2 ;;
	esac
done
case $nseeds in
'' | *[!0-9]*) echo "quiet.sh: -n: expected a number of seeds, got '$nseeds'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
react=$root/$build/react
[ -x "$react" ] || { echo "quiet.sh: $react missing: build first (meson compile -C $build)" >&2; exit 2; }
bd=$root/$build/bench/decisions/bench-decisions
[ -x "$bd" ] || { echo "quiet.sh: $bd missing: build first (meson compile -C $build)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/react-quiet-XXXXXX")
echo "# bench/decisions/quiet.sh $*"
echo "# react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), -j $jobs, sweeps in $out"

set_() {
	name=$1; scen=$2
	rm -rf "${out:?}/$name"
	# shellcheck disable=SC2086
	"$react" sweep "$root/scenarios/paper/$scen.yaml" --set seed="1..$nseeds" \
		--set congestion.external.p=0 --set congestion.external.congested_pairs=1 \
		-o "$out/$name" -j "$jobs" --no-plot --quiet $sopts > /dev/null
	# runs.csv's columns are found by name
	awk -F, -v name="$name" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ g = $col["improvement_mean_pct"]; s += g; n++
		  if (n == 1 || g < lo) lo = g
		  if (g < -1) bad++
		  ch += $col["pattern_changes"]; rv += $col["reverts"] }
		END { printf "%-9s %3d runs: mean gain %+.2f %%, %d runs below -1 %%, worst %+.2f %%; per run %.2f changes, %.2f reverts\n",
		      name, n, s / n, bad, lo, ch / n, rv / n }' "$out/$name/runs.csv"
	# the settling figures of the decision benchmark over the same runs
	"$bd" "$out/$name" | grep -E 'later reverted|second half|estimated vs observed' | sed 's/^ */          /'
}
set_ fig5a-p0 fig5a
set_ fig12-p0 fig12
set_ fig5b-p0 fig5b
