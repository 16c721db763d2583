#!/bin/bash
# Fifth H200 run: congestion injection on the nccl transport (background
# communicators) and the check summed over ranks, 4 processes on one GPU.
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
{ for s in nccl-congested nccl-loopback; do echo "== $s"
  timeout 150 $MR -np 4 /tmp/w.sh $B run scenarios/gpu/$s.yaml --transport nccl --out /tmp/$s; echo "rc=$?"; done
} > $O/nccl_runs.txt 2>&1
cp /tmp/nccl-congested/epochs.csv $O/nccl_congested_epochs.csv; cp /tmp/nccl-congested/decisions.jsonl $O/nccl_congested_decisions.jsonl
grep -v "^NCCL version" $O/nccl_runs.txt
