/*
 * words.h — every word and number a report shows of an analysis, written once for every
 * builder (run, matrix, fleet, analyze): the number format, the verdict and design names, the
 * one sentence that states a comparison's answer, what SMT gives one core, what is wrong with a
 * placement's samples, why a run stopped. Nothing here prints; out of memory exits.
 */
#ifndef SMTBENCH_REPORT_WORDS_H
#define SMTBENCH_REPORT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/analysis.h"

/* ---- numbers ---- */

/* v for a person, with the digits `resolution` (e.g. half an interval's width) makes
 * meaningful and at least three significant ones; scientific below 1e-4 and from 1e9; "n/a",
 * "inf", "-inf"; never "-0". Returns buf. */
const char *format_number(char *buf, size_t size, double v, double resolution);

/* A ring of number buffers, so that several formatted numbers fit in one printf. Each call takes
 * one buffer; format_ci three (its bounds, then the whole), format_ratio and format_effect five. */
enum { FORMAT_RING_SIZE = 32 };
struct format_ring {
	char buf[FORMAT_RING_SIZE][160];
	int next;
};
/* v by format_number into the ring's next buffer, valid for FORMAT_RING_SIZE - 1 more buffers. */
const char *format_num(struct format_ring *ring, double v, double resolution);
/* v as format_num writes it, a negative one with the minus sign (U+2212), as format_ci writes
 * its bounds: for a table's column beside such intervals. */
const char *format_signed(struct format_ring *ring, double v, double resolution);
/* ci as "lo–hi" at ring's resolution res, or "lo to hi" with minus signs (U+2212) when a bound
 * is negative ("−0.022 to −0.007": a dash next to a minus sign misreads). */
const char *format_ci(struct format_ring *ring, const double ci[2], double res);
/* A comparison's ratio framed as its answer sentence frames it: "1.19× faster (1.11–1.28)"
 * for a decided speed-up (its own factor, 1 / A/B), "1.04× slower (1.01–1.07)", "0.98×
 * (0.95–1.01)" without a direction; "n/a" for an unsettled comparison or one with no ratio. */
