#!/bin/sh
# build-device.sh - build react-gpu without meson (GPU machines that have
# nvcc and mpicc but not meson or the -dev packages).
#
#   gpu-runtime/build-device.sh [OUTDIR]        (run from the repository root)
#
# NCCL: $NCCL_HOME, else /usr/local/cuda, else PyTorch's wheel.  GSL and
# libyaml: the system's, else headers and static libraries in .devdeps/
# (include/, lib/).  Produces OUTDIR/react-gpu (default build-device).
set -eu
OUT=${1:-build-device}
mkdir -p "$OUT/obj"
CUDA=${CUDA_HOME:-/usr/local/cuda}
NCCL=""
for d in ${NCCL_HOME:-} "$CUDA" /usr /opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl; do
	if [ -n "$d" ] && [ -f "$d/include/nccl.h" ]; then NCCL=$d; break; fi
done
[ -n "$NCCL" ] || { echo "build-device.sh: nccl.h not found (set NCCL_HOME)" >&2; exit 1; }
NCCL_LIBDIR=$NCCL/lib
[ -d "$NCCL_LIBDIR" ] || NCCL_LIBDIR=$NCCL/lib64
if [ -f "$NCCL_LIBDIR/libnccl.so" ]; then NCCL_LINK=-lnccl; else NCCL_LINK=-l:libnccl.so.2; fi
DEPS_INC=""; DEPS_LIB=""
if [ ! -f /usr/include/gsl/gsl_math.h ] || [ ! -f /usr/include/yaml.h ]; then
	DEPS_INC="-I$(pwd)/.devdeps/include"; DEPS_LIB="-L$(pwd)/.devdeps/lib"
fi
CF="-std=c11 -O2 -g -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
 -DREACT_HAVE_CUDA -DREACT_HAVE_NCCL -DREACT_HAVE_MPI \
 -Icontroller/include -Iio/include -Irunner/include -Isim/include -Icli -Igpu-runtime/include -Igpu-runtime/src -I$CUDA/include -I$NCCL/include $DEPS_INC"
echo "build-device.sh: NCCL from $NCCL, nvcc $("$CUDA/bin/nvcc" --version | tail -1)"
"$CUDA/bin/nvcc" -arch=sm_90 -O3 -Igpu-runtime/src -c gpu-runtime/src/kernels.cu -o "$OUT/obj/kernels.o"
objs="$OUT/obj/kernels.o"
for f in controller/src/pattern/*.c controller/src/ctl/*.c io/src/units.c cli/progress.c gpu-runtime/src/*.c; do
	o="$OUT/obj/$(echo "$f" | tr '/' '_' | sed 's/\.c$/.o/')"
	mpicc $CF -c "$f" -o "$o" &
	objs="$objs $o"
done
wait
mpicc -o "$OUT/react-gpu" $objs -L"$CUDA/lib64" -lcudart -L"$NCCL_LIBDIR" $NCCL_LINK \
	-Wl,-rpath,"$NCCL_LIBDIR" -Wl,-rpath,"$CUDA/lib64" $DEPS_LIB -Wl,-Bstatic -lgsl -lgslcblas -lyaml \
	-Wl,-Bdynamic -lm -lpthread -lstdc++
echo "build-device.sh: $OUT/react-gpu"
