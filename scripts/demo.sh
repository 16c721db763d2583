#!/bin/sh
# make demo: run the quick-start scenario (baseline and REACT on the
# flow-level simulator) and print its per-epoch table and summary.
set -eu
B=${1:-build}
OUT=results/quickstart
"$B/react" run scenarios/quickstart.yaml -o "$OUT" --trace
echo
echo "results: $OUT/runs/c0000/epochs.csv (per epoch, both runs),"
echo "         $OUT/runs/c0000/decisions.jsonl (REACT's decisions),"
echo "         $OUT/runs/c0000/trace-tree.jsonl (FCT trace of the REACT run; replay it:"
echo "           $B/react replay $OUT/runs/c0000/pattern-tree.json $OUT/runs/c0000/trace-tree.jsonl)"
echo "next:    $B/react sweep scenarios/paper/fig5a.yaml -j 2   (Figure 5a, about 5 s)"
