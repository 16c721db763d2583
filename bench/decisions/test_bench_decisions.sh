#!/bin/sh
# bench-decisions over a sweep made without --oracle (as quiet.sh uses it):
# every figure but the oracle's, counted from the runs.  5 runs of fig5b
# with no external flow (the job's own ECMP collisions make it change
# patterns): the REACT runs and the mean gain agree with runs.csv, the
# measured epochs are 5 x (100 - 25 warm-up), no oracle line is printed;
# a runs.csv without the improvement column is refused, naming the file.
# The correlation of estimated and observed gain is over the changes'
# verdicts, an extension's interim line not counted again.
# A job beside another job (fig7a: two rings, no external flow) is counted
# as congested, not among the runs at p = 0.
# usage: test_bench_decisions.sh PATH/TO/react PATH/TO/bench-decisions SOURCE_ROOT
set -u
R="$1"
BD="$2"
SRC="$3"
T=$(mktemp -d /tmp/react-bd-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out"; exit 1; }
"$R" sweep "$SRC/scenarios/paper/fig5b.yaml" --set seed=1..5 --set congestion.external.p=0 \
	--set congestion.external.congested_pairs=1 -j 2 -o "$T/s" --no-plot --quiet >"$T/log" 2>&1 ||
	{ echo "FAIL: react sweep: $(tail -n 3 "$T/log")"; exit 1; }
"$BD" --name p0 "$T/s" >"$T/out" 2>&1 || fail "bench-decisions exited $?"
grep -q '^p0: 5 REACT runs$' "$T/out" || fail "not 5 REACT runs"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["react"] == 1 { s += $c["improvement_mean_pct"]; n++ } END { printf "%+.2f", s / n }' "$T/s/runs.csv")
grep -q "mean gain: REACT $want % (no oracle" "$T/out" || fail "mean gain is not runs.csv's $want %"
grep -q 'captured\|oracle gains' "$T/out" && fail "an oracle figure without the oracle"
grep -q 'later reverted: [0-9.]* % ([0-9]* of 375)$' "$T/out" || fail "measured epochs are not 5 x 75"
grep -q 'worst REACT result without congestion (p = 0)' "$T/out" || fail "no p = 0 line"
changes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["pattern_changes"] } END { print s }' "$T/s/runs.csv")
[ "$changes" -gt 0 ] || fail "no run changed its pattern: the counts above were not exercised"
# r is over the changes' verdicts: a line that extends a change's test is
# an interim look at the same change and is not counted again
ext=$(cat "$T"/s/runs/*/decisions.jsonl | grep -c '"action":"extend"')
judged=$(cat "$T"/s/runs/*/decisions.jsonl | grep '"change_est_gain"' | grep -vc '"action":"extend"')
[ "$ext" -gt 0 ] || fail "no change was extended: the count below was not exercised"
grep -q "over $judged changes ([0-9]* of [0-9]* decision lines carry change_est_gain and change_obs_gain; $ext of them extensions)" "$T/out" ||
	fail "r is not over the $judged verdicts (and $ext extensions apart)"
# two jobs, REACT on one: congested by the other, so no p = 0 line
"$R" sweep "$SRC/scenarios/paper/fig7a.yaml" --set seed=1 --set jobs.job2.react=false \
	-o "$T/two" --no-plot --quiet >"$T/log" 2>&1 ||
	{ echo "FAIL: react sweep fig7a: $(tail -n 3 "$T/log")"; exit 1; }
"$BD" --name two "$T/two" >"$T/out" 2>&1 || fail "bench-decisions exited $? on fig7a"
grep -q '^two: 1 REACT runs$' "$T/out" || fail "fig7a: not 1 REACT run"
grep -q 'without congestion' "$T/out" && fail "a job beside another job counted as uncongested"
# a runs.csv without improvement_mean_pct
mkdir -p "$T/bad" && echo "id,job,react" > "$T/bad/runs.csv" && echo "c0000,j,1" >> "$T/bad/runs.csv"
"$BD" "$T/bad" >"$T/out" 2>&1 && fail "accepted a runs.csv without improvement_mean_pct"
grep -q "$T/bad/runs.csv: expected the columns" "$T/out" || fail "the error does not name the file"
echo "ok: $want % over 5 runs, $changes pattern changes"
