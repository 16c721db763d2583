/* Helpers of the end-to-end suites of tests/cli: run build/react (or any
 * program) with its stdout and stderr in files, read files, compare them. */
#ifndef REACT_TESTS_CLI_E2E_H
#define REACT_TESTS_CLI_E2E_H

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

extern char **environ;

static char g_out[4200], g_err[4200]; /* paths of the last command's output */

/* Read a whole file; "" when missing. */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	size_t r = fread(b, 1, (size_t)n, f);
	b[r] = 0;
	fclose(f);
	return b;
}

static inline void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	char *argv[] = {"sh", "-c", cmd, NULL};
	pid_t pid;
	int status;
	cr_assert_eq(posix_spawnp(&pid, "sh", NULL, NULL, argv, environ), 0);
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "command failed: %s", cmd);
}

/* A fresh work directory for one test. */
static inline void workdir(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", REACT_WORK_DIR, name);
	sh("rm -rf '%s' && mkdir -p '%s'", out, out);
	cr_assert(snprintf(g_out, sizeof g_out, "%s/stdout.txt", out) < (int)sizeof g_out &&
	              snprintf(g_err, sizeof g_err, "%s/stderr.txt", out) < (int)sizeof g_err,
	          "work directory path too long: %s", out);
}

/* Run argv (argv[0] a path, or a name looked up in PATH) with its stdout
 * and stderr in g_out and g_err; returns its exit code. */
static inline int run_argv(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, g_out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, g_err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	pid_t pid;
	int status;
	cr_assert_eq(posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ), 0, "cannot start %s",
	             argv[0]);
	posix_spawn_file_actions_destroy(&fa);
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status), "%s did not exit (signal %d)", argv[0],
	          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}

/* Run argv[0..n-1] followed by first and the rest of ap (up to a NULL)
 * as run_argv does. */
static inline int run_va(char **argv, int n, const char *first, va_list ap)
{
	argv[n++] = (char *)first;
	for (char *a; (a = va_arg(ap, char *)) && n < 63;)
		argv[n++] = a;
	argv[n] = NULL;
	return run_argv(argv);
}

/* Run react with the given arguments (NULL-terminated); returns its exit code. */
static inline int react(const char *first, ...)
{
	char *argv[64] = {REACT_EXE};
	va_list ap;
	va_start(ap, first);
	int rc = run_va(argv, 1, first, ap);
	va_end(ap);
	return rc;
}

static inline void assert_contains(const char *path, const char *what)
{
	char *t = slurp(path);
	cr_assert(strstr(t, what), "%s lacks '%s':\n%s", path, what, t);
	free(t);
}

static inline void assert_same_file(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	cr_assert(x[0], "%s is empty or missing", a);
	cr_assert_str_eq(x, y, "%s and %s differ", a, b);
	free(x);
	free(y);
}

#endif
