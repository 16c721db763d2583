#!/bin/sh
# End-to-end runs of react pattern | verify | show: outputs and exit codes.
# usage: test_cli.sh PATH/TO/react
set -u
R="$1"
T=$(mktemp -d /tmp/react-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
expect() { # expect RC DESCRIPTION -- command...
	want=$1; what=$2; shift 3
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: $what: exit $rc, want $want"; cat "$T/out" "$T/err"; fails=$((fails+1))
	fi
}
grep_out() { # grep_out FILE PATTERN DESCRIPTION
	if ! grep -q -- "$2" "$1"; then echo "FAIL: $3: '$2' not in output"; cat "$1"; fails=$((fails+1)); fi
}

expect 0 "pattern --help" -- "$R" pattern --help
grep_out "$T/out" "usage: react pattern" "pattern --help"
expect 0 "verify --help" -- "$R" verify --help
expect 0 "show --help" -- "$R" show --help
for spec in "allreduce tree" "allreduce ring" "allreduce rhd" "allgather ring" "allgather recdbl"; do
	set -- $spec
	expect 0 "pattern $1 $2" -- "$R" pattern --collective "$1" --algorithm "$2" --ranks 13 --bytes 20MiB -o "$T/$1-$2.json"
	expect 0 "verify $1 $2" -- "$R" verify "$T/$1-$2.json"
	grep_out "$T/out" "^ok: $1/$2, 13 ranks" "verify $1 $2"
done
expect 0 "pattern to stdout" -- "$R" pattern --collective allreduce --algorithm tree --ranks 8
grep_out "$T/out" '"format":"react-pattern"' "pattern to stdout"
cp "$T/out" "$T/stdout.json"
expect 0 "verify stdout file" -- "$R" verify "$T/stdout.json"
grep_out "$T/out" "ok: allreduce/tree, 8 ranks, 6 steps, 2 chunks in 2 chunk graphs, 28 flows" "verify tree 8"

# a negative verdict: drop the last flow of a 4-rank ring AllReduce
expect 0 "pattern ring 4" -- "$R" pattern --collective allreduce --algorithm ring --ranks 4 --bytes 1KB -o "$T/r4.json"
grep -v '^\[5,3,0,' "$T/r4.json" | sed 's/^\(\[5,2,3,.*"store"\]\),$/\1/' >"$T/r4-broken.json"
expect 1 "verify broken ring" -- "$R" verify "$T/r4-broken.json"
grep_out "$T/out" "not ok: .*rank 0 chunk .* lacks the contribution" "verify broken ring"

# bad input: exit 2 naming file, field and reason
sed 's/\[0,0,1,0,1,250,"reduce"\]/[0,0,9,0,1,250,"reduce"]/' "$T/r4.json" >"$T/r4-bad.json"
expect 2 "verify out-of-range rank" -- "$R" verify "$T/r4-bad.json"
grep_out "$T/err" "r4-bad.json: flows\[0\]\[2\] (dst): rank 9 out of range" "verify out-of-range rank"
expect 2 "verify missing file" -- "$R" verify "$T/none.json"
grep_out "$T/err" "none.json: cannot open" "verify missing file"
expect 2 "unknown option" -- "$R" pattern --collective allreduce --algorithm tree --ranks 8 --frobnicate
grep_out "$T/err" "unknown option '--frobnicate'" "unknown option"
expect 2 "bad ranks" -- "$R" pattern --collective allreduce --algorithm tree --ranks 1
expect 2 "bad size" -- "$R" pattern --collective allreduce --algorithm tree --ranks 8 --bytes 12XB
expect 2 "unsupported pair" -- "$R" pattern --collective allgather --algorithm tree --ranks 8
expect 2 "unknown collective" -- "$R" pattern --collective alltoall --algorithm ring --ranks 8

# a 200-byte file asking for 60000 ranks: refused at once, naming the field
printf '{"format":"react-pattern","version":1,"collective":"allreduce","algorithm":"custom","ranks":60000,"chunks":1,"message_bytes":100,"root":null,"flows":[[0,0,1,0,1,25,"reduce"],[1,1,0,0,1,25,"store"]]}\n' >"$T/huge.json"
expect 2 "verify tiny file with huge ranks" -- "$R" verify "$T/huge.json"
grep_out "$T/err" 'huge.json: field "ranks": 60000 ranks but 2 flows; every rank but one must send or receive, so at most 3 ranks' "verify huge ranks"
# out of memory under an address-space limit: a message that says so, never
# an empty "react verify: " (skipped where AddressSanitizer needs the space)
expect 0 "pattern ring 512" -- "$R" pattern --collective allreduce --algorithm ring --ranks 512 --bytes 1MB -o "$T/r512.json"
(ulimit -v 150000 2>/dev/null && "$R" verify "$T/r512.json") >"$T/out" 2>"$T/err"; rc=$?
if grep -q Sanitizer "$T/err"; then
	echo "skipped: verify under ulimit -v (sanitizer build)"
else
	[ "$rc" -eq 2 ] || { echo "FAIL: verify out of memory: exit $rc, want 2"; cat "$T/err"; fails=$((fails+1)); }
	grep_out "$T/err" "^react verify: $T/r512.json: .*out of memory" "verify out of memory"
fi

# show
expect 0 "show" -- "$R" show "$T/r4.json"
grep_out "$T/out" "^step 0: 4 flows, 1000 B, max out-degree 1, max in-degree 1" "show step summary"
grep_out "$T/out" "0 -> 1    chunk 0  250 B  reduce" "show flow line"
expect 0 "show --dot" -- "$R" show --dot "$T/allreduce-tree.json"
grep_out "$T/out" "^digraph ten {" "show --dot"
grep_out "$T/out" '"0,1" -> "1,2" \[color="#1f77b4"' "show --dot edge"
expect 2 "show bad option" -- "$R" show --svg "$T/r4.json"

if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "all CLI checks passed"
