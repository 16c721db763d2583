#!/bin/sh
# Every shipped scenario runs: configuration 0 of each file of the four
# scenario folders (paper, regress, validation, gpu), the quick start and
# the decision benchmark's probe (bench/decisions/probe),
# shortened to 4 epochs per job (1 of warm-up), on its own backend (gpu
# files on the host transport, which needs no GPU).  Each run must exit 0, print
# its summary and write runs/c0000/epochs.csv with 2 x 4 rows per job.
# usage: test_scenario_folders.sh PATH/TO/react SOURCE_ROOT
set -u
R="$1"
SRC="$2"
T=$(mktemp -d /tmp/react-folders-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
n=0
for f in "$SRC"/scenarios/quickstart.yaml "$SRC"/scenarios/paper/*.yaml "$SRC"/scenarios/regress/*.yaml \
	"$SRC"/scenarios/validation/*.yaml "$SRC"/scenarios/gpu/*.yaml "$SRC"/bench/decisions/probe/*.yaml; do
	n=$((n + 1))
	jobs=$(grep -c "^  - *{*name:" "$f")
	[ "$jobs" -ge 1 ] || jobs=1
	set --
	j=0
	while [ $j -lt "$jobs" ]; do
		set -- "$@" --set "jobs.$j.epochs=4" --set "jobs.$j.warmup=1"
		j=$((j + 1))
	done
	case $f in */gpu/*) set -- "$@" --set gpu.transport=host ;; esac
	out="$T/$n"
	if ! "$R" run "$f" --config 0 "$@" -o "$out" --quiet >"$T/log" 2>&1; then
		echo "FAIL: react run $f --config 0 $*: $(tail -n 3 "$T/log")"
		fails=$((fails + 1))
		continue
	fi
	rows=$(($(wc -l <"$out/runs/c0000/epochs.csv") - 1))
	grep -q "improvement" "$T/log" && [ "$rows" -eq $((8 * jobs)) ] ||
		{ echo "FAIL: $f: $rows epoch rows, want $((8 * jobs)), or no summary"; fails=$((fails + 1)); }
done
[ $n -ge 20 ] || { echo "FAIL: only $n scenario files found"; fails=$((fails + 1)); }
[ $fails -eq 0 ] || exit 1
echo "ok: $n scenario files run (configuration 0, 4 epochs)"
