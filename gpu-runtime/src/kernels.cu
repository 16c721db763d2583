/*
 * kernels.cu - reductions, input fill and the output check.
 *
 * The reduction is a streaming kernel: each thread handles 16-byte vectors
 * (4 fp32 or 8 fp16/bf16), loads all sources of a vector before summing
 * (several loads in flight), accumulates in fp32 and stores once;
 * grid-stride over a grid of a few blocks per multiprocessor.  Bytes moved
 * per element: (nsrc + 1) reads + 1 write.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.h"

struct srcs {
	const void *p[REACT_CU_MAX_SRC];
};

__device__ __forceinline__ int input_value(int32_t rank, uint64_t i)
{
	return (int)((uint64_t)rank * 7u + (i % 4099u) * 13u) % 17 - 8;
}

template <typename T> __device__ __forceinline__ float ld(const T *p, size_t i);
template <> __device__ __forceinline__ float ld<float>(const float *p, size_t i) { return p[i]; }
template <> __device__ __forceinline__ float ld<__half>(const __half *p, size_t i) { return __half2float(p[i]); }
template <> __device__ __forceinline__ float ld<__nv_bfloat16>(const __nv_bfloat16 *p, size_t i)
{
	return __bfloat162float(p[i]);
}
template <typename T> __device__ __forceinline__ T cvt(float v);
template <> __device__ __forceinline__ float cvt<float>(float v) { return v; }
template <> __device__ __forceinline__ __half cvt<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 cvt<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

/* one 16-byte vector of T as floats */
template <typename T> struct vec {
	static constexpr int N = 16 / sizeof(T);
};

template <typename T>
__device__ __forceinline__ void unpack(const uint4 &u, float *f)
{
	const T *e = reinterpret_cast<const T *>(&u);
#pragma unroll
	for (int k = 0; k < vec<T>::N; k++)
		f[k] = ld<T>(e, k);
}

template <typename T>
__device__ __forceinline__ uint4 pack(const float *f)
{
	uint4 u;
	T *e = reinterpret_cast<T *>(&u);
#pragma unroll
	for (int k = 0; k < vec<T>::N; k++)
		e[k] = cvt<T>(f[k]);
	return u;
}

template <typename T, int NS>
__global__ void __launch_bounds__(512) reduce_vec(uint4 *dst, srcs s, size_t nvec)
{
	constexpr int V = vec<T>::N;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nvec;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint4 a = dst[i];
		uint4 b[NS];
#pragma unroll
		for (int k = 0; k < NS; k++)
			b[k] = reinterpret_cast<const uint4 *>(s.p[k])[i];
		float acc[V], t[V];
		unpack<T>(a, acc);
#pragma unroll
		for (int k = 0; k < NS; k++) {
			unpack<T>(b[k], t);
#pragma unroll
			for (int j = 0; j < V; j++)
				acc[j] += t[j];
		}
		dst[i] = pack<T>(acc);
	}
}

template <typename T>
__global__ void reduce_scalar(T *dst, srcs s, int nsrc, size_t lo, size_t count)
{
	for (size_t i = lo + blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
	     i += (size_t)gridDim.x * blockDim.x) {
		float acc = ld<T>(dst, i);
		for (int k = 0; k < nsrc; k++)
			acc += ld<T>(reinterpret_cast<const T *>(s.p[k]), i);
		dst[i] = cvt<T>(acc);
	}
}

static int grid_for(size_t work, int threads)
{
	int sms = 0, dev = 0;
	cudaGetDevice(&dev);
	if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
		sms = 80;
	size_t need = (work + threads - 1) / threads;
	size_t cap = (size_t)sms * 4;
	size_t g = need < cap ? need : cap;
	return g ? (int)g : 1;
}

