#!/bin/sh
# A kept change gives the loop a new base, and a new base starts the search
# backoff afresh (controller.c, set_base): after a batch whose action is
# "keep", at most one batch may be held back by the backoff (the keep
# batch's own search, if fruitless, starts a backoff of 1).  Checked over
# the decision logs of 60 fig5a runs (seeds 1-5, p 2 and 4, 1-6 congested
# pairs; about 15 s on 2 cores): with the backoff carried over a kept change, 5 of 48
# keeps were followed by 2 or more held batches.
# usage: test_keep_clears_backoff.sh PATH/TO/react SOURCE_ROOT
set -u
R="$1"
SRC="$2"
T=$(mktemp -d /tmp/react-keep-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$R" sweep "$SRC/scenarios/paper/fig5a.yaml" --set seed=1..5 --set "congestion.external.p=[2,4]" \
	--set congestion.external.congested_pairs=1..6 -j 2 -o "$T/s" --no-plot --quiet >"$T/log" 2>&1 ||
	{ echo "FAIL: react sweep: $(tail -n 3 "$T/log")"; exit 1; }
keeps=0 bad=0
for f in "$T"/s/runs/*/decisions.jsonl; do
	r=$(awk '
	/"action":"keep"/ { keeps++; after = 1; held = 0; next }
	after && /"why":"no search: backoff/ { held++; if (held == 2) { bad++; print "epoch " $0 > "/dev/stderr" } next }
	{ after = 0 }
	END { print keeps + 0, bad + 0 }' "$f" 2>>"$T/bad")
	keeps=$((keeps + ${r% *}))
	bad=$((bad + ${r#* }))
done
[ "$keeps" -ge 20 ] || { echo "FAIL: only $keeps kept changes in 60 runs: the check saw too few"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: $bad of $keeps keeps followed by 2 or more batches held by the backoff: $(head -c 400 "$T/bad")"; exit 1; }
echo "ok: $keeps kept changes, none followed by more than one held batch"
