/* The alpha-beta cost model (react_costmodel_eval) against its first
 * implementation, kept here as the reference: at every event it rescanned
 * every flow for each bottleneck link and for the next event.  The model
 * keeps lists of the active flows instead; the results must be the same to
 * the bit (the same floating-point operations in the same order for every
 * value), so makespans and every flow completion time are compared with
 * memcmp, on random patterns of every generator (2 to 64 ranks, permuted
 * ranks), random external loads, latencies, sizes and step ranges. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "react/costmodel.h"
#include "react/generators.h"
#include "test_env.h"

/* ---- the reference: the quadratic implementation, verbatim but for its name ---- */

enum { WAIT = 0, LAT, TX, DONE, SKIP };

static react_status_t ref_costmodel_eval(const react_costmodel_t *m, const react_pattern_t *p,
                                         int32_t step_begin, int32_t step_end, double *makespan_s,
                                         double *fct_out)
{
	react_status_t st = REACT_OK;
	size_t F, nleft = 0;
	int32_t N;
	double now = 0, cap;
	unsigned char *state = NULL, *frozen = NULL;
	double *ready = NULL, *rem = NULL, *rate = NULL, *lcap = NULL;
	int32_t *npend = NULL, *lcnt = NULL;

	if (!m || !p || !makespan_s || !(m->beta_s_per_byte > 0) || !(m->alpha_s >= 0))
		return REACT_EINVAL;
	if (step_end < 0 || step_end > p->nsteps)
		step_end = p->nsteps;
	F = p->nflows;
	N = p->nranks;
	cap = 1.0 / m->beta_s_per_byte;
	state = calloc(F + 1, 1);
	frozen = calloc(F + 1, 1);
	ready = calloc(F + 1, sizeof *ready);
	rem = calloc(F + 1, sizeof *rem);
	rate = calloc(F + 1, sizeof *rate);
	npend = calloc(F + 1, sizeof *npend);
	lcap = calloc(2 * (size_t)N, sizeof *lcap);
	lcnt = calloc(2 * (size_t)N, sizeof *lcnt);
	if (!state || !frozen || !ready || !rem || !rate || !npend || !lcap || !lcnt) {
		st = REACT_ENOMEM;
		goto fail;
	}
	for (size_t f = 0; f < F; f++) {
		const size_t *pr;
		size_t np = react_pattern_preds(p, f, &pr);
		if (p->flows[f].step < step_begin || p->flows[f].step >= step_end) {
			state[f] = SKIP;
			continue;
		}
		for (size_t i = 0; i < np; i++)
			if (p->flows[pr[i]].step >= step_begin)
				npend[f]++;
		rem[f] = (double)p->flows[f].bytes;
		state[f] = npend[f] ? WAIT : LAT;
		ready[f] = 0;
		nleft++;
	}
	while (nleft) {
		double next = INFINITY;
		size_t nact;
		/* water-filling over links 0..N-1 uplinks, N..2N-1 downlinks */
		for (int32_t l = 0; l < 2 * N; l++) {
			lcap[l] = cap;
			lcnt[l] = l < N ? (m->ext_up ? m->ext_up[l] : 0) : (m->ext_down ? m->ext_down[l - N] : 0);
		}
		nact = 0;
		for (size_t f = 0; f < F; f++) {
			frozen[f] = 0;
			if (state[f] == TX) {
				lcnt[p->flows[f].src]++;
				lcnt[N + p->flows[f].dst]++;
				nact++;
			}
		}
		while (nact) {
			int32_t bl = -1;
			double bs = INFINITY;
			for (int32_t l = 0; l < 2 * N; l++) {
				if (lcnt[l] > 0 && lcap[l] / lcnt[l] < bs) {
					bs = lcap[l] / lcnt[l];
					bl = l;
				}
			}
			if (bl < 0)
				break;
			/* freeze the flows of the bottleneck link (external flows on it
			 * take their share and leave with it) */
			for (size_t f = 0; f < F; f++) {
				if (state[f] != TX || frozen[f])
					continue;
				if (p->flows[f].src == bl || N + p->flows[f].dst == bl) {
					frozen[f] = 1;
					rate[f] = bs;
					lcap[p->flows[f].src] -= bs;
					lcap[N + p->flows[f].dst] -= bs;
					lcnt[p->flows[f].src]--;
					lcnt[N + p->flows[f].dst]--;
					nact--;
				}
			}
			lcap[bl] = 0;
			lcnt[bl] = 0; /* external flows of that link are frozen too */
		}
		/* next event */
		for (size_t f = 0; f < F; f++) {
			double t = INFINITY;
			if (state[f] == LAT)
				t = ready[f] + m->alpha_s;
			else if (state[f] == TX)
				t = now + rem[f] / rate[f];
			if (t < next)
				next = t;
		}
		if (!isfinite(next)) { st = REACT_EINVAL; goto fail; } /* cyclic dependencies */
		for (size_t f = 0; f < F; f++)
			if (state[f] == TX)
				rem[f] -= rate[f] * (next - now);
		now = next;
		for (size_t f = 0; f < F; f++) {
			if (state[f] == TX && rem[f] <= 1e-9 * (double)(p->flows[f].bytes + 1)) {
				const size_t *sc;
				size_t ns = react_pattern_succs(p, f, &sc);
				state[f] = DONE;
				nleft--;
				if (fct_out)
					fct_out[f] = now - ready[f];
				/* release successors (those outside the range are SKIP) */
				for (size_t i = 0; i < ns; i++)
					if (state[sc[i]] == WAIT && --npend[sc[i]] == 0) {
						state[sc[i]] = LAT;
						ready[sc[i]] = now;
					}
			}
		}
		for (size_t f = 0; f < F; f++)
			if (state[f] == LAT && ready[f] + m->alpha_s <= now)
				state[f] = TX;
	}
	if (fct_out)
		for (size_t f = 0; f < F; f++)
			if (state[f] == SKIP)
				fct_out[f] = 0;
	*makespan_s = now;
fail:
	free(state);
	free(frozen);
	free(ready);
	free(rem);
	free(rate);
	free(npend);
	free(lcap);
	free(lcnt);
	return st;
}

