/* kernels.h - the runtime's CUDA kernels, callable from C (internal). */
#ifndef REACT_KERNELS_H
#define REACT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REACT_CU_MAX_SRC 8

/* dst[i] += src[0][i] + ... + src[nsrc-1][i], i < count; dtype 0 fp32,
 * 1 fp16, 2 bf16 (react_dtype_t); fp32 accumulation.  16-byte vector loads
 * when every pointer is 16-byte aligned, grid-stride. */
cudaError_t react_cu_reduce(void *dst, const void *const *src, int nsrc, size_t count, int dtype,
                            cudaStream_t s);
/* data[i] = react_input_value(rank, i) for lo <= i < hi, -1000 elsewhere. */
cudaError_t react_cu_fill(void *data, int dtype, int32_t rank, size_t count, size_t lo, size_t hi,
                          cudaStream_t s);
/* *wrong += elements differing from the expected result (see xport.h). */
cudaError_t react_cu_count_wrong(const void *data, int dtype, size_t count, int32_t nranks,
                                 int gather, size_t blk, unsigned long long *dev_wrong,
                                 cudaStream_t s);
/* plain device copy kernel (16-byte vectors) for bandwidth comparisons */
cudaError_t react_cu_copy(void *dst, const void *src, size_t bytes, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
