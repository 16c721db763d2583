#!/bin/bash
# First H200 run: build, kernels, local transport correctness and costs,
# nccl transport on one GPU (several processes, loopback sockets).
# Usage (device machine, repository root): results/gpu/device-run1.sh $OUT
O=${1:?output dir}
set -o pipefail
{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv
  ls /usr/include/gsl/gsl_math.h /usr/include/yaml.h 2>&1; which mpicc mpirun; nproc; } > $O/env.txt 2>&1
gpu-runtime/build-device.sh build-device > $O/build.txt 2>&1 || { cat $O/build.txt; exit 1; }
B=build-device/react-gpu
timeout 60 $B kernels --bytes 1G > $O/kernels.txt 2>&1; cat $O/kernels.txt
for n in 2 3 4 5 8 13 16; do
  timeout 70 $B bench --transport local --ranks $n --pattern all --minbytes 1K --maxbytes 1G \
    --check --iters 5 --warmup 1 || echo "FAILED ranks $n rc=$?"
done > $O/local_check.txt 2>&1
grep -E "FAILED|error|^ +[0-9]+ .* [1-9][0-9]*$" $O/local_check.txt | head -20
grep -c "^ " $O/local_check.txt
{ timeout 90 $B overhead --transport local --ranks 8 --bytes 256M --epochs 20
  timeout 60 $B switch --transport local --ranks 8 --bytes 64M
  timeout 60 $B switch --transport local --ranks 16 --bytes 256M; } > $O/costs.txt 2>&1; cat $O/costs.txt
cat > /tmp/w.sh <<'X'
#!/bin/bash
export NCCL_HOSTID=react-$OMPI_COMM_WORLD_RANK NCCL_SOCKET_IFNAME=lo NCCL_DEBUG=WARN
exec "$@"
X
chmod +x /tmp/w.sh
for np in 2 4; do for c in pair single; do
  echo "== np $np comms $c"
  timeout 60 mpirun --allow-run-as-root --oversubscribe -np $np /tmp/w.sh $B bench --transport nccl \
    --nccl-comms $c --pattern all --minbytes 1K --maxbytes 4M --check --iters 3 --warmup 1 || echo "FAILED np $np $c rc=$?"
done; done > $O/nccl.txt 2>&1
grep -E "FAILED|== np|Avg" $O/nccl.txt
timeout 60 $B bench --transport local --ranks 8 --pattern ring,tree --minbytes 1M --maxbytes 1G --iters 10 > $O/local_perf.txt 2>&1
tail -5 $O/local_perf.txt
