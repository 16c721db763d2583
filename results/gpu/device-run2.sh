#!/bin/bash
# Second H200 run: scenarios with the tuner (local, nccl), per-flow timing
# with pair vs one communicator, a hung peer, half types, timing cost in
# back-to-back form, NCCL's own collectives beside ours.
O=${1:?output dir}
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
cat > /tmp/w.sh <<'X'
#!/bin/bash
export NCCL_HOSTID=react-$OMPI_COMM_WORLD_RANK NCCL_SOCKET_IFNAME=lo NCCL_DEBUG=WARN
exec "$@"
X
chmod +x /tmp/w.sh
MR="mpirun --allow-run-as-root --oversubscribe"
{ timeout 120 $B run scenarios/gpu/local-congested.yaml --out /tmp/lc; echo "rc=$?"; } > $O/run_local.txt 2>&1
cp /tmp/lc/epochs.csv $O/local_epochs.csv; cp /tmp/lc/decisions.jsonl $O/local_decisions.jsonl
cat $O/run_local.txt
{ echo "== run nccl np 4"
  timeout 120 $MR -np 4 /tmp/w.sh $B run scenarios/gpu/nccl-loopback.yaml --transport nccl --out /tmp/nl; echo "rc=$?"
  for c in pair single; do for p in ring tree; do
    echo "== flows np 4 $c $p"; timeout 60 $MR -np 4 /tmp/w.sh $B flows --transport nccl --nccl-comms $c --pattern $p --bytes 16M --epochs 5; done; done
  echo "== hang: rank 2 stops at epoch 3, timeout 10 s"; date +%s.%N
  timeout 90 $MR -np 3 /tmp/w.sh $B flows --transport nccl --pattern ring --bytes 1M --epochs 10 --hang-rank 2 --hang-epoch 3 --timeout 10; echo "rc=$?"; date +%s.%N
  echo "== bench np 2 pair vs NCCL"
  timeout 120 $MR -np 2 /tmp/w.sh $B bench --transport nccl --pattern ring,tree,recdbl --minbytes 1K --maxbytes 64M --check --iters 5 --warmup 2
} > $O/nccl.txt 2>&1
cp /tmp/nl/epochs.csv $O/nccl_epochs.csv 2>/dev/null
grep -E "==|rc=|react |baseline|Avg|tuner|error|stops|failed|not done" $O/nccl.txt | head -40
{ for d in half bfloat16; do timeout 60 $B bench --transport local --ranks 8 --pattern all --minbytes 1K --maxbytes 256M --check --iters 3 --warmup 1 --dtype $d; done
  timeout 60 $B bench --transport local --ranks 8 --pattern ring,tree --minbytes 64K --maxbytes 1G --iters 10 --untimed
  timeout 60 $B bench --transport local --ranks 8 --pattern ring,tree --minbytes 64K --maxbytes 1G --iters 10
  timeout 60 $B flows --transport local --ranks 8 --pattern ring --bytes 64M; } > $O/local.txt 2>&1
awk '/^ /{n++; s+=$9} END{print n, "rows, wrong", s}' $O/local.txt; grep -E "Avg|error" $O/local.txt
