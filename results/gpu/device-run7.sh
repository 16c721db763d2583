#!/bin/bash
# Seventh run: the beam search on several threads (params.search_threads)
# against the tuner's consensus lag.  bench-controller's decision part
# (search_threads 1, 2, 4, 8 side by side: the same decisions required),
# then react-gpu run at D = 1 and 5 with 1 search thread and with
# react-gpu run's default (half the cores, at most 8).
O=${1:?output dir}
nvidia-smi -L > $O/env.txt 2>&1; nproc >> $O/env.txt; uptime >> $O/env.txt
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
CC=cc; command -v mpicc >/dev/null && CC=mpicc
$CC -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icontroller/include -I.devdeps/include \
	-o build-device/bench-controller bench/controller/bench_controller.c \
	build-device/obj-host/controller_src_*.o -L.devdeps/lib -Wl,-Bstatic -lgsl -lgslcblas \
	-Wl,-Bdynamic -lm -lpthread >> $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
build-device/bench-controller --decision > $O/bench_controller.txt 2>&1; echo "bench rc=$?" >> $O/bench_controller.txt
B=build-device/react-gpu
mk() { sed -e "s/algorithm: ring/algorithm: $2/" -e "s/ranks: 8/ranks: $3/" \
	-e "s/message: 64MiB/message: $4/" -e "s/epochs: 60/epochs: 120/" -e "s/^name: .*/name: $1/" \
	scenarios/gpu/local-congested.yaml > /tmp/$1.yaml; }
mk local-tree8 tree 8 64MiB; mk local-rhd8 rhd 8 64MiB; mk local-tree16 tree 16 64MiB
mk local-tree8-4M tree 8 4MiB
for s in local-tree8 local-rhd8 local-tree16 local-tree8-4M; do for d in 1 5; do for t in 1 8; do
	echo "== $s D=$d threads=$t"
	timeout 120 $B run /tmp/$s.yaml --apply-delay $d --search-threads $t --out /tmp/o-$s-$d-$t --quiet 2>&1
	echo "rc=$?"; done; done; done > $O/local_lag.txt 2>&1
for s in local-tree8 local-rhd8 local-tree16 local-tree8-4M; do for d in 1 5; do
	cmp -s /tmp/o-$s-$d-1/decisions.jsonl /tmp/o-$s-$d-8/decisions.jsonl && r=same || r=differ
	echo "$s D=$d: decisions.jsonl 1 vs 8 threads: $r (measured FCTs differ from run to run)"; done; done >> $O/local_lag.txt
cat $O/bench_controller.txt | sed -n '/search_threads/,$p'
grep -E "^==|tuner|react|baseline|rc=|threads:" $O/local_lag.txt
