#!/bin/sh
# results/paper/make.sh, end to end on one small figure (fig7a: 10
# configurations of two 16-rank rings, flow backend) into a scratch
# PAPER_DIR: --oracle-only writes the oracle's subset alone (its oracle from
# the stored cache of bench/decisions, runs.csv with the oracle's columns),
# --no-oracle the sweep alone (10 configurations, two jobs each), the
# per-run directories removed; bad arguments and a missing program exit 2
# with one line naming what was wrong, before anything is written.
# usage: test_paper_make.sh PATH/TO/react SOURCE_ROOT
set -u
R="$1"
SRC="$2"
T=$(mktemp -d /tmp/react-paper-make-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$SRC" || exit 1
M=results/paper/make.sh

# refusals: exit 2, the message, and no directory written
refuse() {
	want="$1"
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc, want 2"
	case $out in *"$want"*) ;; *) fail "$*: said '$out', want '$want'" ;; esac
}
export PAPER_DIR="$T/p" ORACLE_CACHE="$T/cache"
refuse "leave nothing to run" env REACT="$R" sh $M --no-oracle --oracle-only
refuse "'fig9' is not one of" env REACT="$R" sh $M -s fig9
refuse "'x' is not a profile" env REACT="$R" sh $M -p x
refuse "'ns5' is not a backend" env REACT="$R" sh $M --backend ns5
refuse "$T/none: no such program" env REACT="$T/none" sh $M -s fig7a
[ ! -e "$T/p" ] || fail "a refused call wrote $T/p"

# --oracle-only: fig7a-oracle/ alone
REACT="$R" sh $M -j 2 -p default -s fig7a --oracle-only >"$T/log" 2>&1 ||
	fail "--oracle-only -s fig7a: exit $?: $(tail -n 3 "$T/log")"
ls "$T/p" >"$T/dirs" 2>/dev/null
[ "$(cat "$T/dirs")" = "fig7a-oracle" ] || fail "--oracle-only wrote: $(tr '\n' ' ' <"$T/dirs")"
f="$T/p/fig7a-oracle/runs.csv"
if [ -f "$f" ]; then
	head -n 1 "$f" | grep -q "oracle_mean_gbps" || fail "$f: no oracle_mean_gbps column"
	# seed 1, job2.react false and true: 2 configurations x 2 jobs
	[ $(($(wc -l <"$f") - 1)) -eq 4 ] || fail "$f: $(($(wc -l <"$f") - 1)) rows, want 4"
fi
[ ! -e "$T/p/fig7a-oracle/runs" ] || fail "fig7a-oracle/runs/ left behind"

# --no-oracle: the sweep, the subset left as it was
cp "$f" "$T/oracle-before.csv" 2>/dev/null
REACT="$R" sh $M -j 2 -p default -s fig7a --no-oracle >"$T/log" 2>&1 ||
	fail "--no-oracle -s fig7a: exit $?: $(tail -n 3 "$T/log")"
f="$T/p/fig7a/runs.csv"
if [ -f "$f" ]; then
	head -n 1 "$f" | grep -q "oracle" && fail "$f: oracle columns without --oracle"
	[ $(($(wc -l <"$f") - 1)) -eq 20 ] || fail "$f: $(($(wc -l <"$f") - 1)) rows, want 20"
else
	fail "--no-oracle wrote no $f"
fi
cmp -s "$T/oracle-before.csv" "$T/p/fig7a-oracle/runs.csv" || fail "--no-oracle changed fig7a-oracle/"
[ ! -e "$T/p/fig7a-paper" ] || fail "-p default wrote the paper profile's directory"

[ $fails -eq 0 ] || exit 1
echo "ok: make.sh --oracle-only and --no-oracle on fig7a, 5 refusals"
