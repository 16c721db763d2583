/* Simulation backends by name. */
#include <stdio.h>
#include <string.h>

#include "backends.h"
#include "react/gpu_backend.h"
#ifdef REACT_HAVE_NS3
#include "react/ns3.h"
#endif

const react_backend_ops_t *react_cli_backend(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "flow"))
		return &react_backend_flow;
	if (!strcmp(name, "dctcp"))
		return &react_backend_dctcp;
	if (!strcmp(name, "gpu"))
		return &react_backend_gpu;
#ifdef REACT_HAVE_NS3
	if (!strcmp(name, "ns3"))
		return &react_backend_ns3;
#endif
	return NULL;
}

const react_backend_ops_t *react_cli_backend_for(const char *name, const char *where, char *err,
                                                 size_t errlen)
{
	const react_backend_ops_t *b = react_cli_backend(name);
	if (b)
		return b;
#ifdef REACT_HAVE_NS3
	const char *avail = "flow, dctcp, ns3 or gpu";
#else
	const char *avail = "flow, dctcp or gpu (this build has no ns-3 backend)";
#endif
	if (name && !strcmp(name, "ns3"))
		snprintf(err, errlen, "%s: backend 'ns3' is not built into this react; configure with "
		         "-Dns3=enabled and libns3-dev installed, or use backend: flow", where);
	else
		snprintf(err, errlen, "%s: unknown backend '%s'; expected %s", where, name ? name : "",
		         avail);
	return NULL;
}
