/*
 * progress.h - progress of long commands on stderr, one module for every
 * command of build/react and build/gpu-runtime/react-gpu.
 *
 * On a terminal: one line redrawn in place (a bar, what is being done,
 * elapsed time, ETA), first drawn once the work has lasted a second, at most
 * five times a second.  Otherwise (a log file, a pipe): a plain line every
 * `every` seconds,
 *
 *     NAME: WHAT, elapsed 1m05s, ETA 51s
 *
 * so that short work prints nothing.  stdout is never touched.
 *
 *     cli_progress_t pg;
 *     cli_progress_start(&pg, "react run", total, 5.0, quiet);
 *     for (...) cli_progress_report(&pg, done, "epoch %d of %d", k + 1, n);
 *     cli_progress_end(&pg, NULL);   // erase the line on a terminal
 */
#ifndef REACT_CLI_PROGRESS_H
#define REACT_CLI_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_progress {
	const char *name;  /* the line's prefix: a command or a scenario name */
	int64_t total;     /* units of work in all (epochs, runs, configurations) */
	double every;      /* not a terminal: seconds between lines */
	double t0, last;   /* start, last line (cli_now_s) */
	int tty;           /* stderr is a terminal */
	int off;           /* --quiet, or every <= 0: nothing at all */
	int shown;         /* a terminal line is on screen */
} cli_progress_t;

/* Seconds on a monotonic clock. */
double cli_now_s(void);
/* s seconds as "42s", "3m07s", "1h05m"; "?" when negative or not finite. */
void cli_fmt_dur(double s, char *buf, size_t n);

/* Start reporting on p (out).  name: kept, not copied.  total: units of
 * work (> 0).  every: seconds between plain lines when stderr is not a
 * terminal; <= 0, or quiet != 0: p reports nothing. */
void cli_progress_start(cli_progress_t *p, const char *name, int64_t total, double every,
                        int quiet);
/* done of p->total units are finished; the printf-style rest says what the
 * work is at ("baseline epoch 12 of 60").  Prints only when a line is due
 * (the text is not even formatted otherwise), so it may be called for every
 * unit of work. */
void cli_progress_report(cli_progress_t *p, int64_t done, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* On a terminal: erase the line (before writing to stdout, which may share
 * the terminal); the next report draws it again. */
void cli_progress_clear(cli_progress_t *p);
/* The end of the work.  last == NULL: erase the line on a terminal, print
 * nothing otherwise.  Else a last line with ETA 0s, always printed (unless
 * p is off) and kept on a terminal; last is its WHAT text. */
void cli_progress_end(cli_progress_t *p, const char *last);

#endif
