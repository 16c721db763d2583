#!/bin/sh
# The CUDA transport plugin (libreact_gpu_cuda.so) and build/react's loader,
# on machines with or without a GPU:
#   loader  REACT FAKE NOENTRY SRC
#           - a run asking for transport local with REACT_GPU_PLUGIN set to a
#             file that does not exist, to one that is not a shared object,
#             and to a shared object without react_gpu_plugin_v1: exit 2, one
#             error naming the field gpu.transport, the path and dlerror()'s
#             reason, nothing written;
#           - nccl outside mpirun, and under react sweep: refused, exit 2;
#           - through a stand-in plugin (FAKE: the host transport under the
#             names local and nccl) the run is byte for byte the host run,
#             and reports the epochs gpu.check compared;
#   ldd     REACT: build/react links no CUDA or NCCL library;
#   abi     PROBE PLUGIN REACT SRC [--want-nccl]: the built plugin exports
#           its entry point with ABI 1 and this tree's struct sizes
#           (plugin_probe), and build/react finds it in the build tree
#           without REACT_GPU_PLUGIN: the run gets past loading (exit 0 on
#           a GPU, else an error of the CUDA side, never of the loader);
#           PLUGIN "none": skipped (CUDA was not built);
#   mpi     REACT FAKE MPIRUN: mpirun -np 4 react run on transport nccl
#           (through FAKE, each process knowing a quarter of the flows'
#           times): exit 0, only rank 0 prints and writes, its epochs.csv
#           is the host run's (the flow times were combined and every
#           process's controller took the same decisions), and -np 3 for
#           4 ranks is refused.
# Exit 77 (meson: skipped) where the part under test was not built.
set -u
MODE="$1"
shift
. "$(dirname "$0")/testlib.sh"

# want_load_error PATH REASON: react run on transport local with
# REACT_GPU_PLUGIN=PATH exits 2 naming gpu.transport, PATH and REASON
want_load_error() {
	REACT_GPU_PLUGIN="$1" "$R" run "$S" --set gpu.transport=local -o "$T/o" >"$T/e.out" 2>&1; rc=$?
	[ "$rc" -eq 2 ] && grep -qF "field 'gpu.transport'" "$T/e.out" && grep -qF "$1" "$T/e.out" &&
		grep -qF "$2" "$T/e.out" && [ ! -e "$T/o" ] ||
		fail "REACT_GPU_PLUGIN=$1 (exit $rc, want 2 with gpu.transport, the path and '$2'): $(cat "$T/e.out")"
}

case $MODE in
loader)
	R="$1" FAKE="$2" NOENTRY="$3" SRC="$4"
	S="$SRC/scenarios/gpu/host-slow-link.yaml"
	want_load_error "$T/no-such-plugin.so" "cannot open shared object file"
	want_load_error "$S" "invalid ELF header"
	want_load_error "$NOENTRY" "no react_gpu_plugin_v1() in it"
	REACT_GPU_PLUGIN="$FAKE" "$R" run "$SRC/scenarios/gpu/nccl-loopback.yaml" -o "$T/o" >"$T/n.out" 2>&1; rc=$?
	# (a react without MPI says so instead)
	[ "$rc" -eq 2 ] && grep -qE "field 'gpu.transport': nccl runs one MPI process per rank(: mpirun -np 4|, and this program was built without MPI)" "$T/n.out" ||
		fail "nccl outside mpirun (exit $rc): $(cat "$T/n.out")"
	REACT_GPU_PLUGIN="$FAKE" "$R" sweep "$SRC/scenarios/gpu/nccl-loopback.yaml" -o "$T/sw" --quiet >"$T/sw.out" 2>&1; rc=$?
	[ "$rc" -eq 2 ] && grep -qF "field 'gpu.transport': nccl runs under mpirun -np 4 react run" "$T/sw.out" ||
		fail "nccl under react sweep (exit $rc): $(cat "$T/sw.out")"
	# the stand-in plugin's local transport is the host transport: the same run
	"$R" run "$S" --set gpu.congestion.p=0.75 --set gpu.congestion.start_epoch=0 -o "$T/h" \
		--quiet >"$T/h.out" 2>&1 || fail "host run: $(cat "$T/h.out")"
	REACT_GPU_PLUGIN="$FAKE" REACT_FAKE_SLOW_LINK=3,4,5e-06,2.5e9 "$R" run "$S" --set gpu.transport=local \
		--set gpu.congestion.p=0 -o "$T/f" --quiet >"$T/f.out" 2>&1 || fail "run through the stand-in plugin: $(cat "$T/f.out")"
	cmp -s "$T/h/runs/c0000/epochs.csv" "$T/f/runs/c0000/epochs.csv" ||
		fail "the stand-in plugin's run differs from the host run: $(diff "$T/h/runs/c0000/epochs.csv" "$T/f/runs/c0000/epochs.csv" | head -n 4)"
	grep -q "^react,.*,1$" "$T/f/runs/c0000/epochs.csv" || fail "no pattern change through the stand-in plugin"
	grep -qF "gpu.check: 160 epochs checked (baseline and REACT), 0 wrong elements" "$T/f.out" ||
		fail "no gpu.check line: $(tail -n 3 "$T/f.out")"
	[ "$fails" -eq 0 ] || exit 1
	echo "ok: missing, non-ELF and foreign plugins refused naming gpu.transport and the path; nccl refused outside react run under mpirun; the stand-in plugin's run is the host run"
	;;
