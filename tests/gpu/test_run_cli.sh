#!/bin/sh
# End-to-end checks of react-gpu run on the host transport: exact errors
# for bad input (exit 2, one line, no crash), size limits, progress on
# stderr, and outputs that are complete or absent (a full disk).
# usage: test_run_cli.sh PATH/TO/react-gpu TESTS_GPU_DIR [bad-scenario|all]
set -u
R="$1"
D="$2"
WHAT="${3:-all}"
. "$(dirname "$0")/testlib.sh"

# run_expect RC EXACT_STDERR_LINE -- command...: exit status RC (not a
# signal), nothing on stdout, exactly that one line on stderr
run_expect() {
	want=$1; line=$2; shift 3
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	[ "$rc" -eq "$want" ] || fail "$*: exit $rc, want $want$( [ $rc -gt 128 ] && echo " (signal $((rc - 128)))")"
	[ ! -s "$T/out" ] || fail "$*: unexpected stdout: $(cat "$T/out")"
	printf '%s\n' "$line" >"$T/want"
	cmp -s "$T/err" "$T/want" || fail "$*: stderr is
$(cat "$T/err")
want
$line"
}

scenario() { # scenario FILE EPOCHS [extra job lines]
	printf 'jobs:\n  - name: ring\n    ranks: 2\n    message: 1KiB\n    epochs: %s\n    warmup: 1\n%sgpu: {transport: host}\n' \
		"$2" "${3:-}" >"$1"
}

# 1. the documented bad field: exact message, exit 2 (a crash is not a pass)
# (in this shell, not a subshell: a failure must reach the count below)
cd "$D" || exit 1
run_expect 2 "react-gpu run: bad-field.yaml:4: field 'jobs.ring.ranks': expected an integer >= 2, got 1" \
	-- "$R" run bad-field.yaml
