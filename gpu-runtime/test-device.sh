#!/bin/sh
# test-device.sh - build/react's gpu backend on the CUDA transports, on a GPU
# machine (run from the repository root; about 3 minutes, at most 8):
#
#   gpu-runtime/test-device.sh OUTDIR
#
#   build   gpu-runtime/build-device.sh build-device: react-gpu, react and
#           the plugin libreact_gpu_cuda.so beside it (no meson needed; GSL,
#           libyaml and jansson from the system or .devdeps/)
#   ldd     build-device/react links no CUDA or NCCL library
#   local   build-device/react run scenarios/gpu/local-congested.yaml
#           --backend gpu: the plugin is loaded, exit 0, every epoch of both
#           runs checked with 0 wrong elements (the gpu.check line, and all
#           2 x epochs rows in epochs.csv), and REACT changed the pattern
#   nccl    (when mpirun exists) mpirun -np RANKS build-device/react run
#           scenarios/gpu/nccl-congested.yaml --backend gpu, one process per
#           rank (with fewer GPUs than ranks, each process claims its own
#           host for NCCL and they talk over loopback: a correctness run):
#           exit 0, the same checks, and only rank 0 printed and wrote
#
# One line per step, "STEP: PASS|FAIL|SKIP (details)", then the overall
# verdict; exit 0 when no step failed.  OUTDIR gets build.log, ldd.txt,
# local.log, nccl.log, runs.tar.gz (the run directories) and summary.txt.
set -u
OUT=${1:?usage: gpu-runtime/test-device.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=build-device
W=$(mktemp -d /tmp/react-device-XXXXXX)
START=$(date +%s)
failed=0
: >"$OUT/summary.txt"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
step() { # step NAME PASS|FAIL|SKIP DETAILS
	[ "$2" = FAIL ] && failed=$((failed + 1))
	say "$1: $2 ($3)"
}
secs() { echo $(($(date +%s) - $1)); }
# limit MAX: a step's time limit, MAX seconds or what is left of 460 s in all
limit() {
	left=$((START + 460 - $(date +%s)))
	[ "$left" -lt "$1" ] && echo $((left > 10 ? left : 10)) || echo "$1"
}
# rows ROWS_FILE: epochs.csv data rows; changes FILE: REACT rows with changed = 1
rows() { [ -f "$1" ] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
changes() { [ -f "$1" ] && awk -F, '$1 == "react" && $8 == 1' "$1" | wc -l || echo 0; }
epochs_of() { awk '/^ *epochs:/ { print $2; exit }' "$1"; }
ranks_of() { awk '/^ *ranks:/ { print $2; exit }' "$1"; }

# ---- build
t=$(date +%s)
{ nvidia-smi -L 2>&1; echo; } >"$OUT/build.log"
if timeout "$(limit 240)" gpu-runtime/build-device.sh "$B" >>"$OUT/build.log" 2>&1 &&
	[ -x "$B/react" ] && [ -f "$B/libreact_gpu_cuda.so" ]; then
	step build PASS "react-gpu, react and libreact_gpu_cuda.so in $(secs "$t") s"
else
	step build FAIL "$(tail -n 2 "$OUT/build.log" | tr '\n' ' ')"
	say "test-device.sh: FAIL (the build failed; see build.log)"
	rm -rf "$W"
	exit 1
fi

# ---- ldd
ldd "$B/react" >"$OUT/ldd.txt" 2>&1
if grep -qiE "libcudart|libnccl|libcuda\." "$OUT/ldd.txt"; then
	step ldd FAIL "$B/react links $(grep -oiE "lib(cudart|nccl|cuda)[^ ]*" "$OUT/ldd.txt" | tr '\n' ' ')"
else
	step ldd PASS "$B/react links no CUDA or NCCL library"
fi

# check_run NAME SCENARIO RC LOG DIR PROBLEM NOTE: the checks shared by local
# and nccl; PROBLEM (a failure found by the caller) or "", NOTE added to a PASS
check_run() {
	name=$1 scen=$2 rc=$3 log=$4 dir=$5 extra=$6 note=$7
	e=$(epochs_of "$scen")
	csv="$dir/runs/c0000/epochs.csv"
	n=$(rows "$csv")
	c=$(changes "$csv")
	why=""
	case $rc in
	0) ;;
	124 | 137) why="timed out after $(secs "$t") s: $(tail -n 1 "$log")" ;;
	*) why="exit $rc: $(grep -m 1 "react run: .*: " "$log" || tail -n 1 "$log")" ;;
	esac
	[ -z "$why" ] && ! grep -q "gpu.check: $((2 * e)) epochs checked (baseline and REACT), 0 wrong elements" "$log" &&
		why="no 'gpu.check: $((2 * e)) epochs checked ..., 0 wrong elements' line"
	[ -z "$why" ] && [ "$n" -ne $((2 * e)) ] && why="epochs.csv has $n rows, want $((2 * e))"
	[ -z "$why" ] && [ "$c" -lt 1 ] && why="exit 0, every epoch checked with 0 wrong, but REACT never changed the pattern (decisions.jsonl: $(grep -c . "$dir/runs/c0000/decisions.jsonl" 2>/dev/null) lines)"
	[ -z "$why" ] && [ -n "$extra" ] && why=$extra
	if [ -z "$why" ]; then
		step "$name" PASS "exit 0; $((2 * e)) epochs checked, 0 wrong elements; $c pattern changes; $(grep "^ *improvement" "$log" | head -n 1 | awk '{ print "mean algbw " $2 }'); $(secs "$t") s$note"
	else
		step "$name" FAIL "$why"
	fi
}

