/*
 * history.c - FCT history of the last H epochs per (src, dst) pair, stored
 * normalised by bytes and degree (react/decide.h states the scaling).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "react/decide.h"

typedef struct hrec {
	react_rank_t src, dst;
	int32_t kout, kin;  /* the sender's out-degree, the receiver's in-degree at the step */
	double v;           /* fct / (bytes x degree) */
	double u;           /* fct / bytes */
} hrec_t;

struct react_history {
	int32_t N;
	int H, n, head;     /* ring buffer of epochs */
	size_t *len;        /* records per slot */
	hrec_t **slot;
	double *sum;        /* N x N */
	int32_t *cnt;       /* N x N */
};

static double react_median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

react_status_t react_history_create(int32_t nranks, int H, react_history_t **out)
{
	react_history_t *h;
	if (nranks < 1 || H < 1 || !out)
		return REACT_EINVAL;
	h = calloc(1, sizeof *h);
	if (!h)
		return REACT_ENOMEM;
	h->N = nranks;
	h->H = H;
	h->len = calloc((size_t)H, sizeof *h->len);
	h->slot = calloc((size_t)H, sizeof *h->slot);
	h->sum = calloc((size_t)nranks * (size_t)nranks, sizeof *h->sum);
	h->cnt = calloc((size_t)nranks * (size_t)nranks, sizeof *h->cnt);
	if (!h->len || !h->slot || !h->sum || !h->cnt) {
		react_history_destroy(h);
		return REACT_ENOMEM;
	}
	*out = h;
	return REACT_OK;
}

void react_history_destroy(react_history_t *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->H; i++)
		free(h->slot ? h->slot[i] : NULL);
	free(h->slot);
	free(h->len);
	free(h->sum);
	free(h->cnt);
	free(h);
}

static void drop(react_history_t *h, int s)
{
	for (size_t i = 0; i < h->len[s]; i++) {
		size_t k = (size_t)h->slot[s][i].src * (size_t)h->N + (size_t)h->slot[s][i].dst;
		h->sum[k] -= h->slot[s][i].v;
		if (--h->cnt[k] == 0)
			h->sum[k] = 0; /* no drift once a pair is forgotten */
	}
	h->len[s] = 0;
}

react_status_t react_history_add(react_history_t *h, const react_pattern_t *p, const double *fct)
{
	int s;
	hrec_t *r;
	if (!h || !p || !fct || p->nranks != h->N)
		return REACT_EINVAL;
	s = (h->head + h->n) % h->H;
	if (h->n == h->H) {
		s = h->head;
		drop(h, s);
		h->head = (h->head + 1) % h->H;
		h->n--;
	}
	r = realloc(h->slot[s], (p->nflows ? p->nflows : 1) * sizeof *r);
	if (!r)
		return REACT_ENOMEM;
	h->slot[s] = r;
	for (size_t f = 0; f < p->nflows; f++) {
		size_t k;
		double d = (double)react_pattern_flow_degree(p, f);
		double b = (double)p->flows[f].bytes;
		r[f].src = p->flows[f].src;
		r[f].dst = p->flows[f].dst;
		r[f].kout = react_pattern_out_degree(p, p->flows[f].step, p->flows[f].src);
		r[f].kin = react_pattern_in_degree(p, p->flows[f].step, p->flows[f].dst);
		r[f].v = fct[f] / ((b > 0 ? b : 1) * (d > 0 ? d : 1));
		r[f].u = fct[f] / (b > 0 ? b : 1);
		k = (size_t)r[f].src * (size_t)h->N + (size_t)r[f].dst;
		h->sum[k] += r[f].v;
		h->cnt[k]++;
	}
	h->len[s] = p->nflows;
	h->n++;
	return REACT_OK;
}

int react_history_pair(const react_history_t *h, react_rank_t src, react_rank_t dst, double *mean)
{
	size_t k;
	if (!h || src < 0 || dst < 0 || src >= h->N || dst >= h->N)
		return 0;
	k = (size_t)src * (size_t)h->N + (size_t)dst;
	if (h->cnt[k] == 0)
		return 0;
	if (mean)
		*mean = h->sum[k] / h->cnt[k];
	return 1;
}

int react_history_epochs(const react_history_t *h) { return h ? h->n : 0; }

/*
 * Learned rates (the "pattern" estimator of decide.c).  A flow's time per
 * byte u is modelled as c0 x max(k(kout) + x_src, k(kin) + y_dst) + c0 z:
 *   c0     the fastest time per byte seen (a flow alone on its path);
 *   k(n)   the effective share of n flows at one endpoint in one step: the
 *          median u / c0 of the flows whose degree is n (flows of one step do
 *          not all overlap, so k(2) is often well below 2); n never seen:
 *          n x k(1);
 *   x, y   the sender's egress and the receiver's ingress load in flows
 *          (external traffic): the smallest excess u / c0 - k over the
 *          endpoint's flows, so a rank is blamed only when all its flows
 *          were slow (at least once slow and never fast);
 *   z      a pair's excess beyond both endpoints (a congested path), the
 *          mean over the pair's records; 0 for a pair never seen.
 * Everything comes from the last H epochs of every pattern that ran.
 */
