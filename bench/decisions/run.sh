#!/bin/sh
# Decision-quality benchmark: sweeps of subsets of the paper's scenarios with
# the oracle (react sweep --oracle), then bench-decisions over them.
#
# usage: bench/decisions/run.sh [-j N] [-b flow|dctcp] [-o DIR] [-w FILE] [-B BUILD]
#                               [-O KEY=VALUE]... [-S KEY=VALUE]... [-H | -V] [-q]
#                               [-s SET,SET...] [-t] [-N] [-C FILE]
#   -j N     configurations run at once (react sweep -j; default 1)
#   -b B     backend: flow (default) or dctcp; on dctcp the oracle searches on
#            the flow backend and runs its 16 best patterns on dctcp
#            (--oracle-opt proxy=flow), as the exhaustive screen would take
#            hours per configuration there
#   -O K=V   an oracle option (react oracle --help), for every set
#   -S K=V   a scenario override (react sweep --set), for every set: compare
#            controller settings, e.g. -S params.epsilon=0.08 (the oracle
#            does not depend on params, so its cache still serves)
#   -o DIR   where the sweeps go (default $TMPDIR/react-bench-decisions-B); a
#            rerun resumes them, and oracle results are kept in DIR/oracle-cache
#            so that a controller change reruns only baseline and REACT
#   -w FILE  the report (default results/bench/decisions.txt for flow,
#            results/bench/decisions-B.txt otherwise)
#   -B DIR   the meson build directory holding react and bench-decisions
#            (default build)
#   -H       held-out seeds: fig5a 6..10, the other sets 4..6 (the same
#            points on configurations the defaults were not chosen on)
#   -V       validation seeds: fig5a 11..15, the other sets 7..9 (a third
#            set, for a setting chosen on both of the above)
#   -s SETS  only these sets (comma-separated names below; default all)
#   -q       quick: a handful of configurations per set (a smoke test; the
#            report then goes to stdout only unless -w is given)
#   -N       no oracle: the sweeps without --oracle, and every line of the
#            report but the oracle's (captured, the oracle's gain, the
#            worst loss where the oracle gains < 2 %); minutes instead of
#            hours where the oracle cache is cold.  The oracle does not
#            depend on the controller: a stored report's oracle means
#            still hold for the same sets and seeds
#   -C FILE  oracle results to start DIR/oracle-cache with (default
#            bench/decisions/oracle-cache.tar.xz, the results of every set
#            and seed set whose search has run; `-C none`: none): a result
#            already in the cache is kept, and one searched against another
#            baseline than the run's (other backend code) is searched again
#            (docs/oracle.md); bench/decisions/pack-cache.sh adds a run's
#            new results to it
#   -t       also write every REACT run's FCT trace (react sweep --trace),
#            for bench/decisions/gap.sh: does REACT's estimate see the
#            oracle's pattern where the oracle beats REACT?
#
# Sets (scenarios/paper/, overrides with --set):
#   fig5a     seed 1..5, p {2, 4}, congested_pairs 1..6       (60 configurations)
#   fig5a-p0  seed 1..5, p 0 (no congestion)                  (5)
#   fig12     seed 1..3, p {2, 4}, congested_pairs 1..6        (36)
#   fig5b     seed 1..3, p {2, 4}, congested_pairs 1..6        (36)
#   fig5b-p0  seed 1..5, p 0 (no external flow; the job's own flows
#             still collide on ECMP paths)                    (5)
#   fig8      seed 1..3, count {4, 16}, rate {30, 50} Gbps      (12)
#   fig5a-onset  fig5a whose congestion starts mid-run: 200 epochs, the
#             external flows start at 400 ms (about epoch 50); seed 1..3,
#             p {2, 4}, congested_pairs {1, 2, 4}                (18)
#   fig5a-allreduce  fig5a's network and congestion with the two AllReduce
#             algorithms no default was chosen on, ring and rhd
#             (Rabenseifner); seed 1..3, p {2, 4}, congested_pairs {2, 4}
#                                                               (24)
#   fig5a-size  fig5a's network and congestion with messages of 2 MB and
#             200 MB instead of 20 MB (no default was chosen on them);
#             seed 1..3, p {2, 4}, congested_pairs {2, 4}        (24)
#   fig5a-allgather  fig5a's network and congestion with ring AllGather,
#             the one generated pattern no set ran (no default was
#             chosen on it); seed 1..3, p {2, 4}, congested_pairs {2, 4}
#                                                               (12)
#   fig5a-16  fig5a's network and congestion with a 16-rank tree
#             AllReduce (above 9 ranks the oracle is a local search:
#             docs/oracle.md); seed 1..3, p {2, 4}, congested_pairs
#             {2, 4}                                            (12)
#   fig12-allreduce  fig12's star with ring and rhd AllReduce (no
#             default was chosen on them there); seed 1..3, p {2, 4},
#             congested_pairs {2, 4}                             (24)
#   fig5a-p1  fig5a at the paper's third intensity, p = 1 (no default
#             was chosen on it); seed 1..5, congested_pairs 1..6  (30)
#   fig5a-ranks  fig5a's network and congestion with 4 and 6 ranks (no
#             default was chosen on them; 6 is not a power of two) and
#             each of the tree, ring and rhd AllReduce; seed 1..3, p {2,
#             4}, congested_pairs {1, 2, 3}                      (108)
#   fig8-allreduce  fig8's degraded links with ring and rhd AllReduce (no
#             default was chosen on them there); seed 1..3, count 16,
#             rate {30, 50} Gbps                                (12)
#   fig12-allgather  fig12's star with ring and recursive doubling
#             AllGather (no default was chosen on them there); seed
#             1..3, p 4, congested_pairs {2, 4}                 (12)
#   alibaba   fig5a's job and external flows on the 720-host Alibaba
#             network (topologies/alibaba-720.topo; no set ran one job
#             there), tree and ring AllReduce; seed 1..3, p 4,
#             congested_pairs {2, 4}                             (12)
#   fig7a     two 16-rank ring AllReduce jobs on the 720-host Alibaba
#             network, congested only by each other and their own ECMP
#             collisions; REACT on job 1, or on both; seed 1..3  (6,
#             9 jobs with REACT)
#   fig6      a tree and a ring AllReduce job, 8 ranks each, on the star,
#             sharing {2, 4, 6} hosts, REACT on both; seed 1..3  (9, 18
#             jobs with REACT)
set -e
jobs=1
backend=flow
out=
report=
build=build
quick=0
held=0
oopts=
sopts=
only=
trace=
oracle=1
seedc=
while getopts "j:b:o:w:B:O:S:HVqs:tNC:" opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	b) backend=$OPTARG ;;
	o) out=$OPTARG ;;
	w) report=$OPTARG ;;
	B) build=$OPTARG ;;
	O) oopts="$oopts --oracle-opt $OPTARG" ;;
	S) sopts="$sopts --set $OPTARG" ;;
	q) quick=1 ;;
	H) held=1 ;;
	V) held=2 ;;
	s) only=",$OPTARG," ;;
	t) trace=--trace ;;
	N) oracle=0 ;;
	C) seedc=$OPTARG ;;
	*) sed -n '2,99p' "$0" >&2; exit 2 ;;
	esac
