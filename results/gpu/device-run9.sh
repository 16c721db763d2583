#!/bin/bash
# Ninth run: fruitless_stop (after two searches from one base found
# nothing, none from it until the base changes, new steady congestion
# appears or the loop starts afresh) on the GPU tuner at its D = 5, against
# fruitless_stop 0.  Local transport on one GPU (background copies slow
# every flow: the tries fail), tree, rhd and ring AllReduce of 8 ranks, 120
# epochs, 3 runs of each setting, alternated; every epoch checked.  The
# per-run directories come back as one archive, runs.tar.gz.
O=${1:?output dir}
nvidia-smi -L > $O/env.txt 2>&1; nproc >> $O/env.txt; uptime >> $O/env.txt
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
R=$(mktemp -d)
mk() { sed -e "s/algorithm: ring/algorithm: $2/" -e "s/epochs: 60/epochs: 120/" \
	-e "s/^name: .*/name: $1/" scenarios/gpu/local-congested.yaml > /tmp/$1.yaml
	printf 'params: {fruitless_stop: 0}\n' | cat /tmp/$1.yaml - > /tmp/$1-fs0.yaml; }
mk local-tree8 tree; mk local-rhd8 rhd; mk local-ring8 ring
for s in local-tree8 local-rhd8 local-ring8; do for r in 1 2 3; do for v in "" -fs0; do
	echo "== $s$v run $r"
	timeout 120 $B run /tmp/$s$v.yaml --apply-delay 5 --out $R/$s$v-$r --quiet 2>&1
	echo "rc=$?"; done; done; done > $O/runs.txt 2>&1
grep -E "^==|  baseline|  react |rc=" $O/runs.txt
grep -c "(fruitless_stop)" $R/*/decisions.jsonl
tar -czf $O/runs.tar.gz -C $R .
