#!/bin/sh
# run.sh with the stored oracle results (bench/decisions/oracle-cache.tar.xz):
# the quick sets of fig5a and fig8 take their oracle from the archive, the
# report says how many results the cache started with and has the oracle's
# lines; -C none starts with none; a -C file that does not exist is refused,
# naming it, with exit 2 and no report.
# usage: test_run_cached.sh SOURCE_ROOT BUILD_DIR
set -u
SRC="$1"
B=$(realpath --relative-to="$SRC" "$2")
T=$(mktemp -d /tmp/react-rc-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/rep" 2>/dev/null; exit 1; }
A="$SRC/bench/decisions/oracle-cache.tar.xz"
n=$(tar -tJf "$A" | grep -c '/oracle\.csv$')
[ "$n" -gt 200 ] || fail "the archive holds $n results"
"$SRC/bench/decisions/run.sh" -q -j 2 -B "$B" -s fig5a,fig8 -o "$T/o" -w "$T/rep" >"$T/log" 2>&1 ||
	{ tail -n 5 "$T/log"; fail "run.sh exited $?"; }
grep -q "^# oracle cache started with the $n results of oracle-cache.tar.xz$" "$T/rep" ||
	fail "no line on the $n stored results"
grep -q '^fig5a: 2 REACT runs$' "$T/rep" || fail "not 2 fig5a runs"
grep -q '^fig8: 1 REACT runs$' "$T/rep" || fail "not 1 fig8 run"
[ "$(grep -c 'captured' "$T/rep")" = 2 ] || fail "not a captured share per set"
# every quick configuration's oracle was in the archive: nothing searched
grep -q 'searching it again' "$T/log" "$T"/o/*.out && fail "a stored result was stale"
[ "$(ls "$T/o/oracle-cache" | wc -l)" = "$n" ] || fail "the cache grew: a search ran"
"$SRC/bench/decisions/run.sh" -q -N -C none -B "$B" -s fig8 -o "$T/n" -w "$T/rep" >"$T/log" 2>&1 ||
	fail "run.sh -C none exited $?"
grep -q 'oracle cache started' "$T/rep" && fail "-C none started a cache"
rm -f "$T/rep"
"$SRC/bench/decisions/run.sh" -q -C "$T/none.tar.xz" -B "$B" -s fig8 -o "$T/x" -w "$T/rep" \
	>"$T/log" 2>&1
rc=$?
[ $rc = 2 ] || fail "a missing -C file: exit $rc, expected 2"
grep -q "run.sh: -C: $T/none.tar.xz: no such file" "$T/log" || fail "the error does not name the file"
[ -e "$T/rep" ] && fail "a report was written"
echo "ok: $n stored results, fig5a and fig8 without a search"
