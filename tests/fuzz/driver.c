/*
 * driver.c - runs a fuzz harness without libFuzzer (any compiler; the meson
 * tests, under the sanitizers with make test SANITIZE=1):
 *
 *   fuzz-NAME-replay [--mutate N] [--seed S] [--dict FILE] [--dump I FILE] PATH...
 *
 * (options and paths in any order)
 *
 * Every PATH (a file, or a directory: its files in name order) is fed to
 * LLVMFuzzerTestOneInput once: the seed corpus and every crash found so far
 * replay on each test run.  --mutate N then feeds N inputs made from the
 * corpus by random mutations (bit flips, bytes set, inserted, deleted,
 * repeated, corpus entries spliced, dictionary tokens inserted: libFuzzer's
 * dictionary format), drawn from the seed S (default 1): the same seed gives
 * the same inputs.  A crash prints the iteration; --dump I FILE writes input
 * I (the mutation iteration) to FILE instead of running anything, to add it
 * to the corpus.  Exit 0 when every input ran, 2 on a usage error.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define MAX_LEN (1u << 16)

typedef struct buf {
	uint8_t *p;
	size_t n;
} buf_t;

typedef struct list {
	buf_t *v;
	size_t n, cap;
} list_t;

static void push(list_t *l, buf_t b)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v)
			abort();
	}
	l->v[l->n++] = b;
}

static int read_all(const char *path, buf_t *b)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096;
	b->p = malloc(cap);
	b->n = 0;
	size_t k;
	while (b->p && (k = fread(b->p + b->n, 1, cap - b->n, f)) > 0) {
		b->n += k;
		if (b->n == cap)
			b->p = realloc(b->p, cap *= 2);
	}
	int bad = !b->p || ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a path: itself, or a directory's regular files by name. */
static int add_path(const char *path, list_t *names)
{
	struct stat st;
	if (stat(path, &st)) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		push(names, (buf_t){(uint8_t *)strdup(path), 0});
		return 0;
	}
	DIR *d = opendir(path);
	if (!d)
		return -1;
	size_t first = names->n;
	for (struct dirent *e; (e = readdir(d));) {
		char full[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof full, "%s/%s", path, e->d_name);
		if (!stat(full, &st) && S_ISREG(st.st_mode))
			push(names, (buf_t){(uint8_t *)strdup(full), 0});
	}
	closedir(d);
	qsort(names->v + first, names->n - first, sizeof *names->v, cmp_str);
	return 0;
}

/* libFuzzer's dictionary format: one "token" per line (with \\, \" and \xNN),
 * optionally name=; '#' lines are comments. */
static int read_dict(const char *path, list_t *dict)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int lineno = 0;
	if (!f) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *q = strchr(line, '"');
		char *s = line + strspn(line, " \t");
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		if (!q)
			goto bad;
		buf_t b = {malloc(strlen(q)), 0};
		for (q++; *q && *q != '"'; q++) {
			if (*q == '\\' && q[1] == 'x' && q[2] && q[3]) {
				char hex[3] = {q[2], q[3], 0};
				b.p[b.n++] = (uint8_t)strtoul(hex, NULL, 16);
				q += 3;
			} else if (*q == '\\' && q[1]) {
				b.p[b.n++] = (uint8_t)*++q;
			} else {
				b.p[b.n++] = (uint8_t)*q;
			}
		}
		if (*q != '"' || !b.n) {
			free(b.p);
			goto bad;
		}
		push(dict, b);
	}
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "fuzz: %s:%d: expected a \"token\"\n", path, lineno);
	fclose(f);
	return -1;
}

