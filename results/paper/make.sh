#!/bin/sh
# Regenerates the flow-level figures of results/paper: every scenario of
# scenarios/paper/ with the default controller (<fig>/) and with the paper's
# literal readings (<fig>-paper/, --set params.profile=paper), plus the
# no-congestion runs (<fig>-p0/, <fig>-p0-paper/).  The oracle beside them is
# in results/bench/decisions.txt (bench/decisions/run.sh, subsets of these
# figures).
#   results/paper/make.sh [-j N]      (from the repository root)
set -eu
j=2
[ "${1:-}" = "-j" ] && j=$2
R=build/react
out=results/paper
for prof in default paper; do
	sfx=""; set_prof=""
	[ $prof = paper ] && { sfx="-paper"; set_prof="--set params.profile=paper"; }
	for f in fig5a fig5b fig6 fig7a fig7b fig8 fig12; do
		rm -rf "$out/$f$sfx"
		$R sweep scenarios/paper/$f.yaml -j "$j" -o "$out/$f$sfx" --quiet $set_prof >/dev/null
	done
	for f in fig5a fig5b fig12; do
		rm -rf "$out/$f-p0$sfx"
		$R sweep scenarios/paper/$f.yaml -j "$j" -o "$out/$f-p0$sfx" --quiet $set_prof \
			--set congestion.external.congested_pairs=0 --set congestion.external.p=0 >/dev/null
	done
done
# per-run directories are not committed (the command recreates them)
rm -rf "$out"/*/runs