const char *format_effect(struct format_ring *ring, const struct analysis_comparison *c);
/* Whether format_effect gives the comparison a direction ("faster" or "slower"). */
bool effect_decided(const struct analysis_comparison *c);
/* Any printf of a short text (a count, a probability) into the ring's next buffer. */
const char *format_text(struct format_ring *ring, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "mean× (lo–hi)", every number at half the interval's width. */
const char *format_ratio(struct format_ring *ring, double mean, const double ci[2]);
/* The region of practical equivalence of --rope PCT as the ratios it spans, "0.599–1.67×": from
 * 1 / (1 + PCT/100) to 1 + PCT/100, symmetric in log (analysis.h); in the ring. */
const char *format_rope(struct format_ring *ring, double rope_pct);

/* Half the width of an interval: the resolution its numbers are shown with. */
double half_width(const double ci[2]);
/* The mean of a group's samples (values_s); NAN for none. */
double group_mean(const struct analysis_group *g);

/* A number for JSON: null when it is not finite; an interval as a pair of them. */
json_t *json_number_or_null(double v);
json_t *json_interval(const double ci[2]);
/* An array of the strings. */
json_t *json_strings(char *const *list, size_t count);

/* ---- names ---- */

/* "slower", "faster", "practically the same", "not enough data to say". */
const char *verdict_name(enum analysis_verdict v);
/* "paired" or "unpaired": the JSON value of "design". */
const char *design_name(enum analysis_design d);
/* "trial" or "process": what one sample is (the JSON value of "unit"). */
const char *unit_name(enum analysis_unit u);
/* The time a sample is, by the metric: "user CPU time" or "wall time". */
const char *metric_name(enum analysis_metric m);
/* Which design answered, in the words every output uses: "paired by block (42 blocks)",
 * "paired by block (40 blocks; 2 dropped)", "unpaired (independent groups)"; in the ring. */
const char *format_design(struct format_ring *ring, const struct analysis_comparison *c);

/* An unplanned comparison (COMPARISON_UNPLANNED) in words: "two cores against one CPU". Into
 * buf; returns buf. */
const char *unplanned_words(char *buf, size_t size, const struct analysis_comparison *c);
/* Whether c is a placement that adds a busy neighbour (a second copy or a workload beside it,
 * on its sibling, another core or package) against the baseline alone, and came out faster:
 * what a neighbour cannot honestly do, so a sign of interference from outside the experiment.
 * one_process: one process given the placement's CPUs (a second CPU is no neighbour). */
bool comparison_neighbour_speedup(const struct analysis_comparison *c, bool one_process);

/* ---- sentences (each a new string, the caller's) ---- */

/* Appends the text of fmt to *s, a new string of the caller's (or NULL: none yet), which it
 * replaces: a list built item by item. */
void append_words(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Who and what a comparison's sentence speaks of. */
struct verdict_words {
	const char *where;    /* "on CPUs 0 and 1, " or "" */
	const char *a;        /* "sibling placement", or a file's or command's name */
	const char *subject;  /* "each copy of `nop`": "A makes SUBJECT 2.7× slower than B"; NULL:
	                       * A itself, "A is 2.7× slower than B" */
	const char *note;     /* appended as it is (the control's note), or "" */
	bool capitalise;      /* the sentence starts with prose, not a name (a file keeps its case) */
	/* What was measured (borrowed): a folder's trials (or samples, --unit process), hyperfine's
	 * runs of a command or a file's numbers, as too few of them are named and more asked for;
	 * one process per trial or not (comparison_neighbour_speedup). */
	const struct analysis_dataset *data;
};

/* "Sibling placement makes each copy of `nop` 2.695× slower than non-sibling (95% CI
 * 2.688–2.703); P(slower) = 1.00, paired by block (44 blocks)", then the conditions that qualify
 * it, each said where it holds: an unplanned comparison named as such ("two cores against one
 * CPU"), measured under load ("measured under load: 72 of 72 trials shared their CPUs"), a
 * neighbour that made it faster (with the remedy), the ratio moved between the run's halves
 * (the headline doubtful); an undecided comparison gives its
 * factor as it is ("leaves ... at 1.02× its solo time ... — not enough data to say"), an
 * unsettled one no number at all ("Not enough data to say: ... cannot be told apart ..."). With
 * a ROPE (rope_pct not NaN) the deciding probability is the one the verdict used. No final full
 * stop. */
char *verdict_sentence(const struct analysis_comparison *c, double rope_pct,
                       const struct verdict_words *w);

/* What SMT gives one core: "With SMT this core did 1.24× the work of one copy alone (95% CI
 * 1.18–1.30): SMT on is worth +24% throughput for `w` (...)", or what it costs, or that the
 * interval includes 1. workload may be NULL. NULL when the yield is not known. */
char *smt_yield_sentence(const struct analysis_smt_yield *y, const char *workload);

/* Every problem of group d, in the order shown: short times (below the clock's resolution), drift (its slope's interval excludes 0),
 * outliers (kept), poor overlap, wall time above CPU time (not for a placement that time-shares
 * one PU by design). unit: what one sample is ("trial", "sample"). Appended to *list. */
void group_problems(const struct analysis_group_diagnostics *d, const char *unit, char ***list,
                    size_t *count);

/* meta.json's record of the placement name ({name, pus, shares, core, ...}): an entry of its
 * array of placements (runs, matrices; the last of that name), or of its object keyed by name
 * (the seed example); NULL when none. */
const json_t *meta_placement(const json_t *meta, const char *name);

/* The machine in one line, from a folder's shown meta.json (the CPU model by the one rule,
 * common/cpu_model.h): "EPYC on host h: 2 cores, 2 logical CPUs, ...; SMT control: on". */
char *machine_sentence(const json_t *meta);

/* Why a run stopped, or that it is still running or was killed, in one sentence ("" when the
 * folder says nothing of it: an older folder, a failed run, plain files). */
struct results_folder;
char *stop_sentence(const struct results_folder *f);
/* A folder whose run did not end: "Incomplete: killed (meta.json says running, but its runner
 * (pid 4242 on h) is gone: killed, or the machine restarted); this answer is of the N trials
 * written; continue with smtbench run --resume DIR." for a killed runner, and alike for an
 * interrupted run, one still being written and one whose runner cannot be seen (no pid
 * recorded); NULL for a complete, failed or older folder. */
char *incomplete_sentence(const struct results_folder *f);

/* ---- the joint safe list (analysis/matrix.h's rule) of a folder's matrix or fleet's pooled one ---- */

struct analysis_safe_pair;
struct safe_list {
	char *const *names;             /* the workloads the pairs index */
	size_t name_count;
	const struct analysis_safe_pair *pairs;
	size_t count;
	double joint_probability, slowdown;
	size_t candidates;
};
/* "a + b, c + d": the listed pairs (a new string). */
char *safe_list_words(const struct safe_list *s);
/* report.json's "safe_pairs" ([[a, b], ...]) and "safe_list" (the pairs with what their
 * probability covers: each kernel's `slowdown` beside the other, "slowdown" or "pooled
 * slowdown"). */
json_t *safe_pairs_json(const struct safe_list *s);
json_t *safe_list_json(const struct safe_list *s, const char *slowdown);

#endif
