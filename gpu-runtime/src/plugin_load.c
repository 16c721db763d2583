/*
 * plugin_load.c - finding the CUDA side of the runtime (plugin.h).
 *
 * Built with CUDA linked in (REACT_HAVE_CUDA: react-gpu), the table is the
 * program's own.  Otherwise (build/react) the module libreact_gpu_cuda.so is
 * loaded with dlopen on first use, that is when a run asks for transport
 * local or nccl, never before: the program itself links no CUDA, NCCL or
 * MPI-on-CUDA library.  Where it is looked for:
 *
 *   $REACT_GPU_PLUGIN            when set and not empty: that file only
 *   EXE_DIR/libreact_gpu_cuda.so            beside the program
 *   EXE_DIR/gpu-runtime/libreact_gpu_cuda.so   a build tree (build/react)
 *   EXE_DIR/../LIBDIR/react/libreact_gpu_cuda.so   an installed program
 *
 * EXE_DIR is the directory of /proc/self/exe (links resolved), LIBDIR
 * meson's libdir (an absolute libdir is used as it is).  The first file
 * that loads, exports react_gpu_plugin_v1 and has this program's ABI and
 * struct sizes wins; the module stays loaded until the process ends (CUDA
 * and NCCL do not support being unloaded).  When none does, every path
 * tried is reported with dlerror()'s reason (or the mismatch).
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef REACT_HAVE_CUDA
#include <dlfcn.h>
#include <unistd.h>
#endif

#include "plugin.h"

#ifndef REACT_GPU_PLUGIN_LIBDIR
#define REACT_GPU_PLUGIN_LIBDIR "lib"
#endif

static const react_gpu_plugin_t *g_pl; /* set once (pthread_once), then read only */
static char g_where[PATH_MAX + 64];    /* where g_pl came from */
#ifndef REACT_HAVE_CUDA
static char g_why[4 * PATH_MAX];       /* why no module was loaded */
#endif

#ifdef REACT_HAVE_CUDA

static void load(void)
{
	g_pl = react_gpu_plugin_v1();
	snprintf(g_where, sizeof g_where, "linked into this program");
}

#else

static void appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	if (n + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Load `path`; on success set g_pl and return 1, else add why to g_why. */
static int try_path(const char *path, const char *from)
{
	const char *sep = g_why[0] ? "; " : "";
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		size_t n = strlen(path);
		/* dlerror() starts with the path: drop it, we print it already */
		if (e && !strncmp(e, path, n) && !strncmp(e + n, ": ", 2))
			e += n + 2;
		appendf(g_why, sizeof g_why, "%s%s%s: %s", sep, path, from, e ? e : "dlopen failed");
		return 0;
	}
	dlerror();
	void *sym = dlsym(h, REACT_GPU_PLUGIN_ENTRY);
	react_gpu_plugin_v1_fn entry;
	memcpy(&entry, &sym, sizeof entry); /* POSIX: a data pointer holds a function's */
	const react_gpu_plugin_t *pl = entry ? entry() : NULL;
	if (!pl) {
		appendf(g_why, sizeof g_why, "%s%s%s: no %s() in it (not a REACT GPU plugin)", sep, path,
		        from, REACT_GPU_PLUGIN_ENTRY);
	} else if (pl->abi != REACT_GPU_PLUGIN_ABI || pl->size != sizeof(react_gpu_plugin_t) ||
	           pl->rt_cfg_size != sizeof(react_rt_cfg_t) ||
	           pl->xport_size != sizeof(react_xport_t) ||
	           pl->xport_ops_size != sizeof(react_xport_ops_t)) {
		appendf(g_why, sizeof g_why, "%s%s%s: plugin ABI %u (sizes %u/%u/%u/%u), this program "
		        "needs ABI %u (sizes %zu/%zu/%zu/%zu): rebuild them together", sep, path, from,
		        pl->abi, pl->size, pl->rt_cfg_size, pl->xport_size, pl->xport_ops_size,
		        REACT_GPU_PLUGIN_ABI, sizeof(react_gpu_plugin_t), sizeof(react_rt_cfg_t),
		        sizeof(react_xport_t), sizeof(react_xport_ops_t));
	} else {
		g_pl = pl;
		snprintf(g_where, sizeof g_where, "%s", path);
		return 1;
	}
	dlclose(h);
	return 0;
}

static void load(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	const char *env = getenv(REACT_GPU_PLUGIN_ENV);
	g_why[0] = '\0';
	if (env && *env) {
		try_path(env, " (from " REACT_GPU_PLUGIN_ENV ")");
		return;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		appendf(g_why, sizeof g_why, "/proc/self/exe: cannot read it, so not beside the program");
		return;
	}
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0'; /* exe: the program's directory */
	snprintf(path, sizeof path, "%s/%s", exe, REACT_GPU_PLUGIN_FILE);
	if (try_path(path, ""))
		return;
	snprintf(path, sizeof path, "%s/gpu-runtime/%s", exe, REACT_GPU_PLUGIN_FILE);
	if (try_path(path, ""))
		return;
	if (REACT_GPU_PLUGIN_LIBDIR[0] == '/') {
		snprintf(path, sizeof path, "%s/react/%s", REACT_GPU_PLUGIN_LIBDIR, REACT_GPU_PLUGIN_FILE);
	} else {
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0'; /* the prefix */
		snprintf(path, sizeof path, "%s/%s/react/%s", slash ? exe : ".", REACT_GPU_PLUGIN_LIBDIR,
		         REACT_GPU_PLUGIN_FILE);
	}
	try_path(path, "");
}

#endif

react_status_t react_gpu_plugin_get(react_transport_t t, const react_gpu_plugin_t **out,
                                    char *err, size_t errlen)
{
	*out = NULL;
	if (t != REACT_TRANSPORT_LOCAL && t != REACT_TRANSPORT_NCCL) {
		snprintf(err, errlen, "transport '%s' is not on the CUDA side", react_transport_name(t));
		return REACT_EINVAL;
	}
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load);
#ifndef REACT_HAVE_CUDA
	if (!g_pl) {
		snprintf(err, errlen, "transport '%s' needs the CUDA transport plugin %s, which could "
		         "not be loaded: tried %s; set %s to its path, or build REACT with CUDA (meson "
		         "setup -Dcuda=enabled builds it beside react)", react_transport_name(t),
		         REACT_GPU_PLUGIN_FILE, g_why, REACT_GPU_PLUGIN_ENV);
		return REACT_EUNSUPPORTED;
	}
#endif
	if (t == REACT_TRANSPORT_NCCL && !g_pl->nccl_create) {
		snprintf(err, errlen, "transport 'nccl' needs NCCL and MPI, and the CUDA side (%s) was "
		         "built without them (%s)", g_where, g_pl->built_with);
		return REACT_EUNSUPPORTED;
	}
	*out = g_pl;
	return REACT_OK;
}
