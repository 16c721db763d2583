#!/bin/bash
# Sixth run: the tuner's consensus lag (an epoch handed over to its decision
# known on every rank) and the apply delay D a job needs not to wait for it.
# Each scenario at D = 0, 1, 2 and 5 (react-gpu run --apply-delay D).
O=${1:?output dir}
nvidia-smi -L > $O/env.txt 2>&1; nproc >> $O/env.txt
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
# local transport variants of scenarios/gpu/local-congested.yaml, 120 epochs
mk() { sed -e "s/algorithm: ring/algorithm: $2/" -e "s/ranks: 8/ranks: $3/" \
	-e "s/message: 64MiB/message: $4/" -e "s/epochs: 60/epochs: 120/" -e "s/^name: .*/name: $1/" \
	scenarios/gpu/local-congested.yaml > /tmp/$1.yaml; }
mk local-ring8 ring 8 64MiB; mk local-tree8 tree 8 64MiB; mk local-rhd8 rhd 8 64MiB
mk local-tree16 tree 16 64MiB; mk local-tree8-4M tree 8 4MiB
for s in local-ring8 local-tree8 local-rhd8 local-tree16 local-tree8-4M; do for d in 0 1 2 5; do
	echo "== $s D=$d"; timeout 120 $B run /tmp/$s.yaml --apply-delay $d --out /tmp/o-$s-$d --quiet 2>&1
	echo "rc=$?"; done; done > $O/local_lag.txt 2>&1
cp /tmp/o-local-tree8-5/decisions.jsonl $O/local_tree8_d5_decisions.jsonl
cat > /tmp/w.sh <<'X'
#!/bin/bash
export NCCL_HOSTID=react-$OMPI_COMM_WORLD_RANK NCCL_SOCKET_IFNAME=lo NCCL_DEBUG=WARN
exec "$@"
X
chmod +x /tmp/w.sh
MR="mpirun --allow-run-as-root --oversubscribe"
sed -e "s/algorithm: ring/algorithm: tree/" -e "s/epochs: 30/epochs: 60/" -e "s/^name: .*/name: nccl-tree4/" \
	scenarios/gpu/nccl-congested.yaml > /tmp/nccl-tree4.yaml
sed -e "s/epochs: 30/epochs: 60/" -e "s/^name: .*/name: nccl-ring4/" scenarios/gpu/nccl-congested.yaml > /tmp/nccl-ring4.yaml
for s in nccl-ring4 nccl-tree4; do for d in 0 1 5; do echo "== $s D=$d"
	timeout 150 $MR -np 4 /tmp/w.sh $B run /tmp/$s.yaml --transport nccl --apply-delay $d --out /tmp/o-$s-$d --quiet 2>&1 |
		grep -v "^NCCL version"; echo "rc=${PIPESTATUS[0]}"; done; done > $O/nccl_lag.txt 2>&1
grep -E "^==|tuner|react |baseline|rc=" $O/local_lag.txt $O/nccl_lag.txt
