/* launcher.c - see react/launcher.h. */
#include <stddef.h>
#include <stdlib.h>

#include "react/launcher.h"

int react_mpi_launched(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
	                                   "PMI_SIZE"};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		if (getenv(vars[i]))
			return 1;
	return 0;
}
