#!/bin/sh
# The numbers of a congested react-gpu run on the host transport, not only
# its exit status: scenarios/gpu/host-slow-link.yaml (8-rank ring
# AllReduce of 256 KiB, 80 epochs, warm-up 20; from epoch 10 the link 3 -> 4
# keeps 10 % of its rate), baseline then REACT.
#   epochs.csv  the header; epochs 0..79 of each run in order; every epoch's
#               start is the previous one's end; algbw > 0 and equal to
#               message / time_s; the baseline keeps its pattern and slows
#               down from epoch 10; REACT's changed flags mark exactly the
#               epochs whose pattern differs from the one before
#   decisions   every line names the pattern that ran in its epoch and the
#               mean time of its batch (the 6 epochs up to it, the default
#               B) as epochs.csv has them; each change or revert takes
#               effect D + 1 = 6 epochs later (the runtime's apply delay 5)
#   stdout      mean and p95 algbw after warm-up and the change counts as
#               recomputed from epochs.csv, nothing wrong; REACT beats the
#               baseline by more than 20 % (the slow link is avoided)
# usage: test_host_numbers.sh PATH/TO/react-gpu SCENARIO
set -u
R="$1"
S="$2"
. "$(dirname "$0")/testlib.sh"

MSG=262144 EPOCHS=80 WARMUP=20 CONGESTED_FROM=10 BATCH=6 DELAY=5

"$R" run "$S" --out "$T/res" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: react-gpu run exited $rc: $(cat "$T/err")"; exit 1; }
E="$T/res/epochs.csv"
D="$T/res/decisions.jsonl"
[ "$(head -n 1 "$E")" = "mode,job,epoch,start_s,time_s,algbw_gbps,pattern_hash,changed" ] ||
	fail "epochs.csv header: $(head -n 1 "$E")"

# per-row checks; prints one "FAIL ..." line per broken rule
awk -F, -v msg=$MSG -v n=$EPOCHS -v cfrom=$CONGESTED_FROM '
function abs(x) { return x < 0 ? -x : x }
NR == 1 { next }
{
	k = NR - 2                      # row index
	want_mode = k < n ? "baseline" : "react"
	want_ep = k < n ? k : k - n
	if ($1 != want_mode || $2 != "ring" || $3 != want_ep) {
		print "FAIL row " NR ": " $1 "," $2 "," $3 ", want " want_mode ",ring," want_ep; bad++; next
	}
	if (!($5 > 0) || !($6 > 0)) { print "FAIL row " NR ": time_s " $5 ", algbw " $6; bad++ }
	else if (abs($6 - msg / $5 / 1e9) > 1e-6 * (1 + $6))
		{ print "FAIL row " NR ": algbw " $6 " but message / time_s = " msg / $5 / 1e9; bad++ }
	if ($3 == 0) { if ($4 != 0) { print "FAIL row " NR ": first start " $4; bad++ } }
	else if (abs($4 - (pstart + ptime)) > 1e-9 * (1 + $4))
		{ print "FAIL row " NR ": start " $4 ", previous epoch ended " pstart + ptime; bad++ }
	changed = $3 > 0 && $7 != phash
	if ($8 != changed) { print "FAIL row " NR ": changed " $8 ", pattern " phash " -> " $7; bad++ }
	if ($1 == "baseline") {
		if ($8 != 0) { print "FAIL row " NR ": the baseline changed its pattern"; bad++ }
		if ($3 < cfrom) { fast += $5; nf++ } else { slow += $5; ns++ }
	}
	pstart = $4; ptime = $5; phash = $7
	rows++
}
END {
	if (rows != 2 * n) { print "FAIL " rows " rows, want " 2 * n; bad++ }
	if (!(nf && ns && slow / ns > 1.1 * fast / nf))
		{ print "FAIL the baseline does not slow down from epoch " cfrom; bad++ }
	exit bad > 0
}' "$E" >"$T/rows" || fail "epochs.csv:
$(head -n 20 "$T/rows")"

