#!/bin/sh
# scripts/validate.sh - rerun scenarios/validation on both backends.
#
#   scripts/validate.sh [-j N] [-m "9000 1500"] [-f flow|dctcp] [-o DIR]
#                       [-r DIR] [-s "SCENARIO..."] [-x "EXTRA ARGS"] [REACT]
#
# Every configuration of every scenario runs as its own
# `react compare-backends --fluid F --config I` process (N at a time,
# default: all cores), at each MTU.  F is the flow-level backend compared
# with ns-3: flow (default, max-min rates) or dctcp (the DCTCP window model).
# The rows are then merged per scenario and MTU into DIR/<scenario>.txt /
# .csv (MTU 9000, the scenarios' own) and DIR/<scenario>-mtu1500.txt / .csv,
# each ending with its agreement counts, and DIR/summary.txt sums them.
# DIR defaults to results/validation; REACT to build/react.  -s picks
# scenarios (default scenarios/validation/*.yaml); -x adds arguments to every
# compare-backends call (e.g. "--set jobs.0.epochs=4" for a quick look);
# -r DIR takes the ns-3 side from an earlier run's
# DIR/<scenario>[-mtu1500].csv (--ns3-from) instead of running ns-3 again.
# Files are written to a temporary directory first and moved into place at
# the end.
set -eu
jobs=$(nproc 2>/dev/null || echo 2)
mtus="9000 1500"
fluid=flow
reuse=
out=results/validation
scen=$(ls scenarios/validation/*.yaml)
extra=
while [ $# -gt 0 ]; do
	case "$1" in
	-j) jobs=$2; shift 2 ;;
	-m) mtus=$2; shift 2 ;;
	-f) fluid=$2; shift 2 ;;
	-r) reuse=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-s) scen=$2; shift 2 ;;
	-x) extra=$2; shift 2 ;;
	-h|--help) sed -n '2,20p' "$0"; exit 0 ;;
	-*) echo "validate.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
react=${1:-build/react}
[ -x "$react" ] || { echo "validate.sh: $react is not an executable (build first: meson compile -C build)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/react-validate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the task list: scenario mtu config
for s in $scen; do
	n=$("$react" run "$s" --config 999999 2>&1 | sed -n 's/.*the scenario has \([0-9]*\) configuration.*/\1/p')
	[ -n "$n" ] || { echo "validate.sh: cannot count the configurations of $s" >&2; exit 2; }
	for m in $mtus; do
		i=0
		while [ "$i" -lt "$n" ]; do
			echo "$s $m $i"
			i=$((i + 1))
		done
	done
done > "$tmp/tasks"
total=$(wc -l < "$tmp/tasks")
echo "validate.sh: $total runs (configuration x MTU), $jobs at a time"

# MTU 1500 runs cost about 6x more: start them first
sort -k2,2n "$tmp/tasks" | while read -r s m i; do
	b=$(basename "$s" .yaml)
	from=
	if [ -n "$reuse" ]; then
		name=$b
		[ "$m" = 9000 ] || name=$b-mtu$m
		from="--ns3-from $reuse/$name.csv"
	fi
	echo "$s $m $i $tmp/$b-$m-$(printf %04d "$i") $fluid \"$from $extra\""
done | xargs -P "$jobs" -L 1 sh -c '
	"$0" compare-backends "$1" --set mtu="$2" --config "$3" --fluid "$5" --csv "$4.csv" $6 > "$4.txt" 2> "$4.err" ||
		{ echo "validate.sh: $1 mtu $2 config $3 failed:" >&2; cat "$4.err" >&2; exit 255; }
	echo "  done $(basename "$4")"' "$react"

mkdir -p "$tmp/out"
: > "$tmp/out/summary.txt"
for s in $scen; do
	b=$(basename "$s" .yaml)
	for m in $mtus; do
		name=$b
		[ "$m" = 9000 ] || name=$b-mtu$m
		first=$(ls "$tmp/$b-$m-"*.txt | head -n 1)
		n=$(ls "$tmp/$b-$m-"*.txt | wc -l)
		{
			echo "scenario $b: $n configurations at MTU $m, $fluid vs ns3 (algbw in GB/s, mean after warm-up)"
			sed -n 2p "$first"
			for f in "$tmp/$b-$m-"*.txt; do grep '^c[0-9]' "$f"; done
		} > "$tmp/out/$name.txt"
		head -n 1 "$(ls "$tmp/$b-$m-"*.csv | head -n 1)" > "$tmp/out/$name.csv"
		for f in "$tmp/$b-$m-"*.csv; do tail -n +2 "$f"; done >> "$tmp/out/$name.csv"
		awk -F, -v name="$name" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ n++; a += $c["algbw_agree"]; g += $c["sign_agree"]; if ($c["algbw_agree"] && $c["sign_agree"]) both++
			  if (("sig_sign_agree" in c) && $c["sig_sign_agree"] != "") { m++; s += $c["sig_sign_agree"] } }
			END { printf "%s: agreement over %d runs: algbw within 15%% %d (%.0f%%), same sign of improvement %d (%.0f%%), both %d (%.0f%%)",
			      name, n, a, 100*a/n, g, 100*g/n, both, 100*both/n
			      if (m) printf ", same significant sign %d of %d (%.0f%%)", s, m, 100*s/m
			      printf "\n" }' "$tmp/out/$name.csv" > "$tmp/agree"
		sed 's/^[^:]*: //' "$tmp/agree" >> "$tmp/out/$name.txt"
		cat "$tmp/agree" >> "$tmp/out/summary.txt"
	done
done
awk -F'[ (]+' '/agreement over/ { for (i = 1; i <= NF; i++) { if ($i == "over") n += $(i+1); if ($i == "15%") a += $(i+1); if ($i == "improvement") g += $(i+1); if ($i == "both") b += $(i+1); if ($i == "significant") { s += $(i+2); m += $(i+4) } } }
	END { printf "all: agreement over %d runs: algbw within 15%% %d (%.0f%%), same sign %d (%.0f%%), both %d (%.0f%%)", n, a, 100*a/n, g, 100*g/n, b, 100*b/n
	      if (m) printf ", same significant sign %d of %d (%.0f%%)", s, m, 100*s/m
	      printf "\n" }' \
	"$tmp/out/summary.txt" >> "$tmp/out/summary.txt"
mkdir -p "$out"
for f in "$tmp/out/"*; do
	cp "$f" "$out/.$(basename "$f").tmp" && mv "$out/.$(basename "$f").tmp" "$out/$(basename "$f")"
done
cat "$out/summary.txt"
