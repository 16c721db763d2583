#!/bin/bash
# Third H200 run: the remaining rank counts of the local correctness sweep
# (6, 7, 9-12, 14, 15; 1 KB - 1 GB, every pattern), and the timing cost and
# switch cost at 16 ranks.
O=${1:?output dir}
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
for n in 6 7 9 10 11 12 14 15; do
  timeout 60 $B bench --transport local --ranks $n --pattern all --minbytes 1K --maxbytes 1G \
    --check --iters 3 --warmup 1 || echo "FAILED ranks $n rc=$?"
done > $O/local_check.txt 2>&1
awk '/react-gpu bench/{n=$7} /^ /{rows[n]++; w[n]+=$9} END{for(k in rows) print "ranks", k, rows[k], "rows, wrong", w[k]}' $O/local_check.txt | sort -k2 -n
grep FAILED $O/local_check.txt
{ timeout 90 $B overhead --transport local --ranks 16 --bytes 256M --epochs 10 --pattern ring
  timeout 90 $B overhead --transport local --ranks 2 --bytes 256M --epochs 10 --pattern ring; } > $O/costs.txt 2>&1
cat $O/costs.txt
