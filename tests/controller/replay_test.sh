#!/bin/sh
# End-to-end test of `react replay`: REACT FIXTURE WORKDIR
set -u
react=$1; fixture=$2; dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$fixture" "$dir" || { echo "fixture failed"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
"$react" replay "$dir/tree16.json" "$dir/trace.jsonl" > "$dir/replay.log" 2> "$dir/err" || fail "replay exit $?: $(cat "$dir/err")"
cmp -s "$dir/replay.log" "$dir/trace.jsonl.log" || fail "replayed log differs from the recording controller's log"
[ "$(wc -l < "$dir/replay.log")" -ge 5 ] || fail "too few decisions"
grep -q '"action":"change"' "$dir/replay.log" || fail "no change in the replayed run"
"$react" replay "$dir/tree16.json" "$dir/diverged.jsonl" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 1 ] || fail "diverged trace: exit $rc, expected 1"
grep -q 'diverged.jsonl:[0-9]*: DIVERGED at epoch' "$dir/err" || fail "no divergence message: $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$dir/bad.jsonl" > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "bad trace: exit $rc, expected 2"
grep -q 'bad.jsonl:3: field "fct"' "$dir/err" || fail "no file:line message: $(cat "$dir/err")"
"$react" replay "$dir/tree16.json" "$dir/trace.jsonl" --set nosuch=1 > /dev/null 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "unknown parameter: exit $rc, expected 2"
grep -q "unknown parameter 'nosuch'" "$dir/err" || fail "no parameter message"
"$react" replay "$dir/tree16.json" "$dir/trace.jsonl" --seed 99 > "$dir/seed99.log" 2>/dev/null; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "other seed: exit $rc"
echo "replay: ok"