/* ---- random cases ---- */

static uint64_t g_rng;
static uint64_t next_u64(void) /* splitmix64 */
{
	uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static int32_t below(int32_t n) /* 0 .. n-1 */
{
	return (int32_t)(next_u64() % (uint64_t)n);
}
static double unit(void) /* [0, 1) */
{
	return (double)(next_u64() >> 11) * 0x1p-53;
}

typedef struct gen {
	const char *name;
	react_status_t (*fn)(int32_t, uint64_t, react_pattern_t **);
} gen_t;
static const gen_t g_gens[] = {
	{"allreduce tree", react_gen_tree_allreduce},
	{"allreduce ring", react_gen_ring_allreduce},
	{"allreduce rhd", react_gen_rhd_allreduce},
	{"allgather ring", react_gen_ring_allgather},
	{"allgather recdbl", react_gen_recdbl_allgather},
};

/* The reference rescans every flow, in range or not, in every
 * water-filling round: a case costs it about nflows x flows in range.  The
 * step range of a large pattern is narrowed until it fits this budget. */
#ifdef REACT_TEST_SANITIZED
#define REF_BUDGET 2e6
#else
#define REF_BUDGET 8e6
#endif

static size_t flows_in(const react_pattern_t *p, int32_t b, int32_t e)
{
	size_t n = 0;
	for (size_t f = 0; f < p->nflows; f++)
		n += p->flows[f].step >= b && p->flows[f].step < e;
	return n;
}

/* A random external load: NULL, or counts 0..3 on some links. */
static int32_t *random_load(int32_t N, int32_t *buf)
{
	if (below(3) == 0)
		return NULL;
	int busy = below(4); /* 0: every link may carry some */
	for (int32_t r = 0; r < N; r++)
		buf[r] = busy == 0 || below(busy + 1) == 0 ? below(4) : 0;
	return buf;
}

typedef struct tally {
	long cases, flows_compared, eventful, partial, fails;
} tally_t;

/* One case: both implementations on p with model m and steps [b, e); the
 * status, the makespan and every fct (entries neither writes included)
 * must match byte for byte, and the same without fct_out. */
static void one_case(const char *what, const react_pattern_t *p, const react_costmodel_t *m,
                     int32_t b, int32_t e, tally_t *t)
{
	size_t F = p->nflows;
	double *fa = malloc((F + 1) * sizeof *fa), *fb = malloc((F + 1) * sizeof *fb);
	double ma, mb;
	cr_assert(fa && fb);
	memset(fa, 0xa5, (F + 1) * sizeof *fa);
	memset(fb, 0xa5, (F + 1) * sizeof *fb);
	memset(&ma, 0x5a, sizeof ma);
	memset(&mb, 0x5a, sizeof mb);
	react_status_t sa = ref_costmodel_eval(m, p, b, e, &ma, fa);
	react_status_t sb = react_costmodel_eval(m, p, b, e, &mb, fb);
	cr_assert_eq(sb, sa, "%s, steps [%d, %d): status %d, reference %d", what, b, e, sb, sa);
	cr_assert(!memcmp(&ma, &mb, sizeof ma), "%s, steps [%d, %d): makespan %a, reference %a",
	          what, b, e, mb, ma);
	for (size_t f = 0; f < F + 1; f++)
		cr_assert(!memcmp(&fa[f], &fb[f], sizeof *fa), "%s, steps [%d, %d): fct[%zu] %a, "
		          "reference %a", what, b, e, f, fb[f], fa[f]);
	memset(&mb, 0x5a, sizeof mb);
	cr_assert_eq(react_costmodel_eval(m, p, b, e, &mb, NULL), sa);
	cr_assert(!memcmp(&ma, &mb, sizeof ma), "%s, steps [%d, %d): makespan without fct_out",
	          what, b, e);
	t->cases++;
	t->flows_compared += (long)F;
	t->eventful += sa == REACT_OK && ma > 0;
	t->partial += b > 0 || (e >= 0 && e < p->nsteps);
	t->fails += sa != REACT_OK;
	free(fa);
	free(fb);
}

Test(costmodel, same_bits_as_the_reference, .timeout = 600 * REACT_TEST_TIME_SCALE)
{
	tally_t t = {0};
	int32_t up[64], down[64];
	react_rank_t perm[64];
	g_rng = 20240611;
	for (size_t g = 0; g < sizeof g_gens / sizeof *g_gens; g++) {
		for (int32_t N = 2; N <= 64; N++) {
			for (int trial = 0; trial < 3; trial++) {
				/* sizes from 1 byte (every flow a few bytes: the completion
				 * test's slack matters) to 64 MB */
				uint64_t bytes = trial == 0 ? 1 + (uint64_t)below(4096)
				                            : 1 + (next_u64() % (64ull << 20));
				react_pattern_t *p = NULL;
				cr_assert_eq(g_gens[g].fn(N, bytes, &p), REACT_OK, "%s N=%d", g_gens[g].name, N);
				if (below(2)) {
					for (int32_t r = 0; r < N; r++)
						perm[r] = r;
					for (int32_t r = N - 1; r > 0; r--) {
						int32_t k = below(r + 1);
						react_rank_t x = perm[r];
						perm[r] = perm[k];
						perm[k] = x;
					}
					cr_assert_eq(react_pattern_permute(p, perm), REACT_OK);
				}
				react_costmodel_t m;
				static const double alphas[] = {0, 1e-9, 4e-6, 6e-6, 1e-4};
				m.alpha_s = below(4) ? alphas[below(5)] : unit() * 1e-5;
				m.beta_s_per_byte = 8.0 / (below(2) ? 100e9 : 1e9 + unit() * 400e9);
				m.ext_up = random_load(N, up);
				m.ext_down = random_load(N, down);
				/* a step range: the whole pattern (end -1 or past the last
				 * step) or a random one, narrowed to the reference's budget */
				int32_t S = p->nsteps, b = 0, e = -1;
				int kind = below(4);
				if (kind == 1)
					e = S + below(3);
				else if (kind >= 2) {
					b = below(S + 1);
					e = b + below(S - b + 1);
				}
				while ((double)p->nflows * (double)flows_in(p, b, e < 0 ? S : e) > REF_BUDGET) {
					if (e < 0 || e > S)
						e = S;
					if (e - b > 1)
						e = b + (e - b) / 2;
					else
						b = e = b + 1 <= S ? b + 1 : b;
					if (e - b <= 1 &&
					    (double)p->nflows * (double)flows_in(p, b, e) > REF_BUDGET)
						break; /* one step: as small as it gets */
				}
				char what[128];
				snprintf(what, sizeof what, "%s N=%d bytes=%llu alpha=%a beta=%a trial %d",
				         g_gens[g].name, N, (unsigned long long)bytes, m.alpha_s,
				         m.beta_s_per_byte, trial);
				one_case(what, p, &m, b, e, &t);
				react_pattern_destroy(p);
			}
		}
	}
	/* the cases covered what they should: most produced events, some
	 * ranges were partial */
	cr_assert_eq(t.cases, 5 * 63 * 3);
	cr_assert_gt(t.eventful, t.cases * 3 / 4, "%ld of %ld cases with a makespan", t.eventful,
	             t.cases);
	cr_assert_gt(t.partial, t.cases / 4, "%ld partial ranges", t.partial);
	cr_log_info("%ld cases, %ld flows compared, %ld with a makespan, %ld partial ranges",
	            t.cases, t.flows_compared, t.eventful, t.partial);
}

/* Hand-made corners: ties everywhere (every rank sends to one other, equal
 * sizes, no external load: every link a bottleneck at the same share), a
 * step of 1-byte flows, an empty range, a range past the last step. */
Test(costmodel, same_bits_on_corner_cases)
{
	tally_t t = {0};
	int32_t up[8] = {0, 1, 0, 1, 0, 1, 0, 1}, down[8] = {3, 0, 0, 0, 0, 0, 0, 3};
	for (int32_t N = 2; N <= 8; N++) {
		react_pattern_t *p = NULL;
		cr_assert_eq(react_pattern_create(REACT_COLL_ALLGATHER, REACT_ALGO_CUSTOM, N, N,
		                                  (uint64_t)N, &p), REACT_OK);
		for (int32_t s = 0; s < 3; s++)
			for (int32_t r = 0; r < N; r++) {
				react_flow_t f = {.step = s, .src = r, .dst = (r + 1 + s) % N, .chunk = r,
				                  .nchunks = 1, .bytes = s == 1 ? 1 : 1000, .op = REACT_RECV_STORE};
				if (f.dst == f.src)
					f.dst = (f.src + 1) % N;
				cr_assert_eq(react_pattern_add_flow(p, &f), REACT_OK);
			}
		cr_assert_eq(react_pattern_finalize(p, NULL, 0), REACT_OK);
		react_costmodel_t m = {0, 8.0 / 100e9, NULL, NULL};
		one_case("ring of ties", p, &m, 0, -1, &t);
		one_case("empty range", p, &m, 2, 1, &t);
		one_case("past the end", p, &m, 5, 9, &t);
		m.alpha_s = 1e-6;
		m.ext_up = up;
		m.ext_down = down;
		one_case("ring with loads", p, &m, 0, -1, &t);
		one_case("middle step", p, &m, 1, 2, &t);
		react_pattern_destroy(p);
	}
	cr_assert_eq(t.cases, 7 * 5);
}
