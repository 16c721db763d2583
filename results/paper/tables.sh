#!/bin/sh
# The tables of results/paper/README.md from the runs.csv files that
# make.sh writes: the figures side by side with the paper, the oracle beside
# both profiles, fig. 5(a) by congested pairs, and the DCTCP window model's
# directories beside max-min where they exist.  Prints markdown.
#   results/paper/tables.sh [DIR]   (DIR: default results/paper)
set -eu
D=${1:-results/paper}
for f in fig5a fig5b fig6 fig7a fig7b fig8 fig12; do
	for s in "" -paper; do
		[ -f "$D/$f$s/runs.csv" ] || { echo "tables.sh: $D/$f$s/runs.csv: missing (run make.sh)" >&2; exit 2; }
	done
done

# stat FILE WHERE [FORMAT]: over the REACT rows of FILE for which the awk
# condition WHERE holds (columns by name: v("p")), the mean improvement,
# best, worst and pattern changes per run; FORMAT picks what is printed:
#   full  "+28.5 %, best +117 %, worst -0.9 %, 2.6 changes/run"
#   mb    "+8.8 %, best +27 %"
#   mw    "+6.0 %, best +40 %, worst -0.1 %"
#   range "+0.3 % (0.0..+3.2)"
#   mean  "+3.9 %"
stat() {
	awk -F, -v fmt="${3:-full}" '
	function v(k) { return $(c[k]) }
	function pct(x) { x = sprintf("%.1f", x); if (x == "-0.0") x = "0.0"; return (x + 0 > 0 ? "+" : "") x }
	function pct0(x) { x = sprintf("%.0f", x); if (x == "-0") x = "0"; return (x + 0 > 0 ? "+" : "") x }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	v("react") == 1 && ('"$2"') {
		x = v("improvement_mean_pct") + 0
		n++; s += x; ch += v("pattern_changes")
		if (n == 1 || x > mx) mx = x
		if (n == 1 || x < mn) mn = x
	}
	END {
		if (!n) { printf "-"; exit }
		if (fmt == "full") printf "%s %%, best %s %%, worst %s %%, %.1f changes/run", pct(s / n), pct0(mx), pct(mn), ch / n
		else if (fmt == "mb") printf "%s %%, best %s %%", pct(s / n), pct0(mx)
		else if (fmt == "mw") printf "%s %%, best %s %%, worst %s %%", pct(s / n), pct0(mx), pct(mn)
		else if (fmt == "range") printf "%s %% (%s..%s)", pct(s / n), pct(mn), pct(mx)
		else printf "%s %%", pct(s / n)
	}' "$1"
}

# oracle FILE: "REACT jobs|oracle|react|captured" over every REACT row
oracle() {
	awk -F, '
	function pct(x) { x = sprintf("%.1f", x); return (x + 0 > 0 ? "+" : "") x }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["react"]) == 1 { n++; r += $(c["improvement_mean_pct"]); o += $(c["oracle_impr_pct"]) }
	END { printf "%d|%s %%|%s %%|%.2f", n, pct(o / n), pct(r / n), (o > 0 ? r / o : 0) }' "$1"
}

row() { # figure-label condition format
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$(stat "$D/$3/runs.csv" "$4" "$5")" \
		"$(stat "$D/$3-paper/runs.csv" "$4" "$5")"
}

echo "| figure | paper | default controller | paper profile |"
echo "| --- | --- | --- | --- |"
row "5(a) tree AllReduce, fat-tree k=8, p = 2..4" "mean +35 %, up to +60-95 %" fig5a 'v("p") >= 2' full
row "5(a), p = 1" "up to +20 %" fig5a 'v("p") == 1' mb
row "5(b) recursive doubling AllGather, p = 2..4" "mean +15 %" fig5b 'v("p") >= 2' full
row "5(b), p = 1" "" fig5b 'v("p") == 1' mb
printf '| no congestion (testbed, Table 2) | < 4 %% loss | tree fat-tree %s, tree star %s, recursive doubling %s | %s, %s, %s |\n' \
	"$(stat "$D/fig5a-p0/runs.csv" 1 range)" "$(stat "$D/fig12-p0/runs.csv" 1 range)" \
	"$(stat "$D/fig5b-p0/runs.csv" 1 range)" "$(stat "$D/fig5a-p0-paper/runs.csv" 1 range)" \
	"$(stat "$D/fig12-p0-paper/runs.csv" 1 range)" "$(stat "$D/fig5b-p0-paper/runs.csv" 1 range)"
row "12 tree AllReduce, star, p = 2..4" "higher gains than on the fat-tree" fig12 'v("p") >= 2' full
row "12, p = 1" "" fig12 'v("p") == 1' mb
jobs2() { # DIR-suffix figure: "job1 X, job2 Y" (fig7: job1/job2, fig6: tree/ring)
	f=$D/$2$1/runs.csv
	case $2 in
	fig6) printf 'tree %s, ring %s' "$(stat "$f" 'v("job") == "tree"' range)" \
		"$(stat "$f" 'v("job") == "ring"' range)" ;;
	*) printf 'job1 %s, job2 %s' "$(stat "$f" 'v("job") == "job1"' mean)" \
		"$(stat "$f" 'v("job") == "job2"' mean)" ;;
	esac
}
printf '| 6 tree + ring job, star, 0..8 shared hosts | improvement for both jobs | %s | %s |\n' \
	"$(jobs2 "" fig6)" "$(jobs2 -paper fig6)"
