#!/bin/sh
# Adds oracle results to the archive that bench/decisions/run.sh starts its
# oracle cache with (docs/oracle.md, "react sweep --oracle").
#
# usage: bench/decisions/pack-cache.sh [-a ARCHIVE] CACHE_DIR...
#   -a ARCHIVE  the archive (default bench/decisions/oracle-cache.tar.xz)
#   CACHE_DIR   oracle caches (a run.sh sweep's DIR/oracle-cache, or any
#               --oracle-cache DIR): every complete result in them
#               (<fingerprint>/oracle.csv and its patterns) joins the
#               archive; one already in it is replaced by the newer
#
# The archive is written with sorted names, owner 0 and a fixed time, so
# the same results give the same bytes, and atomically (a temporary file
# renamed into place).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
arch=$root/bench/decisions/oracle-cache.tar.xz
if [ "${1:-}" = -a ]; then
	[ $# -ge 2 ] || { echo "pack-cache.sh: -a needs a file" >&2; exit 2; }
	arch=$2
	shift 2
fi
[ $# -ge 1 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/c"
[ -f "$arch" ] && tar -xJf "$arch" -C "$work/c"
before=$(find "$work/c" -name oracle.csv | wc -l)
for d in "$@"; do
	[ -d "$d" ] || { echo "pack-cache.sh: $d: not a directory" >&2; exit 2; }
	for e in "$d"/*/; do
		e=${e%/}
		[ -f "$e/oracle.csv" ] || continue
		fp=$(basename "$e")
		case $fp in *[!0-9a-f]* | "") continue ;; esac
		rm -rf "$work/c/$fp"
		mkdir "$work/c/$fp"
		cp "$e"/oracle.csv "$e"/oracle-*.json "$work/c/$fp/"
	done
done
after=$(find "$work/c" -name oracle.csv | wc -l)
tar -cJf "$work/a.tar.xz" --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime=2026-01-01 -C "$work/c" .
mv "$work/a.tar.xz" "$arch.tmp.$$"
mv "$arch.tmp.$$" "$arch"
echo "pack-cache.sh: $arch: $after results ($((after - before)) new)"
