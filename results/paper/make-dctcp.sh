#!/bin/sh
# Regenerates the DCTCP window model's directories of results/paper: every
# scenario of scenarios/paper/ on --backend dctcp at MTU 9000 with the
# default controller (<fig>-dctcp/) and the paper profile
# (<fig>-dctcp-paper/), then the oracle beside both on subsets
# (<fig>-dctcp-oracle/, <fig>-dctcp-oracle-paper/).  The oracle searches on
# the max-min backend and runs its 16 best patterns on the window model
# (--oracle-opt proxy=flow, docs/oracle.md); results found in ORACLE_CACHE
# (default results/paper/oracle-cache-dctcp, not committed) are reused.
# Each directory's README.md is left as it is.
#   results/paper/make-dctcp.sh [-j N] [--no-oracle] [-s fig8,fig6,...]
#                               [-p default|paper]
#   (from the repository root; about two hours on 2 cores without a cache;
#   -p: one profile's directories only, e.g. after a change of the
#   defaults, which the paper profile does not run)
set -eu
. "$(dirname "$0")/figs.sh"
j=2
oracle=1
profs="default paper"
while [ $# -gt 0 ]; do
	case $1 in
	-j) j=$2; shift 2 ;;
	--no-oracle) oracle=0; shift ;;
	-s) figs_only make-dctcp.sh "$2"; shift 2 ;;
	-p) case $2 in default | paper) profs=$2 ;;
	    *) echo "make-dctcp.sh: -p: '$2' is not a profile (expected default or paper)" >&2; exit 2 ;; esac
	    shift 2 ;;
	*) echo "make-dctcp.sh: unknown argument '$1' (expected -j N, --no-oracle, -s FIGS or -p PROFILE)" >&2; exit 2 ;;
	esac
done
cache=${ORACLE_CACHE:-results/paper/oracle-cache-dctcp}
R=build/react
out=results/paper
B="--backend dctcp --set mtu=9000"
# keep each directory's README.md: everything else is the sweep's
clean() { [ -d "$1" ] && find "$1" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +; return 0; }
for f in $figs; do
	want $f || continue
	for prof in $profs; do
		sfx=-dctcp; set_prof=""
		[ $prof = paper ] && { sfx=-dctcp-paper; set_prof="--set params.profile=paper"; }
		clean "$out/$f$sfx"
		# shellcheck disable=SC2086
		$R sweep scenarios/paper/$f.yaml $B -j "$j" -o "$out/$f$sfx" --quiet $set_prof >/dev/null
	done
done
if [ $oracle = 1 ]; then
	mkdir -p "$cache"
	while read -r f sets; do
		want $f || continue
		for prof in $profs; do
			sfx=-dctcp-oracle; set_prof=""
			[ $prof = paper ] && { sfx=-dctcp-oracle-paper; set_prof="--set params.profile=paper"; }
			clean "$out/$f$sfx"
			# shellcheck disable=SC2086
			$R sweep scenarios/paper/$f.yaml $sets $B -j "$j" -o "$out/$f$sfx" --quiet \
				--oracle --oracle-cache "$cache" --oracle-opt proxy=flow $set_prof >/dev/null
		done
	done <<EOT
fig5a --set seed=1 --set congestion.external.p=[2,4] --set congestion.external.congested_pairs=1..6
fig5b --set seed=1 --set congestion.external.p=4 --set congestion.external.congested_pairs=[1,3]
fig12 --set seed=1 --set congestion.external.p=4 --set congestion.external.congested_pairs=1..6
fig8 --set seed=1 --set congestion.degraded_links.count=[4,16] --set congestion.degraded_links.rate=[30Gbps,50Gbps]
fig6 --set seed=1 --set jobs.1.placement.shared=0..3
fig7a --set seed=1
fig7b --set seed=1
EOT
fi
# per-run directories are not committed (the command recreates them)
rm -rf "$out"/*-dctcp*/runs
