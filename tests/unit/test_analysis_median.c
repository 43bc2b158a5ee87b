/* The median and MAD behind the outlier flags: selection must agree with a full sort. */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "tests/harness.h"

static int compare_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static double sorted_median(const double *x, size_t n)
{
	double *c = malloc(n * sizeof *c);
	memcpy(c, x, n * sizeof *c);
	qsort(c, n, sizeof *c, compare_doubles);
	double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
	free(c);
	return m;
}

int main(void)
{
	CHECK_NEAR(median_of((double[]){ 3, 1, 2 }, 3), 2, 0, "median of 3, 1, 2");
	CHECK_NEAR(median_of((double[]){ 4, 1, 3, 2 }, 4), 2.5, 0, "median of an even count");
	CHECK_NEAR(median_of((double[]){ 7 }, 1), 7, 0, "median of one value");
	CHECK_NEAR(median_of((double[]){ 5, 5, 5, 5 }, 4), 5, 0, "median of equal values");
	CHECK_NEAR(mad_of((double[]){ 1, 2, 3, 4, 100 }, 5, 3), 1, 0, "MAD of 1,2,3,4,100 about 3");

	/* Random arrays of every size up to 200, with many ties, sorted and reversed runs. */
	uint64_t state = 42;
	int agree = 1;
	double x[200];
	for (size_t n = 1; n <= 200 && agree; n++) {
		for (int shape = 0; shape < 4; shape++) {
			for (size_t i = 0; i < n; i++) {
				state = state * 6364136223846793005ULL + 1442695040888963407ULL;
				double r = (double)(state >> 11) / 9007199254740992.0;
				x[i] = shape == 0 ? r : shape == 1 ? floor(r * 4) : shape == 2 ? (double)i
				     : (double)(n - i);
			}
			if (median_of(x, n) != sorted_median(x, n)) {
				agree = 0;
				CHECK(0, "selection disagrees with sorting at n = %zu, shape %d", n, shape);
				break;
			}
		}
	}
	CHECK(agree, "selection equals sorting on 800 arrays (random, ties, ascending, descending)");
	return test_done("test_analysis_median");
}
