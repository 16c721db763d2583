/* react/status.h - status codes shared by every REACT library. */
#ifndef REACT_STATUS_H
#define REACT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum react_status {
	REACT_OK = 0,
	REACT_EINVAL,      /* bad argument or impossible parameter */
	REACT_ENOMEM,      /* allocation failed */
	REACT_ESEMANTIC,   /* a pattern breaks its collective's semantics */
	REACT_EIO,         /* file could not be read or written */
	REACT_EPARSE,      /* malformed input file */
	REACT_EUNSUPPORTED,/* valid request this build or algorithm cannot do */
	REACT_EBACKEND,    /* a simulation or GPU backend failed */
	REACT_ETIMEOUT     /* a peer did not answer in time */
} react_status_t;

/* Static string for a status ("invalid argument", ...). */
const char *react_status_str(react_status_t s);

#ifdef __cplusplus
}
#endif
#endif
