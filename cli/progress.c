/* Progress of long commands on stderr (progress.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

/* a terminal line: first drawn after this long, redrawn at most this often */
#define TTY_AFTER_S 1.0
#define TTY_EVERY_S 0.2
#define BAR_WIDTH 24

double cli_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_fmt_dur(double s, char *buf, size_t n)
{
	if (s < 0 || !isfinite(s))
		snprintf(buf, n, "?");
	else if (s < 60)
		snprintf(buf, n, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

void cli_progress_start(cli_progress_t *p, const char *name, int64_t total, double every,
                        int quiet)
{
	p->name = name;
	p->total = total > 0 ? total : 1;
	p->every = every;
	p->t0 = p->last = cli_now_s();
	p->tty = isatty(STDERR_FILENO);
	p->off = quiet || !(every > 0);
	p->shown = 0;
}

/* One line: done of total, what; eta < 0: estimated from the rate so far. */
static void draw(cli_progress_t *p, double now, int64_t done, const char *what, double eta)
{
	char el[32], et[32];
	double t = now - p->t0;
	if (eta < 0 && done > 0)
		eta = t / (double)done * (double)(p->total - done);
	cli_fmt_dur(t, el, sizeof el);
	cli_fmt_dur(eta, et, sizeof et);
	if (p->tty) {
		int fill = (int)((double)BAR_WIDTH * (double)done / (double)p->total);
		fprintf(stderr, "\r%s [", p->name);
		for (int i = 0; i < BAR_WIDTH; i++)
			fputc(i < fill ? '#' : '.', stderr);
		fprintf(stderr, "] %s, elapsed %s, ETA %s\033[K", what, el, et);
		p->shown = 1;
	} else {
		fprintf(stderr, "%s: %s, elapsed %s, ETA %s\n", p->name, what, el, et);
	}
	fflush(stderr);
	p->last = now;
}

void cli_progress_report(cli_progress_t *p, int64_t done, const char *fmt, ...)
{
	if (p->off)
		return;
	double now = cli_now_s();
	if (p->tty ? now - p->t0 < TTY_AFTER_S || (p->shown && now - p->last < TTY_EVERY_S)
	           : now - p->last < p->every)
		return;
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	draw(p, now, done, what, -1);
}

void cli_progress_clear(cli_progress_t *p)
{
	if (!p->off && p->tty && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
}

void cli_progress_end(cli_progress_t *p, const char *last)
{
	if (p->off)
		return;
	if (!last) {
		cli_progress_clear(p);
		return;
	}
	draw(p, cli_now_s(), p->total, last, 0);
	if (p->tty)
		fputc('\n', stderr);
	p->shown = 0;
}
