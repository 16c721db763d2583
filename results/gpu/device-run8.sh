#!/bin/bash
# Eighth run: escalation_delay (each failed round weighs (L + D) / L in the
# escalated bar) on the GPU tuner at its D = 5, against escalation_delay 0.
# Local transport on one GPU (background copies slow every flow: the tries
# fail), tree, rhd and ring AllReduce of 8 ranks, 120 epochs, 3 runs of
# each setting, alternated; every epoch checked.
O=${1:?output dir}
nvidia-smi -L > $O/env.txt 2>&1; nproc >> $O/env.txt; uptime >> $O/env.txt
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
mk() { sed -e "s/algorithm: ring/algorithm: $2/" -e "s/epochs: 60/epochs: 120/" \
	-e "s/^name: .*/name: $1/" scenarios/gpu/local-congested.yaml > /tmp/$1.yaml
	printf 'params: {escalation_delay: 0}\n' | cat /tmp/$1.yaml - > /tmp/$1-ed0.yaml; }
mk local-tree8 tree; mk local-rhd8 rhd; mk local-ring8 ring
for s in local-tree8 local-rhd8 local-ring8; do for r in 1 2 3; do for v in "" -ed0; do
	echo "== $s$v run $r"
	timeout 120 $B run /tmp/$s$v.yaml --apply-delay 5 --out $O/$s$v-$r --quiet 2>&1
	echo "rc=$?"; done; done; done > $O/runs.txt 2>&1
grep -E "^==|  baseline|  react |rc=" $O/runs.txt
grep -c "for D = 5" $O/*/decisions.jsonl
