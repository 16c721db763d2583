#!/bin/sh
# Congestion that changes during a run, on the flow backend: REACT's gain
# after the change (no oracle: a fixed pattern is the wrong yardstick for
# a network that changes).  Three sets on scenarios/paper/fig5a.yaml, 200
# epochs each:
#   onset    external flows start at 400 ms (about epoch 50): seeds 1..10,
#            p {2, 4}, congested_pairs {1, 2, 4}                (60 runs)
#   weak     the same with p 1, congested_pairs {1, 2}, seeds 11..30:
#            the baseline's epoch time grows by 6-30 %          (40 runs)
#   release  external flows end at 400 ms: seeds 1..10, p {2, 4},
#            congested_pairs {1, 2, 4}; after it nothing can be gained (60 runs)
# Per set: the mean gain over the epochs from `from` (50 for onset and
# weak, 60 for release, after both runs' release), the worst run, and the
# pattern changes per 100 epochs over the last 75 epochs.
#
# usage: bench/decisions/moving.sh [-B BUILD] [-j N] [-o DIR] [-S KEY=VALUE]...
set -e
build=build
jobs=2
out=
sopts=
while getopts "B:j:o:S:" opt; do
	case $opt in
	B) build=$OPTARG ;;
	j) jobs=$OPTARG ;;
	o) out=$OPTARG ;;
	S) sopts="$sopts --set $OPTARG" ;;
	*) sed -n '2,19p' "$0" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
react=$root/$build/react
[ -x "$react" ] || { echo "moving.sh: $react missing: build first (meson compile -C $build)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/react-moving-XXXXXX")
echo "# bench/decisions/moving.sh $*"
echo "# react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), -j $jobs, sweeps in $out"

# name from seeds p pairs start|end
set_() {
	name=$1; from=$2; seeds=$3; p=$4; pairs=$5; when=$6
	# shellcheck disable=SC2086
	"$react" sweep "$root/scenarios/paper/fig5a.yaml" --set seed="$seeds" \
		--set congestion.external.p="$p" --set congestion.external.congested_pairs="$pairs" \
		--set "congestion.external.$when=400ms" --set jobs.tree.epochs=200 \
		-o "$out/$name" -j "$jobs" --no-plot --quiet $sopts > /dev/null
	for f in "$out/$name"/runs/*/epochs.csv; do
		awk -F, -v from="$from" '
			$1 == "baseline" && $3 >= from { b += $6; nb++ }
			$1 == "react" && $3 >= from { r += $6; nr++ }
			$1 == "react" && $3 >= 125 { ch += $8 }
			END { printf "%.6f %d\n", 100 * (r / nr) / (b / nb) - 100, ch }' "$f"
	done | awk -v name="$name" -v from="$from" '
		{ s += $1; n++; if (n == 1 || $1 < lo) lo = $1; ch += $2 }
		END { printf "%-8s %3d runs: mean gain from epoch %d %+.2f %%, worst %+.2f %%, changes per 100 epochs in epochs 125-199 %.2f\n",
		      name, n, from, s / n, lo, 100 * ch / (75 * n) }'
}
set_ onset 50 1..10 '[2,4]' '[1,2,4]' start
set_ weak 50 11..30 1 '[1,2]' start
set_ release 60 1..10 '[2,4]' '[1,2,4]' end