if [ "$WHAT" = bad-scenario ]; then
	[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	echo "bad scenario rejected as documented"; exit 0
fi

cd "$T"
# 2. sizes beyond the documented maxima: a clear error, no allocation
scenario big.yaml 2147483647
run_expect 2 "react-gpu run: big.yaml:5: field 'jobs.ring.epochs': expected an integer in [1, 10000000], got '2147483647'" \
	-- "$R" run big.yaml
printf 'jobs:\n  - {name: ring, ranks: 4294967298}\n' >ranks.yaml
"$R" run ranks.yaml >out 2>err; rc=$?
[ "$rc" -eq 2 ] || fail "ranks.yaml: exit $rc, want 2"
[ ! -s out ] || fail "ranks.yaml: unexpected stdout: $(cat out)"
[ "$(wc -l <err)" -eq 1 ] && grep -q "^react-gpu run: ranks.yaml:2: field 'jobs.ring.ranks': expected at most 4096 ranks" err ||
	fail "ranks.yaml: stderr is $(cat err)"
printf 'jobs:\n  - {name: ring, ranks: 2000}\n' >ranks2.yaml
run_expect 2 "react-gpu run: ranks2.yaml:2: field 'jobs.ring.ranks': expected an integer in [2, 1024], got '2000'" \
	-- "$R" run ranks2.yaml
# 3. units: a size needs a unit, and b is a bit
printf 'jobs:\n  - name: ring\n    message: 1Gb\n' >bits.yaml
run_expect 2 "react-gpu run: bits.yaml:3: field 'jobs.ring.message': expected a size in bytes with a unit, such as 20MB (10^6 B), 1MiB (2^20 B) or 4096B, got '1Gb' ('1Gb' is in bits; sizes are in bytes (B, e.g. 1GB = 10^9 bytes))" \
	-- "$R" run bits.yaml
printf 'jobs:\n  - name: ring\n    message: 4096\n' >bare.yaml
run_expect 2 "react-gpu run: bare.yaml:3: field 'jobs.ring.message': expected a size in bytes with a unit, such as 20MB (10^6 B), 1MiB (2^20 B) or 4096B, got '4096' ('4096' has no unit)" \
	-- "$R" run bare.yaml
# 4. job names as in the simulators (the name is a CSV cell)
printf 'jobs:\n  - name: "a,b"\n' >name.yaml
run_expect 2 "react-gpu run: name.yaml:2: field 'jobs[0].name': expected a job name of at most 63 letters, digits, '_', '.' or '-', not starting with '.', got 'a,b'" \
	-- "$R" run name.yaml
# 5. --out must be a directory
scenario ok.yaml 4
: >afile
run_expect 2 "react-gpu run: --out afile: not a directory" -- "$R" run ok.yaml --out afile

# 6. progress: epoch k of n on stderr, a plain line every --progress seconds
scenario long.yaml 4000
"$R" run long.yaml --progress 0.05 >out 2>err; rc=$?
[ "$rc" -eq 0 ] || fail "long run: exit $rc: $(cat err)"
grep -q '^react-gpu run: baseline epoch [0-9]* of 4000 ([0-9.]*% of the run), elapsed [0-9hms]*, ETA [0-9hms]*$' err ||
	fail "no baseline progress line: $(cat err)"
grep -q '^react-gpu run: react epoch [0-9]* of 4000 ' err || fail "no react progress line: $(cat err)"
"$R" run long.yaml --progress 0 >out 2>err
[ ! -s err ] || fail "--progress 0 still prints: $(cat err)"
run_expect 2 "react-gpu run: --progress: expected seconds >= 0, got 'soon'" -- "$R" run long.yaml --progress soon

# 7. a finished run: both files complete, no temporary file left
scenario small.yaml 40
"$R" run small.yaml --out res >out 2>err || fail "small run: $(cat err)"
[ "$(wc -l <res/epochs.csv)" -eq 81 ] || fail "epochs.csv has $(wc -l <res/epochs.csv) lines, want 81"
[ -f res/decisions.jsonl ] || fail "no decisions.jsonl"
ls res | grep -q tmp && fail "temporary files left: $(ls res)"

# 8. a full disk: non-zero exit, the file named, nothing half-written under
# the final names, an earlier result untouched, no temporary file left.
# A 16 KiB tmpfs where user namespaces allow it, else a file size limit
# (RLIMIT_FSIZE, SIGXFSZ ignored: writes fail with EFBIG).
scenario full.yaml 400
mkdir full
echo "an earlier result" >full/epochs.csv
if unshare -r -m true 2>/dev/null; then
	unshare -r -m sh -c "mount -t tmpfs -o size=16k tmpfs '$T/full' && echo 'an earlier result' >'$T/full/epochs.csv' &&
		'$R' run full.yaml --out '$T/full' >'$T/out' 2>'$T/err'; echo \$? >'$T/rc'; ls -a '$T/full' >'$T/ls'; cat '$T/full/epochs.csv' >'$T/kept'"
	how="16 KiB tmpfs"
else
	(trap '' XFSZ; ulimit -f 8; "$R" run full.yaml --out full >out 2>err; echo $? >rc)
	ls -a full >ls; cat full/epochs.csv >kept
	how="ulimit -f 8"
fi
[ "$(cat rc)" -eq 2 ] || fail "full disk ($how): exit $(cat rc), want 2"
grep -q "full/epochs.csv: cannot write: " err || fail "full disk ($how): stderr: $(cat err)"
[ "$(cat kept)" = "an earlier result" ] || fail "full disk ($how): epochs.csv was replaced: $(head -c 200 kept)"
grep -q tmp ls && fail "full disk ($how): temporary files left: $(cat ls)"
grep -qx decisions.jsonl ls && fail "full disk ($how): decisions.jsonl written by a failed run"

# 9. the tuner's apply delay and search threads: a decision closing epoch b
# runs from epoch b + 1 + D; the decisions do not depend on the threads
# (the host transport is deterministic); bad values are one clear error
run_expect 2 "react-gpu run: --apply-delay: expected epochs 0..1000000, got '-1'" \
	-- "$R" run small.yaml --apply-delay -1
run_expect 2 "react-gpu run: --search-threads: expected 1..64, got '0'" \
	-- "$R" run small.yaml --search-threads 0
HS="$D/../../scenarios/gpu/host-slow-link.yaml"
for dt in "0 1" "2 1" "2 3"; do
	set -- $dt
	"$R" run "$HS" --apply-delay "$1" --search-threads "$2" --out "hs$1-$2" --quiet >"hs$1-$2.out" 2>&1 ||
		fail "host-slow-link D=$1 threads=$2: $(cat "hs$1-$2.out")"
	grep -q "^# tuner: apply delay D = $1 epochs, search threads $2; consensus lag (an epoch handed over to its decision known) mean [0-9.]* ms, max [0-9.]* ms, epochs [0-9.]* ms apart; at most [0-9]* epochs handed over before a decision was known$" "hs$1-$2.out" ||
		fail "D=$1 threads=$2: no tuner line: $(cat "hs$1-$2.out")"
	# the first change's batch end, and the first epoch the react run ran another pattern
	b=$(grep '"action":"change"' "hs$1-$2/decisions.jsonl" | head -n 1 | sed 's/^{"epoch":\([0-9]*\),.*/\1/')
	e=$(awk -F, '$1 == "react" && $8 == 1 { print $3; exit }' "hs$1-$2/epochs.csv")
	[ -n "$b" ] && [ "$e" = "$((b + 1 + $1))" ] ||
		fail "D=$1: the change decided at the end of epoch '$b' ran from epoch '$e', want b + 1 + $1"
done
cmp -s hs2-1/decisions.jsonl hs2-3/decisions.jsonl || fail "3 search threads decided otherwise than 1"
cmp -s hs2-1/epochs.csv hs2-3/epochs.csv || fail "3 search threads ran other epochs than 1"
cmp -s hs0-1/epochs.csv hs2-1/epochs.csv && fail "D = 0 and D = 2 ran the same epochs"

if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "all react-gpu run checks passed"