# ---- local
t=$(date +%s)
S=scenarios/gpu/local-congested.yaml
timeout "$(limit 90)" "$B/react" run "$S" --backend gpu -o "$W/local" --progress 10 >"$OUT/local.log" 2>&1
rc=$?
check_run local "$S" "$rc" "$OUT/local.log" "$W/local" "" ""

# ---- nccl
t=$(date +%s)
S=scenarios/gpu/nccl-congested.yaml
if ! command -v mpirun >/dev/null 2>&1; then
	step nccl SKIP "no mpirun on this machine"
elif grep -q "no mpicc" "$OUT/build.log"; then
	step nccl SKIP "built without mpicc: no nccl transport"
else
	np=$(ranks_of "$S")
	gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
	cat >"$W/w.sh" <<'EOF'
#!/bin/sh
# fewer GPUs than ranks: each process its own NCCL host, loopback sockets
if [ "${REACT_SHARE_GPU:-0}" = 1 ]; then
	export NCCL_HOSTID=react-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}} NCCL_SOCKET_IFNAME=lo
fi
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
exec "$@"
EOF
	chmod +x "$W/w.sh"
	[ "$gpus" -lt "$np" ] && export REACT_SHARE_GPU=1
	MR="mpirun --allow-run-as-root --oversubscribe"
	tag=0
	if mpirun --version 2>&1 | grep -qi "open mpi\|open-mpi"; then MR="$MR --tag-output"; tag=1; fi
	{ echo "# $MR -np $np $W/w.sh $B/react run $S --backend gpu -o $W/nccl ($gpus GPUs)"; } >"$OUT/nccl.log"
	timeout "$(limit 150)" $MR -np "$np" "$W/w.sh" "$B/react" run "$S" --backend gpu -o "$W/nccl" \
		--progress 10 >>"$OUT/nccl.log" 2>&1
	rc=$?
	extra=""
	if [ "$tag" = 1 ]; then
		# NCCL prints its own "NCCL version" line on the processes that
		# are rank 0 of a communicator; react's own lines are rank 0's alone
		others=$(grep "<stdout>" "$OUT/nccl.log" | grep -v "<stdout>:NCCL version" |
			grep -vc "^\[[0-9]*,0\]<stdout>")
		[ "$others" -eq 0 ] || extra="ranks other than 0 printed $others lines"
		# the checks read rank 0's lines without the tags
		sed -n 's/^\[[0-9]*,0\]<std\(out\|err\)>: *//p' "$OUT/nccl.log" >"$W/nccl0.log"
	else
		cp "$OUT/nccl.log" "$W/nccl0.log"
	fi
	[ -z "$extra" ] && [ "$(ls "$W/nccl/runs" 2>/dev/null)" != c0000 ] &&
		extra="run directories: $(ls -a "$W/nccl/runs" 2>/dev/null | tr '\n' ' ')"
	check_run nccl "$S" "$rc" "$W/nccl0.log" "$W/nccl" "$extra" \
		"; mpirun -np $np on $gpus GPU(s), rank 0 alone printed and wrote"
fi

# ---- outputs
(cd "$W" && tar czf "$OUT/runs.tar.gz" $(ls -d local nccl 2>/dev/null)) 2>/dev/null
rm -rf "$W"
if [ "$failed" -eq 0 ]; then
	say "test-device.sh: PASS (no step failed; $(secs "$START") s)"
	exit 0
fi
say "test-device.sh: FAIL ($failed step(s) failed; $(secs "$START") s)"
exit 1
