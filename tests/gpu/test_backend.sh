#!/bin/sh
# The GPU runtime as a backend of the runner (react run --backend gpu), end
# to end on the host transport, its numbers checked against the runtime's
# own command and the link model:
#   - scenarios/gpu/host-slow-link.yaml through react run: every epoch of
#     the baseline has the time react-gpu run measures for it (same
#     transport, same virtual links: within 1e-12 relative), and with
#     params.apply_delay=5 (react-gpu's tuner's D) the REACT run changes
#     pattern at the same epochs to the same patterns as react-gpu's tuner;
#   - with the runner's default D = 0 REACT leaves the slow link 3 -> 4:
#     after its last change every epoch runs exactly as fast as the
#     uncongested epochs 0..9, the summary's improvement is that ratio, and
#     the run directory holds the decision log with the change;
#   - react regress over a copy of the run reruns it identically
#     (deterministic virtual time);
#   - a sweep resumed with another --backend or another gpu section runs
#     its configurations again (the fingerprint has both);
#   - compare-backends --backends flow,dctcp,gpu: each column is that
#     backend's own react run, ratios to the first backend;
#   - a congestion field the backend cannot model is an error naming the
#     file, line and field, exit 2, nothing written: external flows on gpu,
#     rank-pair congestion on flow, two jobs on gpu.
# usage: test_backend.sh PATH/TO/react PATH/TO/react-gpu SOURCE_ROOT
set -u
R="$1"
G="$2"
SRC="$3"
. "$(dirname "$0")/testlib.sh"
S="$SRC/scenarios/gpu/host-slow-link.yaml"

"$G" run "$S" --out "$T/rg" -q >"$T/rg.out" 2>&1 || fail "react-gpu run: $(cat "$T/rg.out")"
"$R" run "$S" --set params.apply_delay=5 -o "$T/d5" --quiet >"$T/d5.out" 2>&1 ||
	fail "react run (D=5): $(cat "$T/d5.out")"
"$R" run "$S" -o "$T/d0" --quiet >"$T/d0.out" 2>&1 || fail "react run: $(cat "$T/d0.out")"
[ "$fails" -eq 0 ] || exit 1
E5="$T/d5/runs/c0000/epochs.csv"
E0="$T/d0/runs/c0000/epochs.csv"

# same times (baseline), same change epochs and patterns (REACT, D = 5)
awk -F, '
function rel(a, b) { d = a - b; if (d < 0) d = -d; return d / (b > 0 ? b : 1) }
FNR == 1 { file++; next }
file == 1 { t[$1 "," $3] = $5; h[$1 "," $3] = $7; c[$1 "," $3] = $8; n1++; next }
{
	k = $1 "," $3; n2++
	if (!(k in t)) { print "FAIL react run has " k ", react-gpu run does not"; bad++; next }
	if ($1 == "baseline" && rel($5, t[k]) > 1e-12)
		{ print "FAIL baseline epoch " $3 ": " $5 " s, react-gpu " t[k]; bad++ }
	if ($7 != h[k] || $8 != c[k])
		{ print "FAIL " k ": pattern " $7 " changed " $8 ", react-gpu " h[k] " " c[k]; bad++ }
	if ($1 == "react" && $8 == 1) changes++
}
END {
	if (n1 != n2 || n1 != 160) { print "FAIL rows: react-gpu " n1 ", react " n2; bad++ }
	if (changes < 1) { print "FAIL no pattern change in the REACT run"; bad++ }
	exit bad > 0
}' "$T/rg/epochs.csv" "$E5" >"$T/cmp" || fail "react run vs react-gpu run:
$(head -n 12 "$T/cmp")"

# D = 0: after the last change REACT runs at the uncongested speed
awk -F, '
function rel(a, b) { d = a - b; if (d < 0) d = -d; return d / b }
NR == 1 { next }
$1 == "baseline" && $3 == 0 { fast = $5 }
$1 == "baseline" && $3 == 20 { slow = $5 }
$1 == "react" && $8 == 1 { last = $3 }
$1 == "react" { rt[$3] = $5 }
END {
	if (!(slow > 1.2 * fast)) { print "FAIL the baseline is not slowed by the link: " fast " -> " slow; exit 1 }
	if (last == "" || last > 30) { print "FAIL REACT changed last at epoch " last; exit 1 }
	for (e = last; e < 80; e++)
		if (rel(rt[e], fast) > 1e-9) { print "FAIL REACT epoch " e ": " rt[e] " s, uncongested " fast; exit 1 }
	printf "%.9f\n", 100 * (slow / fast - 1)
}' "$E0" >"$T/d0.chk" || fail "$(cat "$T/d0.chk")"
want=$(cat "$T/d0.chk")
imp=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ print $col["improvement_mean_pct"] }' "$T/d0/runs/c0000/summary.csv")
awk -v a="$imp" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 0.01) }' ||
	fail "summary.csv improvement $imp %, the link model gives $want % (REACT at the uncongested speed after warm-up)"
grep -q '"change' "$T/d0/runs/c0000/decisions.jsonl" || fail "decisions.jsonl has no change"

# regression: stored, then rerun identically (deterministic virtual time)
mkdir -p "$T/reg" && cp "$S" "$T/reg/"
"$R" regress "$T/reg" --stored "$T/store" --update --quiet >"$T/reg.out" 2>&1 &&
	"$R" regress "$T/reg" --stored "$T/store" --quiet >>"$T/reg.out" 2>&1 &&
	grep -q "identical" "$T/reg.out" || fail "react regress: $(cat "$T/reg.out")"

