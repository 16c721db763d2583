#!/bin/sh
# compare.sh over a real run.sh sweep (the quick fig5a-allreduce set, ring
# and rhd AllReduce, no oracle) and a copy of it with one ring row's gain
# raised by 3 points: the set line and the ring line carry the paired
# difference (3 / n), one row better and none worse, the rhd line none;
# a run compared with itself differs by nothing; a missing directory is
# refused, naming it, with exit 2.
# usage: test_compare.sh SOURCE_ROOT BUILD_DIR
set -u
SRC="$1"
B=$(realpath --relative-to="$SRC" "$2")
T=$(mktemp -d /tmp/react-cmp-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" 2>/dev/null; exit 1; }
C="$SRC/bench/decisions/compare.sh"
"$SRC/bench/decisions/run.sh" -q -N -j 2 -B "$B" -s fig5a-allreduce -o "$T/a" -w "$T/rep" \
	>"$T/log" 2>&1 || { tail -n 5 "$T/log"; fail "run.sh exited $?"; }
mkdir -p "$T/b/fig5a-allreduce"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "improvement_mean_pct") g = i; if ($i == "algorithm") a = i } }
	NR > 1 && $a == "ring" && !done { $g = $g + 3; done = 1 } { print }' \
	"$T/a/fig5a-allreduce/runs.csv" >"$T/b/fig5a-allreduce/runs.csv"
n=$(grep -c ',ring,' "$T/a/fig5a-allreduce/runs.csv")
all=$(($(wc -l <"$T/a/fig5a-allreduce/runs.csv") - 1))
[ "$n" -ge 1 ] && [ "$all" -gt "$n" ] || fail "the quick set has $n ring rows of $all"
"$C" "$T/a" "$T/b" >"$T/out" 2>&1 || fail "compare.sh exited $?"
d=$(awk -v n="$n" 'BEGIN { printf "%+.2f", 3 / n }')
da=$(awk -v n="$all" 'BEGIN { printf "%+.2f", 3 / n }')
grep -q "^fig5a-allreduce all: n=$all .* diff $da ± .* (better 1, worse 0)$" "$T/out" ||
	fail "the set line lacks diff $da over $all rows"
grep -q "^fig5a-allreduce ring: n=$n .* diff $d ± .* (better 1, worse 0)$" "$T/out" ||
	fail "the ring line lacks diff $d over $n rows"
grep -q "^fig5a-allreduce rhd: .* diff +0.00 ± 0.00 (better 0, worse 0)$" "$T/out" ||
	fail "the rhd line moved"
"$C" -r "$T/rep" "$T/rep" "$T/a" "$T/a" >"$T/out" 2>&1 || fail "compare.sh of a run with itself exited $?"
[ "$(grep -c 'diff +0.00 ± 0.00 (better 0, worse 0)$' "$T/out")" = 3 ] || fail "a run differs from itself"
grep -q "^fig5a-allreduce rev: [0-9.]* % -> [0-9.]* % | late: [0-9.]* -> [0-9.]* | r: " "$T/out" ||
	fail "no settling line from the reports"
"$C" "$T/a" "$T/none" >"$T/out" 2>&1
rc=$?
[ $rc = 2 ] || fail "a missing directory: exit $rc, expected 2"
grep -q "no sweep directory '$T/none'" "$T/out" || fail "the error does not name the directory"
echo "ok: $all rows, $n ring"
