#!/bin/sh
# Paired comparison of two decision-benchmark runs (bench/decisions/run.sh
# -o A and -o B: the same sets and seeds, other controller settings).
#
# usage: bench/decisions/compare.sh [-r REPORT_A REPORT_B] A B [SET...]
#   A, B     run.sh's sweep directories (-o); every set with a runs.csv in
#            both, or the sets named
#   -r       the two runs' reports (run.sh -w): their settling lines and r
#            are set side by side too
#
# One line per set (and per algorithm or job where a set has several):
#   SET GROUP: n=N A +x B +y diff +d ± se (better b, worse w) oracle +o capt c1 -> c2
# n rows paired by configuration id and job; x, y their mean REACT gains
# (improvement_mean_pct, percent); d the mean of B - A with its standard
# error; b and w the rows where B is better or worse by more than half a
# point; where runs.csv has the oracle (run.sh without -N), its mean gain
# and the captured share (mean gain / the oracle's) of A and of B.
# With -r, per set: captured (c), epochs on patterns later reverted (rev),
# pattern changes per 100 epochs in the second half (late) and r of
# estimated and observed gain, A -> B.
set -eu

ra= rb=
if [ "${1:-}" = -r ]; then
	[ $# -ge 3 ] || { echo "compare.sh: -r needs two report files" >&2; exit 2; }
	ra=$2 rb=$3
	shift 3
	for f in "$ra" "$rb"; do
		[ -f "$f" ] || { echo "compare.sh: -r: no report '$f'" >&2; exit 2; }
	done
fi
[ $# -ge 2 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
a=$1 b=$2
shift 2
for d in "$a" "$b"; do
	[ -d "$d" ] || { echo "compare.sh: no sweep directory '$d'" >&2; exit 2; }
done
if [ $# -gt 0 ]; then
	sets="$*"
else
	sets=
	for f in "$a"/*/runs.csv; do
		[ -f "$f" ] || continue
		s=$(basename "$(dirname "$f")")
		[ -f "$b/$s/runs.csv" ] && sets="$sets $s"
	done
fi
[ -n "$sets" ] || { echo "compare.sh: no set with a runs.csv in both '$a' and '$b'" >&2; exit 2; }

for s in $sets; do
	for d in "$a" "$b"; do
		[ -f "$d/$s/runs.csv" ] || { echo "compare.sh: $d/$s/runs.csv missing" >&2; exit 2; }
	done
	awk -F, -v set="$s" '
	function col(name) { return (name in h) ? h[name] : 0 }
	FNR == 1 {
		file++
		delete h
		for (i = 1; i <= NF; i++) h[$i] = i
		ci = col("id"); cj = col("job"); cg = col("improvement_mean_pct")
		co = col("oracle_impr_pct"); ca = col("algorithm")
		if (!ci || !cg) { printf "compare.sh: %s: no id or improvement_mean_pct column\n", FILENAME > "/dev/stderr"; bad = 1; exit 2 }
		next
	}
	{
		key = $ci "," (cj ? $cj : "")
		if (file == 1) {
			ga[key] = $cg
			al[key] = ca ? $ca : ""; jb[key] = cj ? $cj : ""
			if (!(al[key] in sal)) { sal[al[key]] = 1; nal++ }
			if (!(jb[key] in sjb)) { sjb[jb[key]] = 1; njb++ }
			if (co && $co != "") orc[key] = $co
		}
		else if (key in ga) { gb[key] = $cg; order[++n] = key }
	}
	function line(g,    k, m, sa, sb, sd, sdd, so, no, better, worse, x, se, cnt, out) {
		cnt = 0; sa = sb = sd = sdd = so = no = better = worse = 0
		for (k = 1; k <= n; k++) {
			x = order[k]
			if (g != "all" && grpof[x] != g) continue
			cnt++; sa += ga[x]; sb += gb[x]; sd += gb[x] - ga[x]; sdd += (gb[x] - ga[x]) ^ 2
			if (gb[x] - ga[x] > 0.5) better++
			if (gb[x] - ga[x] < -0.5) worse++
			if (x in orc) { so += orc[x]; no++ }
		}
		if (!cnt) return
		m = sd / cnt
		se = cnt > 1 ? sqrt((sdd - cnt * m * m) / (cnt - 1) / cnt) : 0
		out = sprintf("%s %s: n=%d A %+.2f B %+.2f diff %+.2f ± %.2f (better %d, worse %d)", set, g, cnt,
		              sa / cnt, sb / cnt, m, se, better, worse)
		if (no == cnt && so != 0)
			out = out sprintf(" oracle %+.2f capt %.3f -> %.3f", so / cnt, sa / so, sb / so)
		print out
	}
	END {
		if (bad) exit 2
		# groups: the algorithm, the job or both, whichever has several values
		for (k = 1; k <= n; k++) {
			x = order[k]
			grpof[x] = nal > 1 && njb > 1 ? al[x] "/" jb[x] : nal > 1 ? al[x] : njb > 1 ? jb[x] : "all"
		}
		ng = 0
		for (k = 1; k <= n; k++) if (!(grpof[order[k]] in seen)) { seen[grpof[order[k]]] = 1; gl[++ng] = grpof[order[k]] }
		line("all")
		if (ng > 1) for (k = 1; k <= ng; k++) line(gl[k])
	}' "$a/$s/runs.csv" "$b/$s/runs.csv"
done

[ -n "$ra" ] || exit 0
echo "settling and r (A -> B):"
for s in $sets; do
	awk -v set="$s" '
	# the set block of each report: its first block of that name
	FNR == 1 { file++; inb = 0; done = 0 }
	/^[^ #][^ ]*: [0-9]+ REACT runs/ { inb = !done && $1 == set ":"; if (inb) done = 1; next }
	inb && /captured/ { v = $NF; c[file] = v }
	inb && /measured epochs on patterns later reverted/ { for (i = 1; i <= NF; i++) if ($i == "reverted:") r[file] = $(i + 1) " %" }
	inb && /changes per 100 epochs, second half/ { l[file] = $NF }
	inb && /estimated vs observed gain/ { for (i = 1; i <= NF; i++) if ($i == "=") rr[file] = $(i + 1) }
	END {
		out = set
		if ((1 in c) && (2 in c)) out = out sprintf(" c: %s -> %s |", c[1], c[2])
		out = out sprintf(" rev: %s -> %s | late: %s -> %s | r: %s -> %s", r[1], r[2], l[1], l[2], rr[1], rr[2])
		print out
	}' "$ra" "$rb"
done