# a sweep resumed with another backend or another gpu section reruns
sw() { "$R" sweep "$@" --quiet 2>&1 | grep -o "[0-9]* run now, [0-9]* already done"; }
SD="$SRC/scenarios/regress/ring-dctcp.yaml"
a=$(sw "$SD" --set seed=1 --backend flow -o "$T/sw1"); b=$(sw "$SD" --set seed=1 --backend dctcp -o "$T/sw1")
c=$(sw "$SD" --set seed=1 --backend dctcp -o "$T/sw1")
[ "$a" = "1 run now, 0 already done" ] && [ "$b" = "1 run now, 0 already done" ] &&
	[ "$c" = "0 run now, 1 already done" ] && grep -q "^backend dctcp" "$T/sw1/runs/c0000/config.txt" ||
	fail "resume across --backend: '$a' / '$b' / '$c'"
a=$(sw "$S" -o "$T/sw2"); b=$(sw "$S" --set gpu.bandwidth=40Gbps -o "$T/sw2")
[ "$a" = "1 run now, 0 already done" ] && [ "$b" = "1 run now, 0 already done" ] ||
	fail "resume across gpu sections: '$a' / '$b'"

# compare-backends --backends flow,dctcp,gpu: each column is that backend's
# own react run (summary.csv), the ratios are to the first backend
"$R" compare-backends "$S" --backends flow,dctcp,gpu --set gpu.congestion.p=0 \
	--set jobs.0.epochs=20 --set jobs.0.warmup=5 --csv "$T/cb.csv" --quiet >"$T/cb.out" 2>&1 ||
	fail "compare-backends --backends: $(cat "$T/cb.out")"
for b in flow dctcp gpu; do
	"$R" run "$S" --backend $b --set gpu.congestion.p=0 --set jobs.0.epochs=20 --set jobs.0.warmup=5 \
		-o "$T/cb-$b" --quiet >/dev/null 2>&1 || fail "react run --backend $b"
done
awk -F, -v T="$T" '
function val(file, colname,    line, n, i, h, f) {
	getline line < file; n = split(line, h, ",")
	getline line < file; split(line, f, ",")
	close(file)
	for (i = 1; i <= n; i++) if (h[i] == colname) return f[i]
	return "?"
}
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	for (k = 1; k <= 3; k++) {
		b = k == 1 ? "flow" : k == 2 ? "dctcp" : "gpu"
		sb = val(T "/cb-" b "/runs/c0000/summary.csv", "baseline_mean_gbps")
		sr = val(T "/cb-" b "/runs/c0000/summary.csv", "react_mean_gbps")
		if ($col[b "_base_gbps"] + 0 != sb + 0 || $col[b "_react_gbps"] + 0 != sr + 0)
			{ print "FAIL " b ": " $col[b "_base_gbps"] " / " $col[b "_react_gbps"] ", react run " sb " / " sr; bad++ }
	}
	r = $col["gpu_base_gbps"] / $col["flow_base_gbps"]
	if (r - $col["gpu_ratio_base"] > 1e-5 || $col["gpu_ratio_base"] - r > 1e-5)
		{ print "FAIL gpu_ratio_base " $col["gpu_ratio_base"] ", want " r; bad++ }
	rows++
}
END { if (rows != 1) { print "FAIL " rows " rows"; bad++ } exit bad > 0 }' "$T/cb.csv" >"$T/cb.chk" ||
	fail "compare-backends columns: $(cat "$T/cb.chk")"
grep -q "^gpu against flow over 1 run" "$T/cb.out" || fail "compare-backends summary: $(cat "$T/cb.out")"
"$R" compare-backends "$SRC/scenarios/quickstart.yaml" --backends flow,gpu --quiet >"$T/cb2.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "quickstart.yaml:[0-9]*: field 'congestion.external'" "$T/cb2.out" ||
	fail "compare-backends with a field gpu cannot model (exit $rc): $(cat "$T/cb2.out")"

# congestion a backend cannot model: named, exit 2, nothing written
"$R" run "$S" --backend flow -o "$T/e1" >"$T/e1.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "host-slow-link.yaml:[0-9]*: field 'gpu.congestion'" "$T/e1.out" &&
	[ ! -e "$T/e1" ] || fail "gpu.congestion on flow (exit $rc): $(cat "$T/e1.out")"
"$R" run "$SRC/scenarios/quickstart.yaml" --backend gpu -o "$T/e2" >"$T/e2.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "quickstart.yaml:[0-9]*: field 'congestion.external'" "$T/e2.out" &&
	[ ! -e "$T/e2" ] || fail "congestion.external on gpu (exit $rc): $(cat "$T/e2.out")"
"$R" run "$SRC/scenarios/paper/fig6.yaml" --backend gpu --set congestion.external.p=0 >"$T/e3.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "fig6.yaml:[0-9]*: field 'jobs': the gpu backend runs one job" "$T/e3.out" ||
	fail "two jobs on gpu (exit $rc): $(cat "$T/e3.out")"
[ "$fails" -eq 0 ] || exit 1
echo "ok: react run --backend gpu matches react-gpu run; REACT reaches the uncongested speed (+$want %)"
