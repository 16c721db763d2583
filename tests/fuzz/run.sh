#!/bin/sh
# Runs the libFuzzer harnesses for a while each (make fuzz):
#   tests/fuzz/run.sh BUILD SECONDS NAME...
# BUILD: a clang build with -fsanitize=fuzzer-no-link and ASan/UBSan (the
# Makefile's build-fuzz).  Each harness starts from its seed corpus
# (tests/fuzz/corpus/NAME, read only) and the inputs it found in earlier runs
# (BUILD/fuzz/corpus-NAME); a crash, leak, sanitizer report, timeout (10 s)
# or memory blow-up (over 2.5 GB) is written to BUILD/fuzz/NAME-crash-...
# and fails the run.  Exit 0 when no harness found anything.
set -u
build=$1; secs=$2; shift 2
src=$(cd "$(dirname "$0")" && pwd)
out=$build/fuzz
mkdir -p "$out" || exit 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=""
for name in "$@"; do
	exe=$build/tests/fuzz/fuzz-$name
	[ -x "$exe" ] || { echo "fuzz: $exe missing (is $build a clang build?)" >&2; exit 2; }
	mkdir -p "$out/corpus-$name"
	echo "fuzz: $name for ${secs} s (log: $out/$name.log)"
	"$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 -max_len=16384 \
		-dict="$src/$name.dict" -artifact_prefix="$out/$name-" -print_final_stats=1 \
		"$out/corpus-$name" "$src/corpus/$name" > "$out/$name.log" 2>&1
	rc=$?
	grep -E '^stat::number_of_executed_units|^Done' "$out/$name.log" | tr '\n' ' '
	echo
	if [ $rc -ne 0 ]; then
		echo "fuzz: $name FAILED (exit $rc):" >&2
		grep -E 'ERROR|SUMMARY|contract broken|Test unit written' "$out/$name.log" | head -5 >&2
		failed="$failed $name"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: failed:$failed; fix, then add the input to tests/fuzz/corpus/NAME/" >&2
	exit 1
fi
echo "fuzz: no crash in:" "$@"
