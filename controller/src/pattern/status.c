/* status.c - readable names of react_status_t. */
#include "react/status.h"

const char *react_status_str(react_status_t s)
{
	switch (s) {
	case REACT_OK: return "ok";
	case REACT_EINVAL: return "invalid argument";
	case REACT_ENOMEM: return "out of memory";
	case REACT_ESEMANTIC: return "pattern breaks its collective's semantics";
	case REACT_EIO: return "input/output error";
	case REACT_EPARSE: return "malformed input";
	case REACT_EUNSUPPORTED: return "not supported";
	case REACT_EBACKEND: return "backend failure";
	case REACT_ETIMEOUT: return "timed out";
	}
	return "unknown status";
}
