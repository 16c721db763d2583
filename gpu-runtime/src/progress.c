/*
 * progress.c - progress of long react-gpu runs on stderr.
 *
 * On a terminal: one line redrawn in place ("epoch k of n", percent,
 * elapsed, ETA), shown once a run has lasted a second, erased at the end.
 * Otherwise (a log file, a pipe): a plain line every `every` seconds, the
 * same style as `react sweep`.  Nothing for runs shorter than that.
 */
#include <stdio.h>
#include <unistd.h>

#include "gpu_cmds.h"

void react_gpu_progress_init(react_gpu_progress_t *p, int64_t total, double every, int enabled)
{
	p->t0 = react_gpu_now();
	p->last = p->t0;
	p->every = every;
	p->total = total > 0 ? total : 1;
	p->tty = isatty(STDERR_FILENO);
	p->shown = 0;
	p->enabled = enabled && every > 0;
}

static void fmt_dur(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, n, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, n, "%lds", t);
}

void react_gpu_progress_tick(react_gpu_progress_t *p, const char *mode, int64_t epoch,
                             int64_t nepochs, int64_t done)
{
	if (!p->enabled)
		return;
	double now = react_gpu_now(), el = now - p->t0;
	if (p->tty ? (el < 1.0 || now - p->last < 0.2) : now - p->last < p->every)
		return;
	p->last = now;
	char e[32], eta[32];
	fmt_dur(e, sizeof e, el);
	if (done > 0)
		fmt_dur(eta, sizeof eta, el / (double)done * (double)(p->total - done));
	else
		snprintf(eta, sizeof eta, "?");
	fprintf(stderr, "%sreact-gpu run: %s epoch %lld of %lld (%.1f%% of the run), elapsed %s, ETA %s%s",
	        p->tty ? "\r" : "", mode, (long long)epoch + 1, (long long)nepochs,
	        100.0 * (double)done / (double)p->total, e, eta, p->tty ? "\033[K" : "\n");
	fflush(stderr);
	p->shown = 1;
}

void react_gpu_progress_end(react_gpu_progress_t *p)
{
	if (p->enabled && p->tty && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
}