done
for x in $(echo "$only" | tr ',' ' '); do
	case $x in fig5a | fig5a-p0 | fig12 | fig5b | fig5b-p0 | fig8 | fig5a-onset | fig5a-allreduce | fig5a-size | fig5a-allgather | fig5a-16 | fig12-allreduce | fig5a-p1 | fig5a-ranks | fig8-allreduce | fig12-allgather | alibaba | fig7a | fig6) ;;
	*) echo "run.sh: -s: '$x' is not a set (expected fig5a, fig5a-p0, fig12, fig5b, fig5b-p0, fig8, fig5a-onset, fig5a-allreduce, fig5a-size, fig5a-allgather, fig5a-16, fig12-allreduce, fig5a-p1, fig5a-ranks, fig8-allreduce, fig12-allgather, alibaba, fig7a or fig6)" >&2; exit 2 ;;
	esac
done
case $backend in
flow) ;;
dctcp) oopts="--oracle-opt proxy=flow $oopts" ;;
*) echo "run.sh: -b: expected flow or dctcp, got '$backend'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
react=$root/$build/react
bench=$root/$build/bench/decisions/bench-decisions
for x in "$react" "$bench"; do
	[ -x "$x" ] || { echo "run.sh: $x missing: build first (meson compile -C $build)" >&2; exit 2; }
