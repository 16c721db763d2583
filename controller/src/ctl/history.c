/*
 * history.c - FCT history of the last H epochs per (src, dst) pair, stored
 * normalised by bytes and degree (react/decide.h states the scaling).
 */
#include <stdlib.h>
#include <string.h>

#include "react/decide.h"

typedef struct hrec {
	react_rank_t src, dst;
	double v;
} hrec_t;

struct react_history {
	int32_t N;
	int H, n, head;     /* ring buffer of epochs */
	size_t *len;        /* records per slot */
	hrec_t **slot;
	double *sum;        /* N x N */
	int32_t *cnt;       /* N x N */
};

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
		r[f].v = fct[f] / ((b > 0 ? b : 1) * (d > 0 ? d : 1));
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
