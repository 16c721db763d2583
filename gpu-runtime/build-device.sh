#!/bin/sh
# build-device.sh - build the GPU runtime's programs without meson (GPU
# machines that have nvcc, and perhaps mpicc, but not meson or the -dev
# packages).
#
#   gpu-runtime/build-device.sh [OUTDIR]        (run from the repository root)
#
# Produces, in OUTDIR (default build-device):
#   react-gpu              the runtime's own program, CUDA and NCCL linked in
#   react                  build/react without ns-3: CUDA is not linked in ...
#   libreact_gpu_cuda.so   ... but loaded from this plugin, beside it, when a
#                          run asks for gpu.transport local or nccl
#
# MPI: with mpicc everything is compiled with it, and the nccl transport
# (NCCL + MPI) is built; without mpicc, cc builds the local transport only
# (react run then refuses nccl, saying why).  NCCL: $NCCL_HOME, else
# /usr/local/cuda, /usr, PyTorch's wheel.  GSL, libyaml and jansson (react's
# JSON): the system's, else headers and static libraries in .devdeps/
# (include/, lib/; REACT_USE_DEVDEPS=1 takes them from there in any case).
# JOBS: parallel compiles (default: the number of cores).
set -eu
OUT=${1:-build-device}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
CUDA=${CUDA_HOME:-/usr/local/cuda}
VERSION=$(sed -n "s/^ *version : '\([^']*\)',*$/\1/p" meson.build | head -n 1)
if command -v mpicc >/dev/null 2>&1; then
	CC=mpicc
	HAVE="-DREACT_HAVE_MPI -DREACT_HAVE_NCCL"
else
	CC=${CC:-cc}
	HAVE=""
	echo "build-device.sh: no mpicc: building the local transport only (no nccl, no react sweep --mpi)"
fi
NCCL=""
NCCL_INC=""
NCCL_LINK=""
if [ -n "$HAVE" ]; then
	for d in ${NCCL_HOME:-} "$CUDA" /usr /opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl; do
		if [ -n "$d" ] && [ -f "$d/include/nccl.h" ]; then NCCL=$d; break; fi
	done
	[ -n "$NCCL" ] || { echo "build-device.sh: nccl.h not found (set NCCL_HOME)" >&2; exit 1; }
	NCCL_LIBDIR=$NCCL/lib
	[ -d "$NCCL_LIBDIR" ] || NCCL_LIBDIR=$NCCL/lib64
	if [ -f "$NCCL_LIBDIR/libnccl.so" ]; then NCCL_LINK=-lnccl; else NCCL_LINK=-l:libnccl.so.2; fi
	NCCL_INC="-I$NCCL/include"
	NCCL_LINK="-L$NCCL_LIBDIR $NCCL_LINK -Wl,-rpath,$NCCL_LIBDIR"
fi
DEPS_INC=""; DEPS_LIB=""
if [ "${REACT_USE_DEVDEPS:-0}" = 1 ] || [ ! -f /usr/include/gsl/gsl_math.h ] ||
	[ ! -f /usr/include/yaml.h ] || [ ! -f /usr/include/jansson.h ]; then
	DEPS_INC="-I$(pwd)/.devdeps/include"; DEPS_LIB="-L$(pwd)/.devdeps/lib"
fi
rm -rf "$OUT/obj" "$OUT/obj-host" "$OUT/obj-plugin"
mkdir -p "$OUT/obj" "$OUT/obj-host" "$OUT/obj-plugin"
BASE="-std=c11 -O2 -g -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
 -Icontroller/include -Iio/include -Irunner/include -Isim/include -Icli -Igpu-runtime/include \
 -Igpu-runtime/src $DEPS_INC"
CF="$BASE -DREACT_HAVE_CUDA $HAVE -I$CUDA/include $NCCL_INC"
echo "build-device.sh: $CC, NCCL from ${NCCL:-(none)}, nvcc $("$CUDA/bin/nvcc" --version | tail -1)"

# compile OBJDIR FLAGS FILE...: each C file to OBJDIR/<path, / as _>.o, JOBS at a time
compile() {
	dir=$1
	flags=$2
	shift 2
	for f in "$@"; do echo "$f"; done | xargs -P "$JOBS" -I{} sh -c '
		o="$1/$(echo "$2" | tr / _ | sed "s/\.c\$/.o/")"
		$3 $4 -c "$2" -o "$o" || exit 255' sh "$dir" {} "$CC" "$flags"
}

# the kernels, once for both (position-independent, hidden), beside the C
"$CUDA/bin/nvcc" -arch=sm_90 -O3 -Xcompiler -fPIC -Xcompiler -fvisibility=hidden -Igpu-runtime/src \
	-c gpu-runtime/src/kernels.cu -o "$OUT/obj-plugin/kernels.o" &
nvcc_pid=$!

# react-gpu: the whole runtime, the CUDA side linked in
compile "$OUT/obj" "$CF" controller/src/pattern/*.c controller/src/ctl/*.c io/src/*.c \
	sim/src/*.c runner/src/*.c cli/progress.c gpu-runtime/src/*.c
wait "$nvcc_pid" || { echo "build-device.sh: nvcc failed on kernels.cu" >&2; exit 1; }
cp "$OUT/obj-plugin/kernels.o" "$OUT/obj/kernels.o"
$CC -o "$OUT/react-gpu" "$OUT"/obj/*.o -L"$CUDA/lib64" -lcudart $NCCL_LINK \
	-Wl,-rpath,"$CUDA/lib64" $DEPS_LIB -Wl,-Bstatic -lgsl -lgslcblas -lyaml -ljansson \
	-Wl,-Bdynamic -ldl -lm -lpthread -lstdc++
echo "build-device.sh: $OUT/react-gpu"

# libreact_gpu_cuda.so: the CUDA side alone, one exported symbol
compile "$OUT/obj-plugin" "$CF -fPIC -fvisibility=hidden -DREACT_VERSION=\"$VERSION\"" \
	gpu-runtime/src/plugin.c gpu-runtime/src/transport_cuda.c gpu-runtime/src/bg_cuda.c
$CC -shared -o "$OUT/libreact_gpu_cuda.so" "$OUT"/obj-plugin/*.o -L"$CUDA/lib64" -lcudart \
	$NCCL_LINK -Wl,-rpath,"$CUDA/lib64" -Wl,--no-undefined -lm -lpthread -lstdc++
echo "build-device.sh: $OUT/libreact_gpu_cuda.so"

# react: no CUDA, NCCL or ns-3 linked; the gpu backend loads the plugin
compile "$OUT/obj-host" "$BASE $HAVE -DREACT_VERSION=\"$VERSION\" -DREACT_GPU_PLUGIN_LIBDIR=\"lib\"" \
	controller/src/pattern/*.c controller/src/ctl/*.c io/src/*.c sim/src/*.c runner/src/*.c cli/*.c \
	gpu-runtime/src/dtype.c gpu-runtime/src/executor.c gpu-runtime/src/transport_host.c \
	gpu-runtime/src/bg.c gpu-runtime/src/backend_gpu.c gpu-runtime/src/plugin_load.c
$CC -o "$OUT/react" "$OUT"/obj-host/*.o $DEPS_LIB -Wl,-Bstatic -lgsl -lgslcblas -lyaml -ljansson \
	-Wl,-Bdynamic -ldl -lm -lpthread
echo "build-device.sh: $OUT/react"
