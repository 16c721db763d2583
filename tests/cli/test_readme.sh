#!/bin/sh
# The README's transcripts are true: every command line of README.md that
# starts with "$ build/react" inside a ``` block is run (its -o directory
# replaced by a scratch one), and every line the README shows for it must
# appear in its output, in the same order (a line " ..." stands for rows
# left out).  A controller change that alters the quick-start run fails
# here until the README's worked example is updated.
# usage: test_readme.sh PATH/TO/react SOURCE_ROOT
set -u
R="$1"
SRC="$2"
T=$(mktemp -d /tmp/react-readme-XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$SRC" || exit 1
awk -v T="$T" '
/^```/ { inblk = !inblk; if (!inblk && n) close(f); n = 0; next }
inblk && /^\$ build\/react / { k++; f = T "/want" k; cmd = substr($0, 3); print cmd > (T "/cmd" k); n = 1; next }
inblk && n && $0 != " ..." { print > f }
' README.md
ncmd=$(ls "$T"/cmd* 2>/dev/null | wc -l)
[ "$ncmd" -ge 1 ] || { echo "FAIL: no '\$ build/react' transcript in README.md"; exit 1; }
fails=0
for c in "$T"/cmd*; do
	k=${c#"$T"/cmd}
	cmd=$(cat "$c" | sed "s# -o [^ ]*# -o $T/out$k#; s#^build/react#$R#")
	sh -c "$cmd" >"$T/got$k" 2>"$T/err$k" || { echo "FAIL: $cmd: $(tail -n 3 "$T/err$k")"; fails=$((fails + 1)); continue; }
	# every wanted line in order
	awk -v W="$T/want$k" '
	BEGIN { while ((getline l < W) > 0) want[++n] = l; i = 1 }
	i <= n && $0 == want[i] { i++ }
	END { if (i <= n) { print "README line not in the output (in order): " want[i]; exit 1 } }
	' "$T/got$k" >"$T/diff$k" || { echo "FAIL: $(cat "$c"): $(cat "$T/diff$k")"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] || exit 1
echo "ok: $ncmd README transcript(s) reproduced"
