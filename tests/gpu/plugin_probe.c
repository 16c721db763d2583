/*
 * plugin_probe - load a GPU runtime plugin as build/react does and check its
 * entry point: react_gpu_plugin_v1 exported, ABI REACT_GPU_PLUGIN_ABI, the
 * struct sizes of this tree, every function of the table present (nccl's
 * only when built with NCCL and MPI).  It calls no function of the table:
 * nothing of CUDA starts, so it runs on machines without a GPU.
 *
 *   plugin_probe PATH [--want-nccl]
 *
 * Prints one line about the plugin; exit 0 when it checks out, 1 otherwise
 * (with the reason on stderr).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "plugin.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: plugin_probe PATH [--want-nccl]\n");
		return 2;
	}
	int want_nccl = argc > 2 && !strcmp(argv[2], "--want-nccl");
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "plugin_probe: dlopen: %s\n", dlerror());
		return 1;
	}
	void *sym = dlsym(h, REACT_GPU_PLUGIN_ENTRY);
	react_gpu_plugin_v1_fn entry;
	memcpy(&entry, &sym, sizeof entry);
	if (!entry) {
		fprintf(stderr, "plugin_probe: %s: no %s\n", argv[1], REACT_GPU_PLUGIN_ENTRY);
		return 1;
	}
	const react_gpu_plugin_t *p = entry();
	if (!p) {
		fprintf(stderr, "plugin_probe: %s() returned NULL\n", REACT_GPU_PLUGIN_ENTRY);
		return 1;
	}
	int bad = 0;
	if (p->abi != REACT_GPU_PLUGIN_ABI) {
		fprintf(stderr, "plugin_probe: ABI %u, want %d\n", p->abi, REACT_GPU_PLUGIN_ABI);
		bad = 1;
	}
	if (p->size != sizeof(react_gpu_plugin_t) || p->rt_cfg_size != sizeof(react_rt_cfg_t) ||
	    p->xport_size != sizeof(react_xport_t) || p->xport_ops_size != sizeof(react_xport_ops_t)) {
		fprintf(stderr, "plugin_probe: struct sizes %u/%u/%u/%u, want %zu/%zu/%zu/%zu\n", p->size,
		        p->rt_cfg_size, p->xport_size, p->xport_ops_size, sizeof(react_gpu_plugin_t),
		        sizeof(react_rt_cfg_t), sizeof(react_xport_t), sizeof(react_xport_ops_t));
		bad = 1;
	}
	if (!p->version || !p->built_with || !p->local_create || !p->bg_create || !p->bg_launch ||
	    !p->bg_sync || !p->bg_destroy) {
		fprintf(stderr, "plugin_probe: the table misses a name or a function\n");
		bad = 1;
	}
	if (want_nccl && !p->nccl_create) {
		fprintf(stderr, "plugin_probe: no nccl transport (built with: %s)\n",
		        p->built_with ? p->built_with : "?");
		bad = 1;
	}
	if (bad)
		return 1;
	printf("%s: %s ABI %u, REACT %s, %s; transports local%s\n", argv[1], REACT_GPU_PLUGIN_ENTRY,
	       p->abi, p->version, p->built_with, p->nccl_create ? ", nccl" : "");
	return 0;
}