# decisions against epochs.csv: the pattern of the epoch, the batch mean,
# when a change takes effect
awk -v batch=$BATCH -v delay=$DELAY -v n=$EPOCHS '
function abs(x) { return x < 0 ? -x : x }
function field(s, key,    m) {
	if (!match(s, "\"" key "\":(\"[^\"]*\"|[-0-9.e+]+)")) return ""
	m = substr(s, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
	gsub(/"/, "", m)
	return m
}
FNR == 1 { file++ }
file == 1 && FNR > 1 {
	split($0, f, ",")
	if (f[1] == "react") { t[f[3]] = f[5]; h[f[3]] = f[7]; ch[f[3]] = f[8] }
	next
}
file == 2 {
	e = field($0, "epoch"); ph = field($0, "pattern_hash"); mt = field($0, "mean_epoch_time") + 0
	a = field($0, "action")
	lines++
	if (e == "" || !(e in h)) { print "FAIL decision " FNR ": epoch " e; bad++; next }
	e += 0
	if (ph != h[e]) { print "FAIL decision " FNR " (epoch " e "): pattern " ph ", epochs.csv ran " h[e]; bad++ }
	s = 0
	for (i = e - batch + 1; i <= e; i++) s += t[i]
	if (abs(mt - s / batch) > 1e-6 * mt)
		{ print "FAIL decision " FNR " (epoch " e "): mean_epoch_time " mt ", epochs.csv " s / batch; bad++ }
	if (a == "change" || a == "revert") {
		moves++
		at = e + 1 + delay
		if (at < n) {
			applied[at] = 1
			if (ch[at] != 1) { print "FAIL decision " FNR ": " a " at epoch " e ", no change at epoch " at; bad++ }
		}
	}
}
END {
	for (i in ch) if (ch[i] == 1 && !(i in applied)) { print "FAIL a change at epoch " i " that no decision made"; bad++ }
	if (!lines) { print "FAIL no decisions"; bad++ }
	if (!moves) { print "FAIL no change on a congested run"; bad++ }
	print moves > "/dev/stderr"
	exit bad > 0
}' "$E" "$D" >"$T/dec" 2>"$T/moves" || fail "decisions.jsonl:
$(head -n 20 "$T/dec")"

# the summary on stdout, recomputed: mean of message / time_s and message /
# p95 time (linear between order statistics) after warm-up, changes
summary() { # summary MODE -> "mean p95 changes"
	awk -F, -v m="$1" -v w=$WARMUP '$1 == m && $3 >= w { print $5 }' "$E" | sort -g >"$T/t-$1"
	awk -F, -v m="$1" '$1 == m { c += $8 } END { print c + 0 }' "$E" >"$T/c-$1"
	awk -v msg=$MSG -v c="$(cat "$T/c-$1")" '{ v[NR - 1] = $1; s += msg / $1 / 1e9 }
	END {
		pos = 0.95 * (NR - 1); lo = int(pos)
		q = lo + 1 < NR ? v[lo] + (pos - lo) * (v[lo + 1] - v[lo]) : v[lo]
		printf "%.3f %.3f %d\n", s / NR, msg / q / 1e9, c
	}' "$T/t-$1"
}
for m in baseline react; do
	want=$(summary $m)
	got=$(awk -v m=$m '$1 == m { print $2, $3, $4, $5 }' "$T/out")
	[ "$got" = "$want 0" ] || fail "$m summary on stdout: '$got', recomputed from epochs.csv '$want 0'"
done
[ "$(awk '$1 == "baseline" { print $4 }' "$T/out")" = 0 ] || fail "the baseline changed"
tuner=$(sed -n 's/^# tuner: \([0-9]*\) decisions (\([0-9]*\) reverts).*/\1/p' "$T/out")
[ "$tuner" = "$(cat "$T/moves")" ] ||
	fail "the tuner reports '$tuner' decisions, decisions.jsonl has $(cat "$T/moves") changes and reverts"
awk '$1 == "baseline" { b = $2 } $1 == "react" { r = $2 } END { exit !(r > 1.2 * b) }' "$T/out" ||
	fail "REACT does not beat the baseline by 20 %: $(cat "$T/out")"

if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; cat "$T/out"; exit 1; fi
echo "host-transport run: epochs.csv, decisions.jsonl and the summary agree"
