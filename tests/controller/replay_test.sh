#!/bin/sh
# End-to-end test of `react replay`: REACT FIXTURE WORKDIR
# The fixture's trace was recorded with seed 7 and the paper profile, which
# its header records: replay must take them from there (with seed 1 and the
# default parameters the decisions diverge at epoch 6).  A trace that
# `react run --trace` writes replays the same way.
set -u
react=$1; fixture=$2; dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$fixture" "$dir" || { echo "fixture failed"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
t="$dir/trace.jsonl"
"$react" replay "$dir/tree16.json" "$t" > "$dir/replay.log" 2> "$dir/err" || fail "replay exit $?: $(cat "$dir/err")"
cmp -s "$dir/replay.log" "$t.log" || fail "replayed log differs from the recording controller's log"
[ "$(wc -l < "$dir/replay.log")" -ge 5 ] || fail "too few decisions"
grep -q '"action":"change"' "$dir/replay.log" || fail "no change in the replayed run"
grep -q "trace.jsonl: a flow run, seed 7; replaying with the parameters it records" "$dir/err" || fail "no run notice: $(cat "$dir/err")"
# the seed alone matters: overriding it diverges, with a notice
"$react" replay "$dir/tree16.json" "$t" --seed 1 > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 1 ] || fail "seed 1 instead of 7: exit $rc, expected 1 (diverged)"
grep -q "seed=1 replaces the recorded seed=7" "$dir/err" || fail "no override notice: $(cat "$dir/err")"
grep -q 'trace.jsonl:[0-9]*: DIVERGED at epoch' "$dir/err" || fail "no divergence message: $(cat "$dir/err")"
# so do the parameters: the default profile instead of the recorded paper one
"$react" replay "$dir/tree16.json" "$t" --set profile=default > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 1 ] || fail "profile default instead of paper: exit $rc, expected 1"
grep -q "profile=default replaces the recorded profile=paper" "$dir/err" || fail "no override notice: $(cat "$dir/err")"
# an override equal to the recorded value changes nothing and says nothing
"$react" replay "$dir/tree16.json" "$t" --seed 7 --set trials=9 > "$dir/same.log" 2> "$dir/err" || fail "same values: exit $?"
cmp -s "$dir/same.log" "$t.log" || fail "same values: log differs"
grep -q "replaces" "$dir/err" && fail "notice for an unchanged value: $(cat "$dir/err")"
# a trace without a header (as written before): defaults, seed 1, a notice
"$react" replay "$dir/tree16.json" "$dir/legacy.jsonl" > "$dir/legacy.log" 2> "$dir/err" || fail "legacy trace: exit $?: $(cat "$dir/err")"
cmp -s "$dir/legacy.log" "$dir/legacy.jsonl.log" || fail "legacy trace: log differs"
grep -q "legacy.jsonl: no run header .*default parameters and seed 1" "$dir/err" || fail "no legacy notice: $(cat "$dir/err")"
# divergence, malformed lines and headers
"$react" replay "$dir/tree16.json" "$dir/diverged.jsonl" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 1 ] || fail "diverged trace: exit $rc, expected 1"
grep -q 'diverged.jsonl:[0-9]*: DIVERGED at epoch' "$dir/err" || fail "no divergence message: $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$dir/bad.jsonl" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "bad trace: exit $rc, expected 2"
grep -q 'bad.jsonl:4: field "fct"' "$dir/err" || fail "no file:line message: $(cat "$dir/err")"
bad_header() { # NAME SED-EXPRESSION EXPECTED-MESSAGE
	sed "1$2" "$t" > "$dir/$1"
	"$react" replay "$dir/tree16.json" "$dir/$1" > /dev/null 2> "$dir/err"; rc=$?
	[ $rc -eq 2 ] || fail "$1: exit $rc, expected 2"
	grep -qF "$1:1: $3" "$dir/err" || fail "$1: got '$(cat "$dir/err")', expected '$1:1: $3'"
}
bad_header h-version.jsonl 's/"version":2/"version":3/' 'field "version": expected 2'
bad_header h-param.jsonl 's/"trials":"9"/"nosuch":"9"/' "field \"params\".\"nosuch\": unknown parameter 'nosuch'"
bad_header h-value.jsonl 's/"trials":"9"/"trials":"many"/' "field \"params\".\"trials\": parameter trials: 'many' is not a valid integer"
bad_header h-backend.jsonl 's/"backend":"flow"/"backend":7/' 'field "backend": expected a backend name'
sed '1s/"trials":"9",//' "$t" > "$dir/h-missing.jsonl"
"$react" replay "$dir/tree16.json" "$dir/h-missing.jsonl" > /dev/null 2> "$dir/err"
grep -q "h-missing.jsonl: the trace does not record trials: replaying with the defaults" "$dir/err" || fail "no missing-parameter notice: $(cat "$dir/err")"
head -1 "$t" > "$dir/h-twice.jsonl"; cat "$t" >> "$dir/h-twice.jsonl"
"$react" replay "$dir/tree16.json" "$dir/h-twice.jsonl" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'h-twice.jsonl:2: a run header belongs on the first line only' "$dir/err" || fail "second header: exit $rc, $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$t" --set nosuch=1 > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "unknown parameter: exit $rc, expected 2"
grep -q "unknown parameter 'nosuch'" "$dir/err" || fail "no parameter message"
# a trace written by `react run --trace` records its run: replaying it
# without --seed or --set makes the decisions of decisions.jsonl, byte for byte
cat > "$dir/tiny.yaml" <<'EOF'
name: replay-tiny
backend: flow
seed: 1
topology: {type: fattree, k: 4}
jobs:
  - {name: tree, ranks: 8, collective: allreduce, algorithm: tree, message: 4MB,
     epochs: 40, warmup: 10}
