/* fuzz_file.c - the scratch files of fuzz.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char scratch[2][4096];

static void remove_scratch(void)
{
	for (int i = 0; i < 2; i++)
		if (scratch[i][0])
			unlink(scratch[i]);
}

const char *fuzz_file(int which, const uint8_t *data, size_t size, const char *suffix)
{
	char *p = scratch[which & 1];
	if (!p[0]) {
		/* $TMPDIR, else memory (each input is written once), else /tmp */
		const char *dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
		snprintf(p, sizeof scratch[0], "%s/react-fuzz-%ld-%dXXXXXX%s", dir, (long)getpid(),
		         which & 1, suffix);
		int fd = mkstemps(p, (int)strlen(suffix));
		if (fd < 0) {
			fprintf(stderr, "fuzz: cannot create %s: %s\n", p, strerror(errno));
			abort();
		}
		close(fd);
		static int registered;
		if (!registered++)
			atexit(remove_scratch);
	}
	FILE *f = fopen(p, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		fprintf(stderr, "fuzz: cannot write %s\n", p);
		abort();
	}
	return p;
}