done
[ -n "$out" ] || out=${TMPDIR:-/tmp}/react-bench-decisions-$backend
if [ -z "$report" ] && [ $quick = 0 ]; then
	if [ $backend = flow ]; then report=$root/results/bench/decisions.txt
	else report=$root/results/bench/decisions-$backend.txt; fi
fi
[ -n "$seedc" ] || seedc=$root/bench/decisions/oracle-cache.tar.xz
if [ $oracle = 1 ] && [ "$seedc" != none ] && [ ! -f "$seedc" ]; then
	echo "run.sh: -C: $seedc: no such file" >&2
	exit 2
fi
mkdir -p "$out"
seeded=0
if [ $oracle = 1 ] && [ "$seedc" != none ]; then
	mkdir -p "$out/oracle-cache"
	tar -xJf "$seedc" -C "$out/oracle-cache" --skip-old-files ||
		{ echo "run.sh: -C: $seedc: cannot unpack" >&2; exit 2; }
	seeded=$(tar -tJf "$seedc" | grep -c '/oracle\.csv$' || true)
fi

if [ $quick = 1 ]; then
	seeds5=1; seeds3=1; pairs=[1,3]; ps=[4]; counts=[16]; rates=[30Gbps]; opairs=[2]; apairs=[4]
	shared=[4]; rpairs=[2]; ranks=[6]; urates=[30Gbps]; upairs=[4]
else
	seeds5=1..5; seeds3=1..3; pairs=1..6; ps=[2,4]; counts=[4,16]; rates=[30Gbps,50Gbps]; opairs=[1,2,4]
	apairs=[2,4]; shared=[2,4,6]; rpairs=1..3; ranks=[4,6]; urates=[30Gbps,50Gbps]; upairs=[2,4]
fi
[ $held = 1 ] && { seeds5=6..10; seeds3=4..6; }
[ $held = 2 ] && { seeds5=11..15; seeds3=7..9; }

done_sets=
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	echo "# bench/decisions/run.sh $*"
	[ $held = 1 ] && echo "# held-out seeds: fig5a $seeds5, the other sets $seeds3"
	[ $held = 2 ] && echo "# validation seeds: fig5a $seeds5, the other sets $seeds3"
	echo "# backend $backend, -j $jobs, sweeps in $out; $(date -u +%Y-%m-%d) on $(nproc) cores"
	[ $oracle = 1 ] || echo "# without the oracle (-N)"
	[ -z "$oopts" ] || [ $oracle = 0 ] || echo "# oracle options:$oopts"
	[ -z "$sopts" ] || echo "# overrides:$sopts"
	[ $seeded = 0 ] || echo "# oracle cache started with the $seeded results of $(basename "$seedc")"
	echo "# react $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
} > "$tmp"