react_status_t react_history_learn(const react_history_t *h, react_rates_t **out)
{
	react_rates_t *r;
	size_t nrec = 0, N;
	double *tmp = NULL;
	int32_t maxk = 1;
	if (!h || !out)
		return REACT_EINVAL;
	*out = NULL;
	N = (size_t)h->N;
	for (int i = 0; i < h->n; i++) {
		int s = (h->head + i) % h->H;
		nrec += h->len[s];
		for (size_t j = 0; j < h->len[s]; j++) {
			const hrec_t *q = &h->slot[s][j];
			if (q->kout > maxk) maxk = q->kout;
			if (q->kin > maxk) maxk = q->kin;
		}
	}
	r = calloc(1, sizeof *r);
	if (!r)
		return REACT_ENOMEM;
	r->N = h->N;
	r->maxk = maxk;
	r->keff = malloc((size_t)(maxk + 1) * sizeof *r->keff);
	r->x = malloc(N * sizeof *r->x);
	r->y = malloc(N * sizeof *r->y);
	r->z = calloc(N * N, sizeof *r->z);
	r->zn = calloc(N * N, sizeof *r->zn);
	tmp = malloc((nrec ? nrec : 1) * sizeof *tmp);
	if (!r->keff || !r->x || !r->y || !r->z || !r->zn || !tmp) {
		free(tmp);
		react_rates_destroy(r);
		return REACT_ENOMEM;
	}
	r->c0 = 0;
	for (int i = 0; i < h->n; i++) {
		int s = (h->head + i) % h->H;
		for (size_t j = 0; j < h->len[s]; j++)
			if (r->c0 == 0 || h->slot[s][j].u < r->c0)
				r->c0 = h->slot[s][j].u;
	}
	r->valid = nrec > 0 && r->c0 > 0;
	for (int32_t k = 0; k <= maxk; k++) {
		size_t n = 0;
		for (int i = 0; r->valid && i < h->n; i++) {
			int s = (h->head + i) % h->H;
			for (size_t j = 0; j < h->len[s]; j++) {
				const hrec_t *q = &h->slot[s][j];
				if ((q->kout > q->kin ? q->kout : q->kin) == k)
					tmp[n++] = q->u / r->c0;
			}
		}
		r->keff[k] = n ? react_median(tmp, n) : NAN;
	}
	if (isnan(r->keff[1]))
		r->keff[1] = 1.0;
	r->keff[0] = 0.0;
	for (int32_t k = 2; k <= maxk; k++)
		if (isnan(r->keff[k]))
			r->keff[k] = k * r->keff[1];
	for (size_t i = 0; i < N; i++)
		r->x[i] = r->y[i] = NAN;
	for (int i = 0; r->valid && i < h->n; i++) {
		int s = (h->head + i) % h->H;
		for (size_t j = 0; j < h->len[s]; j++) {
			const hrec_t *q = &h->slot[s][j];
			double ex = q->u / r->c0 - react_rates_share(r, q->kout);
			double ey = q->u / r->c0 - react_rates_share(r, q->kin);
			if (ex < 0) ex = 0;
			if (ey < 0) ey = 0;
			if (isnan(r->x[q->src]) || ex < r->x[q->src]) r->x[q->src] = ex;
			if (isnan(r->y[q->dst]) || ey < r->y[q->dst]) r->y[q->dst] = ey;
		}
	}
	for (size_t i = 0; i < N; i++) {
		if (isnan(r->x[i])) r->x[i] = 0;
		if (isnan(r->y[i])) r->y[i] = 0;
	}
	for (int i = 0; r->valid && i < h->n; i++) {
		int s = (h->head + i) % h->H;
		for (size_t j = 0; j < h->len[s]; j++) {
			const hrec_t *q = &h->slot[s][j];
			double a = react_rates_share(r, q->kout) + r->x[q->src];
			double b = react_rates_share(r, q->kin) + r->y[q->dst];
			double e = q->u / r->c0 - (a > b ? a : b);
			size_t k = (size_t)q->src * N + (size_t)q->dst;
			r->z[k] += e > 0 ? e : 0;
			r->zn[k]++;
		}
	}
	for (size_t k = 0; k < N * N; k++)
		if (r->zn[k])
			r->z[k] /= r->zn[k];
	free(tmp);
	*out = r;
	return REACT_OK;
}

double react_rates_share(const react_rates_t *r, int32_t k)
{
	if (k <= 0)
		return 0;
	if (k <= r->maxk)
		return r->keff[k];
	return k * r->keff[1];
}

double react_rates_flow(const react_rates_t *r, react_rank_t src, react_rank_t dst, int32_t kout,
                        int32_t kin)
{
	double a = react_rates_share(r, kout) + r->x[src];
	double b = react_rates_share(r, kin) + r->y[dst];
	return r->c0 * ((a > b ? a : b) + r->z[(size_t)src * (size_t)r->N + (size_t)dst]);
}

int react_rates_pair_seen(const react_rates_t *r, react_rank_t src, react_rank_t dst)
{
	return r->zn[(size_t)src * (size_t)r->N + (size_t)dst] > 0;
}

void react_rates_destroy(react_rates_t *r)
{
	if (!r)
		return;
	free(r->keff);
	free(r->x);
	free(r->y);
	free(r->z);
	free(r->zn);
	free(r);
}
