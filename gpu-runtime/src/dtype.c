/* dtype.c - element types: names, sizes and host conversions. */
#include <math.h>
#include <string.h>

#include "xport.h"

static const char *const dt_names[REACT_DT_COUNT_] = {"float", "half", "bfloat16"};
static const char *const dt_alias[REACT_DT_COUNT_] = {"fp32", "fp16", "bf16"};
static const char *const tp_names[REACT_TRANSPORT_COUNT_] = {"host", "local", "nccl"};

const char *react_dtype_name(react_dtype_t t)
{
	return (unsigned)t < REACT_DT_COUNT_ ? dt_names[t] : "?";
}

react_status_t react_dtype_parse(const char *name, react_dtype_t *out)
{
	for (int i = 0; i < REACT_DT_COUNT_; i++)
		if (!strcmp(name, dt_names[i]) || !strcmp(name, dt_alias[i])) {
			*out = (react_dtype_t)i;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

size_t react_dtype_size(react_dtype_t t)
{
	return t == REACT_DT_F32 ? 4 : 2;
}

const char *react_transport_name(react_transport_t t)
{
	return (unsigned)t < REACT_TRANSPORT_COUNT_ ? tp_names[t] : "?";
}

react_status_t react_transport_parse(const char *name, react_transport_t *out)
{
	for (int i = 0; i < REACT_TRANSPORT_COUNT_; i++)
		if (!strcmp(name, tp_names[i])) {
			*out = (react_transport_t)i;
			return REACT_OK;
		}
	return REACT_EINVAL;
}

float react_half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) & 1u, e = (uint32_t)(h >> 10) & 31u, m = h & 1023u;
	float v;
	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 1024u), (int)e - 25);
	return s ? -v : v;
}

uint16_t react_float_to_half(float f)
{
	/* round to nearest even; inputs here are small integers, but stay exact
	 * for every normal half anyway */
	uint32_t x;
	memcpy(&x, &f, 4);
	uint16_t s = (uint16_t)((x >> 16) & 0x8000u);
	if (isnan(f))
		return (uint16_t)(s | 0x7e00u);
	float a = fabsf(f);
	if (a >= 65520.0f)
		return (uint16_t)(s | 0x7c00u);
	if (a < ldexpf(1.0f, -14)) { /* subnormal */
		uint32_t m = (uint32_t)lrintf(ldexpf(a, 24));
		return (uint16_t)(s | m);
	}
	int e;
	float fr = frexpf(a, &e); /* a = fr * 2^e, fr in [0.5, 1) */
	uint32_t m = (uint32_t)lrintf(ldexpf(fr, 11)); /* 1024..2048 */
	if (m == 2048u) {
		m = 1024u;
		e++;
	}
	return (uint16_t)(s | (uint32_t)(e + 14) << 10 | (m & 1023u));
}

float react_bf16_to_float(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t react_float_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if (isnan(f))
		return (uint16_t)((x >> 16) | 0x40u);
	x += 0x7fffu + ((x >> 16) & 1u);
	return (uint16_t)(x >> 16);
}

float react_host_load(react_dtype_t t, const void *base, size_t i)
{
	if (t == REACT_DT_F32)
		return ((const float *)base)[i];
	uint16_t h = ((const uint16_t *)base)[i];
	return t == REACT_DT_F16 ? react_half_to_float(h) : react_bf16_to_float(h);
}

void react_host_store(react_dtype_t t, void *base, size_t i, float v)
{
	if (t == REACT_DT_F32)
		((float *)base)[i] = v;
	else
		((uint16_t *)base)[i] = t == REACT_DT_F16 ? react_float_to_half(v) : react_float_to_bf16(v);
}
