#!/bin/sh
# bench-decisions over a sweep made without --oracle (as quiet.sh uses it):
# every figure but the oracle's, counted from the runs.  5 runs of fig5b
# with no external flow (the job's own ECMP collisions make it change
# patterns; seeds 6-10, two of which extend a change's test): the REACT
# runs and the mean gain agree with runs.csv, the measured epochs are 5 x
# (100 - 25 warm-up), no oracle line is printed;
# a runs.csv without the improvement column is refused, naming the file.
# The correlation of estimated and observed gain is over the changes'
# verdicts, an extension's interim line not counted again.
# A job beside another job (fig7a: two rings, no external flow) is counted
# as congested, not among the runs at p = 0.  Reverted epochs count the
# tries later reverted, not a pattern's epochs as the base (a hand-made
# set); with the oracle's columns, runs where REACT passes the oracle by
# more than a point are counted.
# usage: test_bench_decisions.sh PATH/TO/react PATH/TO/bench-decisions SOURCE_ROOT
set -u
R="$1"
BD="$2"
SRC="$3"
T=$(mktemp -d /tmp/react-bd-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out"; exit 1; }
"$R" sweep "$SRC/scenarios/paper/fig5b.yaml" --set seed=6..10 --set congestion.external.p=0 \
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
# reverted epochs are those of tries later reverted, not every epoch of a
# pattern that was reverted once: a hand-made set of 3 runs, 100 epochs,
# warm-up 25.  c0000: the job's own pattern a runs 0-59, b from 60 (kept),
# a tried again at 80-85 (return_after) and reverted: 6 epochs, not the 35
# a ran as the base.  c0001: c tried at 95, the measured epochs end, c
# reverted at 101 (a job kept running): 5.  c0002: the same, but kept: 0.
mk() { # id: epochs.csv rows from "first last hash" triples, then decisions
	d="$T/h/runs/$1"; mkdir -p "$d"; shift
	printf 'backend flow\njob j ranks 8 allreduce tree message 20000000 epochs 100 warmup 25 react 1 hosts 0 1 2 3 4 5 6 7\nexternal 0 -> 9 x 2\n' >"$d/config.txt"
	echo "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed" >"$d/epochs.csv"
	while [ "$1" != -- ]; do
		e=$1; while [ "$e" -le "$2" ]; do
			c=0; [ "$e" = "$1" ] && [ "$e" != 0 ] && c=1
			echo "react,j,$e,$e,0.01,2.0,$3,$c" >>"$d/epochs.csv"; e=$((e + 1))
		done; shift 3
	done; shift
	: >"$d/decisions.jsonl"
	while [ $# -gt 0 ]; do
		echo "{\"job\":\"j\",\"epoch\":$1,\"pattern_hash\":\"$2\",\"action\":\"$3\"}" >>"$d/decisions.jsonl"; shift 3
	done
}
A=00000000000000a0; B=00000000000000b0; C=00000000000000c0
mk c0000 0 59 $A 60 79 $B 80 85 $A 86 99 $B -- 59 $A change 65 $B keep 79 $B change 85 $A revert
mk c0001 0 94 $A 95 99 $C -- 94 $A change 101 $C revert
mk c0002 0 94 $A 95 99 $C -- 94 $A change 101 $C keep
{ echo "id,job,react,improvement_mean_pct"
  for i in 0 1 2; do echo "c000$i,j,1,1.0"; done; } >"$T/h/runs.csv"
"$BD" --name h "$T/h" >"$T/out" 2>&1 || fail "bench-decisions exited $? on the hand-made set"
grep -q 'later reverted: 4.89 % (11 of 225)$' "$T/out" || fail "reverted epochs are not 6 + 5 of 225"
# with the oracle's columns: a run whose REACT gain passes the oracle's by
# more than 1 point is counted (c0001: 4.0 against 1.5), one by 0.5 is not
{ echo "id,job,react,improvement_mean_pct,oracle_impr_pct"
  echo "c0000,j,1,1.0,5.0"; echo "c0001,j,1,4.0,1.5"; echo "c0002,j,1,1.0,0.5"; } >"$T/h/runs.csv"
"$BD" --name h "$T/h" >"$T/out" 2>&1 || fail "bench-decisions exited $? on the set with the oracle"
grep -q 'REACT above the oracle by more than 1 point: 1 runs (most +2.50 points;' "$T/out" ||
	fail "not 1 run above the oracle by 2.5 points"
# a runs.csv without improvement_mean_pct
mkdir -p "$T/bad" && echo "id,job,react" > "$T/bad/runs.csv" && echo "c0000,j,1" >> "$T/bad/runs.csv"
"$BD" "$T/bad" >"$T/out" 2>&1 && fail "accepted a runs.csv without improvement_mean_pct"
grep -q "$T/bad/runs.csv: expected the columns" "$T/out" || fail "the error does not name the file"
echo "ok: $want % over 5 runs, $changes pattern changes"
