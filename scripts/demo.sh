#!/bin/sh
# make demo: generate, verify and print a pattern (the simulator's quick start replaces this).
set -eu
B=${1:-build}
mkdir -p results/demo
"$B/react" pattern --collective allreduce --algorithm tree --ranks 8 --bytes 20MB -o results/demo/tree8.json
"$B/react" verify results/demo/tree8.json
"$B/react" show results/demo/tree8.json
