#!/bin/bash
# Fourth H200 run: the local transport after timing only the receiving end
# (one event pair per flow): correctness again, timing cost, scenario.
O=${1:?output dir}
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
for n in 3 8 16; do timeout 60 $B bench --transport local --ranks $n --pattern all --minbytes 1K --maxbytes 1G \
  --check --iters 3 --warmup 1 || echo "FAILED ranks $n rc=$?"; done > $O/local_check.txt 2>&1
awk '/react-gpu bench/{n=$6} /^ /{rows[n]++; w[n]+=$9} END{for(k in rows) print "ranks", k, rows[k], "rows, wrong", w[k]}' $O/local_check.txt | sort -k2 -n
grep FAILED $O/local_check.txt
{ timeout 90 $B overhead --transport local --ranks 8 --bytes 256M --epochs 20
  timeout 90 $B overhead --transport local --ranks 16 --bytes 256M --epochs 10 --pattern ring
  timeout 60 $B flows --transport local --ranks 8 --pattern ring --bytes 64M
  timeout 60 $B switch --transport local --ranks 8 --bytes 64M; } > $O/costs.txt 2>&1
cat $O/costs.txt
{ timeout 120 $B run scenarios/gpu/local-congested.yaml --out /tmp/lc; echo "rc=$?"; } > $O/run_local.txt 2>&1
cp /tmp/lc/epochs.csv $O/local_epochs.csv; cp /tmp/lc/decisions.jsonl $O/local_decisions.jsonl
cat $O/run_local.txt
