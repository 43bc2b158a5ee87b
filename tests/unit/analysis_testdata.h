/*
 * analysis_testdata.h — shared by the analysis tests: the seed's data, a deterministic random
 * generator (splitmix64 + Box–Muller), and a one-call comparison of two arrays.
 */
#ifndef SMTBENCH_TESTS_ANALYSIS_TESTDATA_H
#define SMTBENCH_TESTS_ANALYSIS_TESTDATA_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "common/folder.h"

static const double seed_ht[] = {
	31.17, 31.10, 31.20, 31.19, 31.12, 30.96, 31.08, 30.85, 31.18,
	31.17, 31.19, 31.15, 31.20, 31.18, 31.20, 31.17, 31.18, 31.17,
};
static const double seed_noht[] = {
	11.53, 11.54, 11.54, 11.54, 11.54, 11.55, 11.54, 11.55, 11.53, 11.54,
	11.53, 11.54, 11.55, 11.54, 11.69, 11.56, 11.54, 11.55, 11.57, 11.56,
};

struct rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static inline double rng_uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static inline double rng_normal(struct rng *r, double mean, double sd)
{
	double u1 = rng_uniform(r), u2 = rng_uniform(r);
	return mean + sd * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Runs the analysis of a against b; NULL (with the message printed) on failure. The result
 * borrows the dataset made for it: release both with compared_free. */
static inline struct analysis_result *compare_arrays(const double *a, size_t na, const double *b,
                                                     size_t nb, const struct analysis_options *opt)
{
	char err[512];
	struct analysis_dataset *d = analysis_dataset_from_arrays("A", a, na, "B", b, nb, err,
	                                                          sizeof err);
	if (!d) {
		printf("# dataset: %s\n", err);
		return NULL;
	}
	struct analysis_result *r = analysis_run(d, opt, err, sizeof err);
	if (!r) {
		printf("# analysis: %s\n", err);
		analysis_dataset_free(&d);
	}
	return r;
}

/* Releases a result of compare_arrays (or any whose dataset only it uses) and its dataset. */
static inline void compared_free(struct analysis_result **r)
{
	struct analysis_dataset *d = *r ? (struct analysis_dataset *)(*r)->data : NULL;
	analysis_result_free(r);
	analysis_dataset_free(&d);
}

/* DIR's samples as analysis_load_folder takes them (how), in parts parts (0: automatic): the
 * folder opened for it and let go. */
static inline struct analysis_dataset *load_dir_parts(const char *dir,
                                                      const struct analysis_take *how,
                                                      size_t parts, char *err, size_t err_size)
{
	struct results_folder *f = folder_open(dir);
	f->parts = parts;
	struct analysis_dataset *d = analysis_load_folder(f, how, err, err_size);
	folder_free(&f);
	return d;
}

static inline struct analysis_dataset *load_dir_as(const char *dir,
                                                   const struct analysis_take *how, char *err,
                                                   size_t err_size)
{
	return load_dir_parts(dir, how, 0, err, err_size);
}

/* DIR's samples, each sample a trial's mean or each process's time: the folder's own metric. */
static inline struct analysis_dataset *load_dir(const char *dir, enum analysis_unit unit,
                                                char *err, size_t err_size)
{
	return load_dir_as(dir, &(struct analysis_take){ .unit = unit }, err, err_size);
}

/* The time DIR is compared by, and whether its trials were one process each, as the folder
 * reads its meta.json. */
static inline enum analysis_metric folder_metric_of(const char *dir, bool *one_process)
{
	struct results_folder *f = folder_open(dir);
	*one_process = f->kind == FOLDER_ONE_PROCESS;
	enum analysis_metric m = f->wall_metric ? ANALYSIS_METRIC_WALL : ANALYSIS_METRIC_USER;
	folder_free(&f);
	return m;
}

#endif
