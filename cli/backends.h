/* Simulation backends by name, for the scenario commands. */
#ifndef REACT_CLI_BACKENDS_H
#define REACT_CLI_BACKENDS_H

#include <stddef.h>

#include "react/backend.h"
#include "react/flowsim.h"

/* "flow" (always), "ns3" (when built with ns-3); NULL otherwise. */
const react_backend_ops_t *react_cli_backend(const char *name);

/* Like react_cli_backend, but on failure fills err with a message naming
 * `where` (e.g. "scenarios/x.yaml:3: field 'backend'" or "--backend") and
 * what is available. */
const react_backend_ops_t *react_cli_backend_for(const char *name, const char *where, char *err,
                                                 size_t errlen);

#endif