template <typename T>
static cudaError_t reduce_t(void *dst, const void *const *src, int nsrc, size_t count, cudaStream_t st)
{
	srcs s;
	uintptr_t align = (uintptr_t)dst;
	for (int k = 0; k < nsrc; k++) {
		s.p[k] = src[k];
		align |= (uintptr_t)src[k];
	}
	constexpr int V = vec<T>::N;
	size_t nvec = (align % 16 == 0) ? count / V : 0;
	const int th = 512;
	if (nvec) {
		int g = grid_for(nvec, th);
		uint4 *d = (uint4 *)dst;
		switch (nsrc) {
		case 1: reduce_vec<T, 1><<<g, th, 0, st>>>(d, s, nvec); break;
		case 2: reduce_vec<T, 2><<<g, th, 0, st>>>(d, s, nvec); break;
		case 3: reduce_vec<T, 3><<<g, th, 0, st>>>(d, s, nvec); break;
		case 4: reduce_vec<T, 4><<<g, th, 0, st>>>(d, s, nvec); break;
		default:
			nvec = 0; /* rare: more than 4 sources, scalar path */
		}
	}
	size_t lo = nvec * V;
	if (lo < count)
		reduce_scalar<T><<<grid_for(count - lo, 256), 256, 0, st>>>((T *)dst, s, nsrc, lo, count);
	return cudaGetLastError();
}

extern "C" cudaError_t react_cu_reduce(void *dst, const void *const *src, int nsrc, size_t count,
                                       int dtype, cudaStream_t s)
{
	if (nsrc < 1 || nsrc > REACT_CU_MAX_SRC)
		return cudaErrorInvalidValue;
	if (!count)
		return cudaSuccess;
	switch (dtype) {
	case 0: return reduce_t<float>(dst, src, nsrc, count, s);
	case 1: return reduce_t<__half>(dst, src, nsrc, count, s);
	case 2: return reduce_t<__nv_bfloat16>(dst, src, nsrc, count, s);
	default: return cudaErrorInvalidValue;
	}
}

template <typename T>
__global__ void fill_k(T *d, int32_t rank, size_t count, size_t lo, size_t hi)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
	     i += (size_t)gridDim.x * blockDim.x)
		d[i] = cvt<T>(i >= lo && i < hi ? (float)input_value(rank, i) : -1000.0f);
}

extern "C" cudaError_t react_cu_fill(void *data, int dtype, int32_t rank, size_t count, size_t lo,
                                     size_t hi, cudaStream_t s)
{
	int g = grid_for(count, 256);
	switch (dtype) {
	case 0: fill_k<float><<<g, 256, 0, s>>>((float *)data, rank, count, lo, hi); break;
	case 1: fill_k<__half><<<g, 256, 0, s>>>((__half *)data, rank, count, lo, hi); break;
	case 2: fill_k<__nv_bfloat16><<<g, 256, 0, s>>>((__nv_bfloat16 *)data, rank, count, lo, hi); break;
	default: return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

template <typename T>
__global__ void wrong_k(const T *d, size_t count, int32_t nranks, int gather, size_t blk,
                        unsigned long long *wrong)
{
	unsigned long long w = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
	     i += (size_t)gridDim.x * blockDim.x) {
		float want;
		if (gather) {
			want = (float)input_value((int32_t)(i / blk), i);
		} else {
			int s = 0;
			for (int32_t r = 0; r < nranks; r++)
				s += input_value(r, i);
			want = (float)s;
		}
		if (ld<T>(d, i) != want)
			w++;
	}
	if (w)
		atomicAdd(wrong, w);
}

extern "C" cudaError_t react_cu_count_wrong(const void *data, int dtype, size_t count, int32_t nranks,
                                            int gather, size_t blk, unsigned long long *dev_wrong,
                                            cudaStream_t s)
{
	int g = grid_for(count, 256);
	switch (dtype) {
	case 0: wrong_k<float><<<g, 256, 0, s>>>((const float *)data, count, nranks, gather, blk, dev_wrong); break;
	case 1: wrong_k<__half><<<g, 256, 0, s>>>((const __half *)data, count, nranks, gather, blk, dev_wrong); break;
	case 2:
		wrong_k<__nv_bfloat16><<<g, 256, 0, s>>>((const __nv_bfloat16 *)data, count, nranks, gather, blk,
		                                         dev_wrong);
		break;
	default: return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

__global__ void __launch_bounds__(512) copy_k(uint4 *d, const uint4 *s, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		d[i] = s[i];
}

extern "C" cudaError_t react_cu_copy(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
	if (((uintptr_t)dst | (uintptr_t)src | bytes) % 16)
		return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
	size_t n = bytes / 16;
	copy_k<<<grid_for(n, 512), 512, 0, s>>>((uint4 *)dst, (const uint4 *)src, n);
	return cudaGetLastError();
}