congestion:
  external: {congested_pairs: 2, p: 2}
EOF
"$react" run "$dir/tiny.yaml" --trace --set params.seed=3 --set params.profile=paper -o "$dir/run" > /dev/null 2> "$dir/err" || fail "react run --trace: exit $?: $(cat "$dir/err")"
r="$dir/run/runs/c0000"
head -1 "$r/trace-tree.jsonl" | grep -q '^{"format":"react-trace","version":2,"backend":"flow",.*"seed":"3",.*"profile":"paper"' || fail "no run header in the trace of react run: $(head -c 200 "$r/trace-tree.jsonl")"
sed 's/^{"job":"tree",/{/' "$r/decisions.jsonl" > "$dir/run.log"
grep -q '"action":"change"' "$dir/run.log" || fail "no change in the recorded run"
"$react" replay "$r/pattern-tree.json" "$r/trace-tree.jsonl" > "$dir/run-replay.log" 2> "$dir/err" || fail "replay of react run's trace: exit $?: $(cat "$dir/err")"
cmp -s "$dir/run-replay.log" "$dir/run.log" || fail "replay of react run's trace differs from its decisions.jsonl"
grep -q "trace-tree.jsonl: a flow run, seed 3; replaying with the parameters it records" "$dir/err" || fail "no run notice: $(cat "$dir/err")"
# --estimate: one more line per batch, the decisions unchanged; the
# base estimated against itself gains exactly 0, a relabelled pattern not
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/tree16.json" > "$dir/est.log" 2> "$dir/err" || fail "--estimate: exit $?: $(cat "$dir/err")"
grep -v '"estimate_hash"' "$dir/est.log" | cmp -s - "$t.log" || fail "--estimate changed the decision log"
nd=$(grep -vc '"estimate_hash"' "$dir/est.log"); ne=$(grep -c '"estimate_hash"' "$dir/est.log")
[ "$nd" -eq "$ne" ] || fail "--estimate: $ne estimate lines for $nd batches"
h0=$(head -1 "$t.log" | sed 's/.*"pattern_hash":"\([0-9a-f]*\)".*/\1/')
grep "\"base_hash\":\"$h0\"" "$dir/est.log" > "$dir/est0" || fail "--estimate: no line with the initial pattern as the base"
grep -v '"est_gain":0.000000}' "$dir/est0" && fail "--estimate: the base against itself gains other than 0"
grep -q "\"estimate_hash\":\"$h0\"" "$dir/est0" || fail "--estimate: estimate_hash is not the given pattern's"
awk 'BEGIN { FS = OFS = "," } /^\[/ { for (i = 2; i <= 3; i++) if ($i == "0") $i = "1"; else if ($i == "1") $i = "0" } 1' \
	"$dir/tree16.json" > "$dir/swap01.json"
"$react" verify "$dir/swap01.json" > /dev/null 2>&1 || fail "the relabelled pattern fails the check"
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/swap01.json" > "$dir/est.log" 2> "$dir/err" || fail "--estimate swap: exit $?: $(cat "$dir/err")"
grep '"estimate_hash"' "$dir/est.log" | grep -qv '"est_gain":0.000000}' || fail "--estimate: a relabelled pattern estimated as the base everywhere"
"$react" replay "$dir/tree16.json" "$t" --estimate "$r/pattern-tree.json" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "--estimate of another collective's pattern: exit $rc, expected 2"
grep -q "expected a transform of .*tree16.json" "$dir/err" || fail "--estimate mismatch message: $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/nosuch.json" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "nosuch.json" "$dir/err" || fail "--estimate of a missing file: exit $rc, $(cat "$dir/err")"
# --estimate-with: the same decisions, other estimates (the fluid timing of
# the relabelled pattern differs from the trace's own estimator's, paper,
# which times by step degrees, on some batch), the base against itself
# still exactly 0; a name that is no estimator, or no --estimate, is
# refused
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/swap01.json" \
	> "$dir/ov.log" 2> "$dir/err" || fail "--estimate: exit $?: $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/swap01.json" \
	--estimate-with fluid > "$dir/fl.log" 2> "$dir/err" || fail "--estimate-with fluid: exit $?: $(cat "$dir/err")"
grep -v '"estimate_hash"' "$dir/fl.log" | cmp -s - "$(grep -v '"estimate_hash"' "$dir/ov.log" > "$dir/ov.dec"; echo "$dir/ov.dec")" ||
	fail "--estimate-with changed the decision log"
grep '"estimate_hash"' "$dir/fl.log" | cmp -s - "$(grep '"estimate_hash"' "$dir/ov.log" > "$dir/ov.est"; echo "$dir/ov.est")" &&
	fail "--estimate-with fluid gave the controller's own estimates"
[ "$(grep -c '"estimate_hash"' "$dir/fl.log")" -eq "$(grep -c '"estimate_hash"' "$dir/ov.log")" ] ||
	fail "--estimate-with: not one estimate per batch"
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/tree16.json" --estimate-with fluid > "$dir/fl0.log" 2> "$dir/err" ||
	fail "--estimate-with fluid of the base: exit $?"
grep '"estimate_hash"' "$dir/fl0.log" | grep -v '"est_gain":0.000000}' | grep "\"base_hash\":\"$h0\"" &&
	fail "--estimate-with fluid: the base against itself gains other than 0"
"$react" replay "$dir/tree16.json" "$t" --estimate "$dir/swap01.json" --estimate-with bogus > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "'bogus' is not one of paper, pattern, overlap, fluid" "$dir/err" ||
	fail "--estimate-with bogus: exit $rc, $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$t" --estimate-with fluid > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs --estimate" "$dir/err" || fail "--estimate-with alone: exit $rc, $(cat "$dir/err")"
echo "replay: ok"