ldd)
	R="$1"
	command -v ldd >/dev/null || { echo "skipped: no ldd"; exit 77; }
	ldd "$R" >"$T/ldd" 2>&1 || fail "ldd $R: $(cat "$T/ldd")"
	if grep -iE "libcudart|libnccl|libcuda\.|libcublas" "$T/ldd"; then
		fail "build/react links CUDA or NCCL (it must load them only through the plugin)"
	fi
	[ "$fails" -eq 0 ] || exit 1
	echo "ok: $R links no CUDA or NCCL library ($(wc -l <"$T/ldd") libraries)"
	;;
abi)
	PROBE="$1" PLUGIN="$2" R="$3" SRC="$4"
	shift 4
	if [ "$PLUGIN" = none ]; then
		echo "skipped: CUDA was not built (meson found no nvcc or CUDA runtime), so there is no libreact_gpu_cuda.so to load"
		exit 77
	fi
	"$PROBE" "$PLUGIN" "$@" >"$T/p.out" 2>&1 || fail "plugin_probe: $(cat "$T/p.out")"
	cat "$T/p.out"
	# found beside build/react (its gpu-runtime/ subdirectory), no REACT_GPU_PLUGIN
	env -u REACT_GPU_PLUGIN "$R" run "$SRC/scenarios/gpu/host-slow-link.yaml" --set gpu.transport=local \
		--set jobs.0.epochs=4 --set jobs.0.warmup=1 --quiet >"$T/r.out" 2>&1; rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok: the plugin ran the local transport (a GPU is here)"
	elif [ "$rc" -eq 2 ] && grep -q "local transport: " "$T/r.out" && ! grep -q "could not be loaded" "$T/r.out"; then
		echo "ok: the plugin was loaded; the CUDA side says: $(tail -n 1 "$T/r.out")"
	else
		fail "react run --set gpu.transport=local with the built plugin (exit $rc): $(cat "$T/r.out")"
	fi
	[ "$fails" -eq 0 ] || exit 1
	;;
mpi)
	R="$1" FAKE="$2" MPIRUN="$3"
	if [ "$MPIRUN" = none ]; then
		echo "skipped: react was built without MPI, so it cannot run the nccl transport"
		exit 77
	fi
	if [ "$(id -u)" -eq 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	# under the sanitizers MPI's own allocations are not the leaks looked for
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	cat >"$T/s4.yaml" <<'YAML'
name: plugin-mpi
backend: gpu
seed: 3
jobs:
  - name: ring
    ranks: 4
    collective: allreduce
    algorithm: ring
    message: 256KiB
    epochs: 40
    warmup: 5
gpu:
  transport: host
  check: true
  congestion: {pairs: [[1, 2]], p: 0.5, start_epoch: 0}
YAML
	"$R" run "$T/s4.yaml" -o "$T/h" --quiet >"$T/h.out" 2>&1 || fail "host run: $(cat "$T/h.out")"
	# each process knows a quarter of the flows' times (as on real GPUs, its own ends')
	export REACT_GPU_PLUGIN="$FAKE" REACT_FAKE_SLOW_LINK=1,2,5e-06,5e9 REACT_FAKE_SPLIT_SPANS=1
	timeout 120 "$MPIRUN" -np 4 --oversubscribe --tag-output "$R" run "$T/s4.yaml" --set gpu.transport=nccl \
		--set gpu.congestion.p=0 -o "$T/n" --quiet >"$T/n.out" 2>&1; rc=$?
	[ "$rc" -eq 0 ] || fail "mpirun -np 4 react run (nccl, exit $rc): $(tail -n 20 "$T/n.out")"
	others=$(grep "<stdout>" "$T/n.out" | grep -v "^\[[0-9]*,0\]<stdout>" | head -n 3)
	[ -z "$others" ] || fail "ranks other than 0 printed: $others"
	grep "^\[[0-9]*,0\]<stdout>" "$T/n.out" | grep -q "improvement" || fail "rank 0 printed no summary: $(head -n 20 "$T/n.out")"
	grep -qF "gpu.check: 80 epochs checked (baseline and REACT), 0 wrong elements" "$T/n.out" ||
		fail "no gpu.check line from rank 0: $(grep gpu.check "$T/n.out")"
	[ "$(ls "$T/n/runs")" = c0000 ] || fail "run directories: $(ls -a "$T/n/runs")"
	cmp -s "$T/h/runs/c0000/epochs.csv" "$T/n/runs/c0000/epochs.csv" ||
		fail "the 4-process run differs from the host run: $(diff "$T/h/runs/c0000/epochs.csv" "$T/n/runs/c0000/epochs.csv" | head -n 4)"
	grep -q "^react,.*,1$" "$T/n/runs/c0000/epochs.csv" || fail "no pattern change in the 4-process run"
	timeout 120 "$MPIRUN" -np 3 --oversubscribe "$R" run "$T/s4.yaml" --set gpu.transport=nccl \
		-o "$T/n3" --quiet >"$T/n3.out" 2>&1; rc=$?
	[ "$rc" -ne 0 ] && grep -qF "field 'gpu.transport': nccl: the job has 4 ranks but 3 MPI processes run (mpirun -np 4)" "$T/n3.out" &&
		[ ! -e "$T/n3/runs/c0000" ] || fail "mpirun -np 3 for 4 ranks (exit $rc): $(head -n 5 "$T/n3.out")"
	[ "$fails" -eq 0 ] || exit 1
	echo "ok: mpirun -np 4 react run on transport nccl: rank 0 alone prints and writes, the run is the host run"
	;;
*)
	echo "usage: test_plugin.sh loader|ldd|abi|mpi ARGS..." >&2
	exit 2
	;;
esac
