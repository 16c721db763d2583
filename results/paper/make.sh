#!/bin/sh
# Regenerates the flow-level figures of results/paper: every scenario of
# scenarios/paper/ with the default controller (<fig>/) and with the paper's
# literal readings (<fig>-paper/, --set params.profile=paper), plus the
# no-congestion runs (<fig>-p0/, <fig>-p0-paper/).  Then the oracle beside
# both profiles on subsets of every figure (<fig>-oracle/, <fig>-oracle-
# paper/: the same configurations, runs.csv with oracle_mean_gbps and
# captured): the oracle searches about 30 s per configuration of 8 ranks and
# minutes for two jobs or 16 ranks, so results found in ORACLE_CACHE
# (default results/paper/oracle-cache, not committed) are reused, and a
# cache is first given the stored results of bench/decisions/oracle-cache.
# tar.xz (every configuration of these subsets; ORACLE_SEED=none: not);
# spread a search from scratch over many cores with react sweep --mpi
# (docs/mpi.md).
#   results/paper/make.sh [-j N] [--no-oracle] [-s fig6,fig7a,...]
#   (from the repository root; -s: only those figures' directories)
set -eu
. "$(dirname "$0")/figs.sh"
j=2
oracle=1
while [ $# -gt 0 ]; do
	case $1 in
	-j) j=$2; shift 2 ;;
	--no-oracle) oracle=0; shift ;;
	-s) figs_only make.sh "$2"; shift 2 ;;
	*) echo "make.sh: unknown argument '$1' (expected -j N, --no-oracle or -s FIGS)" >&2; exit 2 ;;
	esac
done
cache=${ORACLE_CACHE:-results/paper/oracle-cache}
seed=${ORACLE_SEED:-bench/decisions/oracle-cache.tar.xz}
if [ $oracle = 1 ] && [ "$seed" != none ] && [ ! -f "$seed" ]; then
	echo "make.sh: ORACLE_SEED: $seed: no such file" >&2
	exit 2
fi
R=build/react
out=results/paper
for prof in default paper; do
	sfx=""; set_prof=""
	[ $prof = paper ] && { sfx="-paper"; set_prof="--set params.profile=paper"; }
	for f in $figs; do
		want $f || continue
		rm -rf "$out/$f$sfx"
		$R sweep scenarios/paper/$f.yaml -j "$j" -o "$out/$f$sfx" --quiet $set_prof >/dev/null
	done
	for f in fig5a fig5b fig12; do
		want $f || continue
		rm -rf "$out/$f-p0$sfx"
		$R sweep scenarios/paper/$f.yaml -j "$j" -o "$out/$f-p0$sfx" --quiet $set_prof \
			--set congestion.external.congested_pairs=0 --set congestion.external.p=0 >/dev/null
	done
done
# the oracle's subsets: figure and overrides
if [ $oracle = 1 ]; then
	mkdir -p "$cache"
	# a result already in the cache is kept (a stale one is searched
	# again by react sweep: docs/oracle.md)
	if [ "$seed" != none ]; then
		tar -xJf "$seed" -C "$cache" --skip-old-files ||
			{ echo "make.sh: ORACLE_SEED: $seed: cannot unpack" >&2; exit 2; }
	fi
	while read -r f sets; do
		want $f || continue
		for prof in default paper; do
			sfx=""; set_prof=""
			[ $prof = paper ] && { sfx="-paper"; set_prof="--set params.profile=paper"; }
			rm -rf "$out/$f-oracle$sfx"
			# shellcheck disable=SC2086
			$R sweep scenarios/paper/$f.yaml $sets -j "$j" -o "$out/$f-oracle$sfx" --quiet \
				--oracle --oracle-cache "$cache" $set_prof >/dev/null
		done
	done <<EOF
fig5a --set seed=1..5
fig5b --set seed=1..3
fig12 --set seed=1..3
fig8 --set seed=1..3
fig6 --set seed=1 --set jobs.1.placement.shared=0..3
fig7a --set seed=1
fig7b --set seed=1
EOF
fi
# per-run directories are not committed (the command recreates them)
rm -rf "$out"/*/runs
