# Sourced by the react-gpu end-to-end scripts: a scratch directory $T
# removed at exit, and fail MESSAGE, which prints it and counts it in $fails.
T=$(mktemp -d /tmp/react-gpu-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
