/* Rank-pair background traffic on the local and nccl transports (bg.h): the
 * trivial cases here, the traffic itself on the CUDA side (bg_cuda.c),
 * reached through the plugin table (plugin.h). */
#include <stdio.h>
#include <stdlib.h>

#include "bg.h"
#include "plugin.h"

struct react_bg {
	const react_gpu_plugin_t *pl;
	react_bg_cuda_t *impl;
};

react_status_t react_bg_create(react_rt_t *rt, react_transport_t transport,
                               const int32_t (*pairs)[2], int32_t npairs, size_t bytes,
                               react_bg_t **out, char *err, size_t errlen)
{
	const react_gpu_plugin_t *pl = NULL;
	react_status_t st;
	*out = NULL;
	bytes = bytes / 16 * 16;
	if (npairs <= 0 || !bytes || transport == REACT_TRANSPORT_HOST)
		return REACT_OK;
	if ((st = react_gpu_plugin_get(transport, &pl, err, errlen)) != REACT_OK)
		return st;
	react_bg_t *bg = calloc(1, sizeof *bg);
	if (!bg) {
		snprintf(err, errlen, "no memory for the background traffic of %d pairs", (int)npairs);
		return REACT_ENOMEM;
	}
	bg->pl = pl;
	if ((st = pl->bg_create(transport, react_rt_rank0(rt), pairs, npairs, bytes, &bg->impl, err,
	                        errlen)) != REACT_OK) {
		free(bg);
		return st;
	}
	*out = bg;
	return REACT_OK;
}

void react_bg_launch(react_bg_t *bg)
{
	if (bg)
		bg->pl->bg_launch(bg->impl);
}

void react_bg_sync(react_bg_t *bg)
{
	if (bg)
		bg->pl->bg_sync(bg->impl);
}

void react_bg_destroy(react_bg_t *bg)
{
	if (!bg)
		return;
	bg->pl->bg_destroy(bg->impl);
	free(bg);
}