printf '| 7(a) two ring jobs, Alibaba 720 | REACT on job 1 helps both; on both: smaller gain | %s (both settings pooled) | %s |\n' \
	"$(jobs2 "" fig7a)" "$(jobs2 -paper fig7a)"
printf '| 7(b) recursive doubling + ring, Alibaba 720 | as 7(a) | %s | %s |\n' \
	"$(jobs2 "" fig7b)" "$(jobs2 -paper fig7b)"
f8() { # suffix: "+a / +b / +c %, best, worst"
	f=$D/fig8$1/runs.csv
	printf '%s / %s / %s, best %s, worst %s' \
		"$(stat "$f" 'v("rate") == "30Gbps"' mean | sed 's/ %//')" \
		"$(stat "$f" 'v("rate") == "50Gbps"' mean | sed 's/ %//')" \
		"$(stat "$f" 'v("rate") == "80Gbps"' mean)" \
		"$(stat "$f" 1 mw | sed 's/.*best //; s/, worst.*//')" \
		"$(stat "$f" 1 mw | sed 's/.*worst //')"
}
printf '| 8 tree, degraded links, 30 / 50 / 80 Gbps | up to +20 %% in the worst case | %s | %s |\n' \
	"$(f8 "")" "$(f8 -paper)"

echo
echo "| figure (REACT jobs) | oracle | default: REACT, captured | paper profile: REACT, captured |"
echo "| --- | --- | --- | --- |"
orow() { # label subset-directory (without -paper): a row where both profiles' exist
	[ -f "$D/$2/runs.csv" ] && [ -f "$D/$2-paper/runs.csv" ] || return 0
	d=$(oracle "$D/$2/runs.csv"); p=$(oracle "$D/$2-paper/runs.csv")
	echo "$d|$p" | awk -F'|' -v l="$1" '{ printf "| %s (%s) | %s | %s, **%s** | %s, %s |\n", l, $1, $2, $3, $4, $7, $8 }'
}
for x in "fig5a:5(a), seeds 1-5" "fig5b:5(b), seeds 1-3" "fig12:12, seeds 1-3" "fig8:8, seeds 1-3" \
	"fig6:6, seed 1, 0-3 shared hosts" "fig7a:7(a), seed 1" "fig7b:7(b), seed 1"; do
	orow "${x#*:}" "${x%%:*}-oracle"
done

for s in "" -paper; do
	echo
	[ -z "$s" ] && echo "Fig. 5(a) by congested pairs (mean over seeds, %), default controller:" ||
		echo "paper profile:"
	echo
	echo "| congested_pairs | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["react"]) == 1 { k = $(c["p"]) " " $(c["congested_pairs"]); s[k] += $(c["improvement_mean_pct"]); n[k]++ }
		END { split("1 2 4", ps, " ")
		      for (i = 1; i <= 3; i++) { printf "| p = %s |", ps[i]
		        for (q = 1; q <= 8; q++) { k = ps[i] " " q; x = n[k] ? sprintf("%.1f", s[k] / n[k]) : "-"
		          if (x == "-0.0") x = "0.0"; printf " %s%s |", (x + 0 > 0 ? "+" : ""), x }
		        print "" } }' "$D/fig5a$s/runs.csv"
done

# the DCTCP window model's directories (make-dctcp.sh), where they exist
[ -f "$D/fig5a-dctcp/runs.csv" ] || exit 0
for f in fig5a fig5b fig6 fig7a fig7b fig8 fig12; do
	for s in -dctcp -dctcp-paper; do
		[ -f "$D/$f$s/runs.csv" ] || { echo "tables.sh: $D/$f$s/runs.csv: missing" >&2; exit 2; }
	done
done
echo
echo "DCTCP window model (\`--backend dctcp --set mtu=9000\`):"
echo
echo "| figure | max-min, default | DCTCP, default | DCTCP, paper profile |"
echo "| --- | --- | --- | --- |"
drow() { # label figure condition format
	printf '| %s | %s | %s | %s |\n' "$1" "$(stat "$D/$2/runs.csv" "$3" "$4")" \
		"$(stat "$D/$2-dctcp/runs.csv" "$3" "$4")" "$(stat "$D/$2-dctcp-paper/runs.csv" "$3" "$4")"
}
drow "5(a), p = 2..4" fig5a 'v("p") >= 2' full
drow "5(b), p = 2..4" fig5b 'v("p") >= 2' full
drow "12, p = 2..4" fig12 'v("p") >= 2' full
printf '| 8, 30 / 50 / 80 Gbps | %s | %s | %s |\n' "$(f8 "")" "$(f8 -dctcp)" "$(f8 -dctcp-paper)"
printf '| 6 tree + ring | %s | %s | %s |\n' "$(jobs2 "" fig6)" "$(jobs2 -dctcp fig6)" "$(jobs2 -dctcp-paper fig6)"
printf '| 7(a) two rings | %s | %s | %s |\n' "$(jobs2 "" fig7a)" "$(jobs2 -dctcp fig7a)" "$(jobs2 -dctcp-paper fig7a)"
printf '| 7(b) recursive doubling + ring | %s | %s | %s |\n' "$(jobs2 "" fig7b)" "$(jobs2 -dctcp fig7b)" \
	"$(jobs2 -dctcp-paper fig7b)"
echo
echo "| figure (REACT jobs), DCTCP | oracle | default: REACT, captured | paper profile: REACT, captured |"
echo "| --- | --- | --- | --- |"
for f in fig5a fig5b fig12 fig8 fig6 fig7a fig7b; do
	orow "$f" "$f-dctcp-oracle"
done
