#!/bin/sh
# Scaling of `react sweep --mpi`: the wall time of one fixed sweep
# (bench/sweep/sweep-bench.yaml: 24 configurations of unequal cost on the
# DCTCP window model) on 1 rank and on N ranks, the speedup and the parallel
# efficiency T1 / (N x TN), against the target of 90 % where configurations
# outnumber ranks 10 to 1.  `-j 1` (no MPI) is timed too: the cost of MPI
# itself.  Each case runs REPS times (default 3), interleaved, and the
# fastest counts (other load on the machine only slows a run down); every
# run's files must be identical to the first's.
#
# usage: bench/sweep/run.sh [BUILD] [N...]      (default: build 1 2)
#   e.g. bench/sweep/run.sh build-mpi 1 2 | tee results/bench/sweep-mpi.txt
# SEEDS=A..B widens the sweep (8 configurations a seed; default 1..3, 24
# configurations): 10 to 1 at 16 ranks needs SEEDS=1..20.  NOJ1=1 leaves
# the `-j 1` case out (its cost against np 1 is known from smaller runs).
# BIND=core binds each rank to a core (mpirun --bind-to core) where N is
# at most the machine's CPUs; the default, none, lets the kernel place them.
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
[ $# -gt 0 ] && shift
nps=${*:-1 2}
reps=${REPS:-3}
seeds=${SEEDS:-1..3}
noj1=${NOJ1:-0}
bind=${BIND:-none}
case $bind in none | core) ;; *) echo "run.sh: BIND=$bind: expected none or core" >&2; exit 2 ;; esac
react=$build/react
scen=bench/sweep/sweep-bench.yaml
[ -x "$react" ] || { echo "run.sh: $react: not built (meson compile -C $build)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "run.sh: mpirun not found (Debian: openmpi-bin)" >&2; exit 2; }
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/react-bench-sweep-XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
# one sweep into a fresh directory; prints its wall time in seconds
timed() { # NAME COMMAND...
	name=$1
	shift
	rm -rf "$work/$name"
	t0=$(now)
	"$@" "$scen" --set "seed=$seeds" -o "$work/$name" --no-plot --quiet >"$work/$name.log" 2>&1 ||
		{ cat "$work/$name.log" >&2; echo "run.sh: $name failed" >&2; exit 1; }
	t1=$(now)
	if [ -d "$work/ref" ]; then
		diff -r "$work/ref" "$work/$name" >/dev/null ||
			{ echo "run.sh: $name: files differ from the first run's" >&2; exit 1; }
	else
		cp -r "$work/$name" "$work/ref"
	fi
	echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}
min() { # the smaller of BEST (may be empty) and T
	if [ -z "$1" ]; then echo "$2"; else echo "$1 $2" | awk '{print ($2 < $1) ? $2 : $1}'; fi
}

echo "# bench/sweep/run.sh $build $nps   (REPS=$reps)"
echo "# $(uname -n): $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
nconf=$(echo "$seeds" | awk -F'[.][.]' '{print 8 * ($NF - $1 + 1)}')
echo "# sweep: $scen, seed=$seeds ($nconf configurations), each case the fastest of $reps"
echo "# mpirun -np N --oversubscribe --bind-to $bind (none where N > $(nproc)) $react sweep $scen --set seed=$seeds -o DIR --mpi --no-plot --quiet"
best_j1=""
for np in $nps; do eval "best_$np=''"; done
r=1
while [ "$r" -le "$reps" ]; do
	if [ "$noj1" = 1 ]; then
		line="rep $r:"
	else
		t=$(timed j1 "$react" sweep -j 1)
		best_j1=$(min "$best_j1" "$t")
		line="rep $r: -j 1 ${t}s,"
	fi
	for np in $nps; do
		b=$bind
		[ "$np" -le "$(nproc)" ] || b=none
		t=$(timed "np$np" mpirun -np "$np" --oversubscribe --bind-to "$b" "$react" sweep --mpi)
		eval "best_$np=\$(min \"\$best_$np\" \"$t\")"
		line="$line np $np ${t}s"
	done
	echo "# $line"
	r=$((r + 1))
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
eval "t1=\$best_$(echo "$nps" | cut -d' ' -f1)"
printf '%-12s %10s %8s %11s\n' "case" "wall_s" "speedup" "efficiency"
[ "$noj1" = 1 ] || printf '%-12s %10s %8s %11s\n' "-j 1" "$best_j1" "-" "-"
for np in $nps; do
	eval "t=\$best_$np"
	echo "np $np $t $t1" | awk '{s = $4 / $3; printf "%-12s %10.2f %8.2f %10.1f%%\n", "--mpi np " $2, $3, s, 100 * s / $2}'
done
[ "$noj1" = 1 ] || echo "MPI's own cost: np 1 / -j 1 = $(echo "$t1 $best_j1" | awk '{printf "%.3f", $1 / $2}')"
