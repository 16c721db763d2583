#!/bin/sh
# Regenerates the figures of results/paper on one flow-level backend: every
# scenario of scenarios/paper/ with the default controller and with the
# paper's literal readings (--set params.profile=paper), then the oracle
# beside both profiles on subsets of every figure (runs.csv with
# oracle_mean_gbps and captured, the oracle's line in the plots).
#
#   --backend flow (default), the max-min backend:
#     <fig>/, <fig>-paper/; the no-congestion runs <fig>-p0/, <fig>-p0-paper/
#     (fig5a, fig5b, fig12); the subsets <fig>-oracle/, <fig>-oracle-paper/.
#     The oracle searches about 30 s per configuration of 8 ranks and
#     minutes for two jobs or 16 ranks, so results found in ORACLE_CACHE
#     (default results/paper/oracle-cache, not committed) are reused, and
#     that cache is first given the stored results of
#     bench/decisions/oracle-cache.tar.xz (every configuration of these
#     subsets; ORACLE_SEED=none: not).  From scratch, spread the searches
#     over many cores with react sweep --mpi (docs/mpi.md).
#   --backend dctcp, the DCTCP window model at MTU 9000:
#     <fig>-dctcp/, <fig>-dctcp-paper/; the subsets <fig>-dctcp-oracle/,
#     <fig>-dctcp-oracle-paper/.  The oracle searches on the max-min backend
#     and runs its 16 best patterns on the window model (--oracle-opt
#     proxy=flow, docs/oracle.md); ORACLE_CACHE defaults to
#     results/paper/oracle-cache-dctcp (not committed).  About two hours on
#     2 cores without a cache.
#
# A directory's README.md (the history of its reruns) is kept; everything
# else in it is the sweep's.  The per-run directories are not committed and
# are removed at the end (the command recreates them, identical).
#
#   results/paper/make.sh [--backend flow|dctcp] [-j N]
#                         [--no-oracle | --oracle-only]
#                         [-s fig6,fig7a,...] [-p default|paper]
#   (from the repository root; REACT=PATH: the react program to run,
#   default build/react; PAPER_DIR=DIR: where the directories go, default
#   results/paper; -s: only those figures; -p: one profile's
#   directories only, e.g. after a change of the defaults, which the paper
#   profile does not run; --oracle-only: the oracle's subsets alone)
set -eu
figs="fig5a fig5b fig6 fig7a fig7b fig8 fig12"
only=
# -s FIGS, comma-separated: only those (exit 2 naming one that is not a figure)
figs_only() {
	only=",$1,"
	for f in $(echo "$1" | tr , ' '); do
		case " $figs " in *" $f "*) ;; *) echo "make.sh: -s: '$f' is not one of: $figs" >&2; exit 2 ;; esac
	done
}
# true when FIG is selected (all when -s was not given)
want() { case $only in "" | *",$1,"*) return 0 ;; *) return 1 ;; esac; }
backend=flow
j=2
oracle=1
sweeps=1
profs="default paper"
while [ $# -gt 0 ]; do
	case $1 in
	--backend) [ $# -ge 2 ] || { echo "make.sh: --backend: expected flow or dctcp" >&2; exit 2; }
	    case $2 in flow | dctcp) backend=$2 ;;
	    *) echo "make.sh: --backend: '$2' is not a backend (expected flow or dctcp)" >&2; exit 2 ;; esac
	    shift 2 ;;
	-j) j=$2; shift 2 ;;
	--no-oracle) oracle=0; shift ;;
	--oracle-only) sweeps=0; shift ;;
	-s) figs_only "$2"; shift 2 ;;
	-p) case $2 in default | paper) profs=$2 ;;
	    *) echo "make.sh: -p: '$2' is not a profile (expected default or paper)" >&2; exit 2 ;; esac
	    shift 2 ;;
	*) echo "make.sh: unknown argument '$1' (expected --backend B, -j N, --no-oracle, --oracle-only, -s FIGS or -p PROFILE)" >&2; exit 2 ;;
	esac
done
R=${REACT:-build/react}
[ -x "$R" ] || { echo "make.sh: $R: no such program (build first: meson compile -C build; or set REACT)" >&2; exit 2; }
out=${PAPER_DIR:-results/paper}
if [ $backend = flow ]; then
	tag=""; B=""; oopt=""
	cache=${ORACLE_CACHE:-results/paper/oracle-cache}
	seed=${ORACLE_SEED:-bench/decisions/oracle-cache.tar.xz}
else
	tag=-$backend; B="--backend $backend --set mtu=9000"; oopt="--oracle-opt proxy=flow"
	cache=${ORACLE_CACHE:-results/paper/oracle-cache-$backend}
	seed=none
fi
if [ $oracle = 1 ] && [ "$seed" != none ] && [ ! -f "$seed" ]; then
	echo "make.sh: ORACLE_SEED: $seed: no such file" >&2
	exit 2
fi
written=
# run DIR ARGS...: one sweep into $out/DIR, its README.md kept
run() {
	d=$out/$1; shift
	[ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
	written="$written $d"
	# shellcheck disable=SC2086
	$R sweep "$@" $B -j "$j" -o "$d" --quiet </dev/null >/dev/null
}
# the directory suffix and the override of a profile
prof_sfx() { [ "$1" = paper ] && echo -paper || true; }
prof_set() { [ "$1" = paper ] && echo "--set params.profile=paper" || true; }
[ $oracle = 1 ] || [ $sweeps = 1 ] || { echo "make.sh: --no-oracle and --oracle-only leave nothing to run" >&2; exit 2; }
for prof in $profs; do
	[ $sweeps = 1 ] || break
	for f in $figs; do
		want $f || continue
		# shellcheck disable=SC2046
		run "$f$tag$(prof_sfx $prof)" scenarios/paper/$f.yaml $(prof_set $prof)
	done
	[ $backend = flow ] || continue
	for f in fig5a fig5b fig12; do
		want $f || continue
		# shellcheck disable=SC2046
		run "$f-p0$(prof_sfx $prof)" scenarios/paper/$f.yaml $(prof_set $prof) \
			--set congestion.external.congested_pairs=0 --set congestion.external.p=0
	done
done
# the oracle's subsets: figure and overrides, per backend
subsets() {
	if [ $backend = flow ]; then
		cat <<EOF
fig5a --set seed=1..5
fig5b --set seed=1..3
fig12 --set seed=1..3
fig8 --set seed=1..3
fig6 --set seed=1 --set jobs.1.placement.shared=0..3
fig7a --set seed=1
fig7b --set seed=1
EOF
	else
		cat <<EOF
fig5a --set seed=1 --set congestion.external.p=[2,4] --set congestion.external.congested_pairs=1..6
fig5b --set seed=1 --set congestion.external.p=4 --set congestion.external.congested_pairs=[1,3]
fig12 --set seed=1 --set congestion.external.p=4 --set congestion.external.congested_pairs=1..6
fig8 --set seed=1 --set congestion.degraded_links.count=[4,16] --set congestion.degraded_links.rate=[30Gbps,50Gbps]
fig6 --set seed=1 --set jobs.1.placement.shared=0..3
fig7a --set seed=1
fig7b --set seed=1
EOF
	fi
}
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
		for prof in $profs; do
			# shellcheck disable=SC2046,SC2086
			run "$f$tag-oracle$(prof_sfx $prof)" scenarios/paper/$f.yaml $sets \
				--oracle --oracle-cache "$cache" $oopt $(prof_set $prof)
		done
	done <<EOF
$(subsets)
EOF
fi
# per-run directories are not committed (the command recreates them)
for d in $written; do
	rm -rf "$d/runs"
done