# name scenario --set... : one set
sweep() {
	name=$1; scen=$2; shift 2
	case $only in "" | *",$name,"*) ;; *) return 0 ;; esac
	done_sets="$done_sets $out/$name"
	t0=$(date +%s)
	if [ $oracle = 1 ]; then
		set -- "$@" --oracle --oracle-cache "$out/oracle-cache" $oopts
	fi
	"$react" sweep "$root/scenarios/paper/$scen.yaml" "$@" --backend "$backend" \
		-o "$out/$name" -j "$jobs" $sopts $trace --no-plot --quiet > "$out/$name.out"
	t1=$(date +%s)
	# configurations, not rows: a configuration of two jobs has a row per job
	n=$(tail -n +2 "$out/$name/runs.csv" | cut -d, -f1 | sort -u | wc -l)
	if [ $oracle = 1 ]; then
		echo "# $name: $n configurations, $((t1 - t0)) s wall with -j $jobs (oracle results found in the cache are not searched again)" >> "$tmp"
	else
		echo "# $name: $n configurations, $((t1 - t0)) s wall with -j $jobs" >> "$tmp"
	fi
}

sweep fig5a fig5a --set seed=$seeds5 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$pairs
sweep fig5a-p0 fig5a --set seed=$seeds5 --set congestion.external.p=0 \
	--set congestion.external.congested_pairs=1
sweep fig12 fig12 --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$pairs
sweep fig5b fig5b --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$pairs
sweep fig5b-p0 fig5b --set seed=$seeds5 --set congestion.external.p=0 \
	--set congestion.external.congested_pairs=1
sweep fig8 fig8 --set seed=$seeds3 --set congestion.degraded_links.count=$counts \
	--set congestion.degraded_links.rate=$rates
sweep fig5a-onset fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$opairs --set congestion.external.start=400ms \
	--set jobs.tree.epochs=200
sweep fig5a-allreduce fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$apairs --set jobs.tree.collective=allreduce \
	--set 'jobs.tree.algorithm=[ring,rhd]'
sweep fig5a-size fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$apairs --set 'jobs.tree.message=[2MB,200MB]'
# the algorithm first: each override is checked as it is applied
sweep fig5a-allgather fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$apairs --set jobs.tree.algorithm=ring \
	--set jobs.tree.collective=allgather
sweep fig5a-16 fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$apairs --set jobs.tree.ranks=16
sweep fig12-allreduce fig12 --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$apairs --set 'jobs.tree.algorithm=[ring,rhd]'
sweep fig5a-p1 fig5a --set seed=$seeds5 --set congestion.external.p=1 \
	--set congestion.external.congested_pairs=$pairs
sweep fig5a-ranks fig5a --set seed=$seeds3 --set congestion.external.p=$ps \
	--set congestion.external.congested_pairs=$rpairs --set jobs.tree.ranks=$ranks \
	--set 'jobs.tree.algorithm=[tree,ring,rhd]'
sweep fig8-allreduce fig8 --set seed=$seeds3 --set congestion.degraded_links.count=16 \
	--set congestion.degraded_links.rate=$urates --set 'jobs.tree.algorithm=[ring,rhd]'
# AllGather takes ring first: each override is checked as it is applied
sweep fig12-allgather fig12 --set seed=$seeds3 --set congestion.external.p=4 \
	--set congestion.external.congested_pairs=$upairs --set jobs.tree.algorithm=ring \
	--set jobs.tree.collective=allgather --set 'jobs.tree.algorithm=[ring,recdbl]'
sweep alibaba fig5a --set seed=$seeds3 --set topology.type=alibaba \
	--set "topology.file=$root/topologies/alibaba-720.topo" --set congestion.external.p=4 \
	--set congestion.external.congested_pairs=$upairs --set 'jobs.tree.algorithm=[tree,ring]'
sweep fig7a fig7a --set seed=$seeds3
sweep fig6 fig6 --set seed=$seeds3 --set jobs.ring.placement.shared=$shared

# shellcheck disable=SC2086
"$bench" $done_sets >> "$tmp"
if [ -n "$report" ]; then
	cp "$tmp" "$report.tmp.$$" && mv "$report.tmp.$$" "$report"
	echo "wrote $report"
fi
cat "$tmp"