static uint64_t rng_state;
static uint64_t rnd(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static void insert(buf_t *b, size_t at, const uint8_t *src, size_t n)
{
	if (b->n + n > MAX_LEN)
		return;
	memmove(b->p + at + n, b->p + at, b->n - at);
	memcpy(b->p + at, src, n);
	b->n += n;
}

/* One input: a corpus entry with 1 to 8 mutations. out->p holds MAX_LEN. */
static void mutate(const list_t *corpus, const list_t *dict, buf_t *out)
{
	const buf_t *src = &corpus->v[below(corpus->n)];
	out->n = src->n < MAX_LEN ? src->n : MAX_LEN;
	memcpy(out->p, src->p, out->n);
	for (int k = 1 + (int)below(8); k > 0; k--) {
		size_t at = below(out->n + 1), len;
		uint8_t tmp[64];
		switch (below(8)) {
		case 0: /* flip a bit */
			if (out->n)
				out->p[below(out->n)] ^= (uint8_t)(1u << below(8));
			break;
		case 1: /* set a byte: often a digit or a separator of these formats */
			if (out->n) {
				static const char pick[] = "0123456789-.,:[]{}\" \n#e";
				out->p[below(out->n)] =
				    below(2) ? (uint8_t)pick[below(sizeof pick - 1)] : (uint8_t)rnd();
			}
			break;
		case 2: /* insert random bytes */
			len = 1 + below(8);
			for (size_t i = 0; i < len; i++)
				tmp[i] = (uint8_t)rnd();
			insert(out, at, tmp, len);
			break;
		case 3: /* delete a range */
			if (at < out->n) {
				len = 1 + below(out->n - at < 32 ? out->n - at : 32);
				memmove(out->p + at, out->p + at + len, out->n - at - len);
				out->n -= len;
			}
			break;
		case 4: /* repeat a range (lines, list items) */
			if (at < out->n) {
				len = 1 + below(out->n - at < 256 ? out->n - at : 256);
				size_t to = below(out->n + 1);
				uint8_t *cp = malloc(len);
				memcpy(cp, out->p + at, len);
				for (int r = 1 + (int)below(4); r > 0; r--)
					insert(out, to, cp, len);
				free(cp);
			}
			break;
		case 5: { /* splice another entry's tail */
			const buf_t *o = &corpus->v[below(corpus->n)];
			size_t from = below(o->n + 1);
			out->n = at;
			insert(out, at, o->p + from, o->n - from);
			break;
		}
		default: /* a dictionary token */
			if (dict->n) {
				const buf_t *t = &dict->v[below(dict->n)];
				if (below(2) && at < out->n) { /* overwrite */
					len = out->n - at < t->n ? out->n - at : t->n;
					memcpy(out->p + at, t->p, len);
				} else {
					insert(out, at, t->p, t->n);
				}
			}
			break;
		}
	}
}

static const char *current = "";
static long iteration = -1;
static uint64_t seed = 1;
static int nargs;
static char **args;

static void report(void)
{
	if (iteration < 0) {
		fprintf(stderr, "fuzz: crashed on %s\n", current);
		return;
	}
	fprintf(stderr, "fuzz: crashed on mutation %ld; write that input to FILE with:\n ",
	        iteration);
	for (int i = 0; i < nargs; i++)
		fprintf(stderr, " %s", args[i]);
	fprintf(stderr, " --dump %ld FILE\n", iteration);
}

static void on_signal(int sig)
{
	report();
	signal(sig, SIG_DFL);
	raise(sig);
}

void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

int main(int argc, char **argv)
{
	list_t names = {0}, corpus = {0}, dict = {0};
	long nmut = 0, dump = -1;
	const char *dump_to = NULL, *prog = argv[0];
	nargs = argc;
	args = argv;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mutate") && i + 1 < argc)
			nmut = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--dict") && i + 1 < argc) {
			if (read_dict(argv[++i], &dict))
				return 2;
		} else if (!strcmp(argv[i], "--dump") && i + 2 < argc) {
			dump = strtol(argv[++i], NULL, 10);
			dump_to = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: %s [--mutate N] [--seed S] [--dict FILE] [--dump I FILE] "
			        "PATH...\n", prog);
			return 2;
		} else if (add_path(argv[i], &names)) {
			return 2;
		}
	}
	for (size_t i = 0; i < names.n; i++) {
		buf_t b;
		if (read_all((const char *)names.v[i].p, &b)) {
			fprintf(stderr, "fuzz: cannot read %s\n", (const char *)names.v[i].p);
			return 2;
		}
		push(&corpus, b);
	}
	if (!corpus.n) {
		fprintf(stderr, "fuzz: no input files\n");
		return 2;
	}
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(report);
	signal(SIGSEGV, on_signal);
	signal(SIGABRT, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	if (dump < 0)
		for (size_t i = 0; i < corpus.n; i++) {
			current = (const char *)names.v[i].p;
			LLVMFuzzerTestOneInput(corpus.v[i].p, corpus.v[i].n);
		}
	buf_t in = {malloc(MAX_LEN), 0};
	rng_state = seed;
	long last = dump >= 0 ? dump + 1 : nmut;
	for (iteration = 0; iteration < last; iteration++) {
		mutate(&corpus, &dict, &in);
		if (iteration == dump) {
			FILE *f = fopen(dump_to, "wb");
			if (!f || fwrite(in.p, 1, in.n, f) != in.n || fclose(f)) {
				fprintf(stderr, "fuzz: cannot write %s\n", dump_to);
				return 2;
			}
			return 0;
		}
		if (dump < 0)
			LLVMFuzzerTestOneInput(in.p, in.n);
	}
	iteration = -1;
	printf("fuzz: %zu corpus inputs and %ld mutations ran (seed %llu)\n", corpus.n, nmut,
	       (unsigned long long)seed);
	for (size_t i = 0; i < corpus.n; i++) {
		free(corpus.v[i].p);
		free(names.v[i].p);
	}
	for (size_t i = 0; i < dict.n; i++)
		free(dict.v[i].p);
	free(corpus.v);
	free(names.v);
	free(dict.v);
	free(in.p);
	return 0;
}
