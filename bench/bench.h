/* SPDX-License-Identifier: MIT */
/*
 * bench/bench.h - what the benchmark programs share: medians.
 */
#ifndef TNORM_BENCH_H
#define TNORM_BENCH_H

#include <stdlib.h>

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (the upper one of an even count); sorts v.  0 when n is 0. */
static double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return v[n / 2];
}

#endif
