/*
 * placements.h — the one registry of placements: each one's stable name, how many processes a
 * trial runs, and what the analysis compares it with and in which role. Topology chooses pairs
 * for it, the runner runs it, the analysis compares it and the reports draw it (their colours
 * and markers are report/svg.c's, by this table's enum), all from this table. Needs no hwloc,
 * so the analysis can read it too.
 *
 * Adding a placement is one X(...) row here plus its pair-choice function in topology/pairs.c
 * and its colour, marker and dash in report/svg.c (docs/DESIGN.md, "Adding a placement").
 * Names are contracts (samples.csv, meta.json, --placements): never rename a row.
 */
#ifndef SMTBENCH_COMMON_PLACEMENTS_H
#define SMTBENCH_COMMON_PLACEMENTS_H

#include <stdbool.h>
#include <stddef.h>

/* How the analysis compares a placement with the baseline (solo). */
enum placement_role {
	PLACEMENT_ROLE_BASELINE,   /* the reference the others are compared with */
	PLACEMENT_ROLE_CONTENTION, /* "contention": what sharing costs against running alone */
	PLACEMENT_ROLE_CONTROL,    /* "control": the accounting check (user time should match solo) */
};

/*
 * X(ID, "name", processes, time-shared, role against solo, "headline partner" or NULL).
 * time-shared: its processes take turns on one PU, so wall time above CPU time is expected of
 * it. Rows are in the order reports list placements.
 */
#define PLACEMENT_TABLE(X)                                                  \
	X(SOLO, "solo", 1, false, BASELINE, NULL)                           \
	X(SAME_PU, "same-pu", 2, true, CONTROL, NULL)                       \
	X(SIBLING, "sibling", 2, false, CONTENTION, "non-sibling")          \
	X(NON_SIBLING, "non-sibling", 2, false, CONTENTION, NULL)           \
	X(CROSS_PACKAGE, "cross-package", 2, false, CONTENTION, NULL)

/* The placements, in the order reports list them. */
enum placement {
#define PLACEMENT_ENUM_(id, name, nprocs, shared, role, headline) \
	PLACEMENT_##id,
	PLACEMENT_TABLE(PLACEMENT_ENUM_)
#undef PLACEMENT_ENUM_
	PLACEMENT_COUNT
};

struct placement_info {
	const char *name;
	int nprocs;
	bool time_shared;        /* its processes take turns on one PU */
	enum placement_role role;
	const char *headline_vs; /* compared with this placement for the headline, or NULL */
};

/* The name of a placement ("unknown" out of range). */
const char *placement_name(enum placement p);
/* 0 and *out set for a known name, -1 otherwise. */
int placement_parse(const char *name, enum placement *out);
/* Processes per trial: 1 for solo, 2 for the others. */
int placement_nprocs(enum placement p);

/* "solo, same-pu, ... and cross-package" into buf (cut to len), for messages; returns buf. */
const char *placement_names_list(char *buf, size_t len);
/* The placements closest to a mistyped name (text_suggest: "sibling" for "sibbling"), into buf;
 * "" when none is close. Returns buf. */
const char *placement_suggest(const char *word, char *buf, size_t len);

/* The registry, indexed by enum placement. */
extern const struct placement_info placement_table[PLACEMENT_COUNT];

/* The row of a name, or NULL for a name that is not a placement (a file's path). */
const struct placement_info *placement_info_find(const char *name);
/* True for a placement whose processes take turns on one PU (false for other names). */
bool placement_info_time_shared(const char *name);
/* A name's position in the table; PLACEMENT_COUNT for other names (they follow, in the order
 * they were found). */
size_t placement_info_rank(const char *name);

/* What a comparison is for: the SMT question (sibling vs non-sibling), what sharing costs
 * against running alone, the accounting control (same-pu vs solo), two plain files, two
 * commands of a hyperfine export, or two placements that were run and that no planned
 * comparison joins (non-sibling and same-pu without solo: two cores against one CPU), compared
 * directly so that every run of two placements has an answer. */
enum comparison_kind {
	COMPARISON_HEADLINE,
	COMPARISON_CONTENTION,
	COMPARISON_CONTROL,
	COMPARISON_FILES,
	COMPARISON_COMMANDS,
	COMPARISON_UNPLANNED,
};
/* Its label in every output and in the JSON contract: "headline", "contention", "control",
 * "files", "commands", "unplanned". */
const char *comparison_kind_name(enum comparison_kind kind);

/* One comparison the analysis makes of a results folder: A against B. */
struct placement_comparison {
	const char *a, *b;
	enum comparison_kind kind;
};
/* Every comparison in report order (the headlines, then contention, then control, each in
 * table order); writes at most max and returns how many there are. */
size_t placement_comparisons(struct placement_comparison *out, size_t max);
/* An upper bound of placement_comparisons' count. */
#define PLACEMENT_COMPARISONS_MAX (2 * PLACEMENT_COUNT)

#endif
