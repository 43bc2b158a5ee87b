/*
 * cmd_advise.c — `smtbench advise DIR`: from a matrix's folder, the plan of which workloads share
 * a core (report/advise.c builds the answer, analysis/advise.c the plan and its draws), and the
 * means to apply it: --script writes a POSIX shell script that starts the workloads on the
 * plan's CPUs with taskset (real PU numbers from the folder's topology.xml), --slurm prints the
 * matching srun lines. A folder of node folders (as `smtbench fleet` takes) gets one plan per
 * matrix group, from the pooled cells (fleet/fleet_advise.c).
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/matrix.h"
#include "common/error.h"
#include "common/fileio.h"
#include "common/folder.h"
#include "common/text.h"
#include "fleet/fleet.h"
#include "report/report.h"
#include "topology/topology.h"
#include "cli/commands.h"

enum { OPT_OBJECTIVE = 1, OPT_CORES, OPT_COUNT, OPT_JSON, OPT_SCRIPT, OPT_SLURM, OPT_DRAWS,
       OPT_SEED };

const struct cli_option advise_options[] = {
	{ "objective", 0, OPT_OBJECTIVE, CLI_CHOICE, NULL, "throughput worst", "what the plan "
	  "maximises: throughput (default; the work per unit time, each workload's rate 1/its "
	  "slowdown beside its partner, 1 alone) or worst (the smallest worst slowdown)" },
	{ "cores", 0, OPT_CORES, CLI_WORD, "N", NULL, "the cores to place the workloads on (default: "
	  "the cores of the machine the matrix ran on, meta.json's topology.cores; for a fleet, "
	  "the fewest of each group's nodes')" },
	{ "count", 0, OPT_COUNT, CLI_WORD, "NAME=N,...", NULL, "copies of these workloads (default "
	  "one of each; 0 leaves one out)" },
	{ "json", 'j', OPT_JSON, CLI_FLAG, NULL, NULL, "print the JSON contract instead of the text "
	  "(results/README.md, \"advise --json\")" },
	{ "script", 0, OPT_SCRIPT, CLI_FILE, "FILE", NULL, "also write FILE (atomically): a POSIX "
	  "shell script that starts every workload of the plan at once on its CPUs with taskset -c "
	  "and waits for them; run it with sh FILE" },
	{ "slurm", 0, OPT_SLURM, CLI_FLAG, NULL, NULL, "print the plan as srun lines instead, "
	  "each pinned to its CPU by SLURM's map_cpu binding, and each workload's SMT advice as the "
	  "hint (multithread or nomultithread) for steps left unpinned" },
	{ "draws", 0, OPT_DRAWS, CLI_WORD, "N", NULL, "joint draws of the cells' posteriors for the "
	  "intervals and P(best) (default 4000)" },
	{ "seed", 's', OPT_SEED, CLI_WORD, "N", NULL, "the draws' seed (default fixed: the same folder "
	  "gives the same answer)" },
	{ 0 },
};

const struct cli_example advise_examples[] = {
	{ "which of a matrix's workloads should share a core on this machine",
	  "smtbench advise results/matrix-20261202T101500Z-host" },
	{ "two copies of gzip and one of each other workload on 4 cores, smallest worst slowdown",
	  "smtbench advise DIR --cores 4 --count gzip=2 --objective worst" },
	{ "a script that starts the plan's workloads on their CPUs",
	  "smtbench advise DIR --script plan.sh && sh plan.sh" },
	{ "one plan per CPU model from a fleet's matrices, pooled across the nodes",
	  "smtbench advise fleet-results/" },
	{ 0 },
};

struct advise_args {
	const char *dir;
	bool json, slurm;
	const char *script;
	struct advise_request rq;
	char **count_names;
	size_t *count_values;
};

/* --count NAME=N,...: each NAME once, N a whole number from 0 to 256. */
static void parse_counts(const char *text, struct advise_args *a)
{
	char *copy = xstrdup(text), *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(item, '=');
		unsigned long n;
		if (!eq || eq == item || parse_ulong(eq + 1, 0, ANALYSIS_ADVISE_MAX_ITEMS, &n) != 0)
			usage_exit("advise", "--count %s: each item is NAME=N, N a whole number from 0 to "
			           "%d (e.g. --count gzip=2,mcf=0)", item, ANALYSIS_ADVISE_MAX_ITEMS);
		*eq = '\0';
		for (size_t k = 0; k < a->rq.ncounts; k++)
			if (!strcmp(a->count_names[k], item))
				usage_exit("advise", "--count: %s is given twice", item);
		a->count_values = xreallocarray(a->count_values, a->rq.ncounts + 1,
		                                sizeof *a->count_values);
		a->count_values[a->rq.ncounts] = n;
		strings_push(&a->count_names, &a->rq.ncounts, xstrdup(item));
	}
	free(copy);
}

static void parse_advise_options(int argc, char **argv, struct advise_args *a)
{
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "advise")) != -1) {
		switch (c) {
		case OPT_OBJECTIVE:
			a->rq.objective = cli_choice("advise") == 1 ? ANALYSIS_OBJECTIVE_WORST
			                                            : ANALYSIS_OBJECTIVE_THROUGHPUT;
			break;
		case OPT_CORES:
			a->rq.cores = cli_whole("advise", 1, 1 << 16);
			break;
		case OPT_COUNT:
			parse_counts(optarg, a);
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_SCRIPT:
			if (!*optarg)
				usage_exit("advise", "--script: the file's name is empty");
			a->script = optarg;
			break;
		case OPT_SLURM:
			a->slurm = true;
			break;
		case OPT_DRAWS:
			a->rq.draws = cli_whole("advise", 100, 1000000);
			break;
		case OPT_SEED:
			a->rq.seed = cli_whole("advise", 1, (unsigned long)-1 >> 1);
			break;
		}
	}
	if (a->json && a->slurm)
		usage_exit("advise", "--json and --slurm both print the answer: give one");
	if (argc - optind != 1)
		usage_exit("advise", "give exactly one matrix's results folder, or one folder of a "
		           "fleet's node folders");
	a->dir = argv[optind];
}

/* ---- the plan's CPUs ------------------------------------------------------------------------ */

/* The PUs (at most 8) of the next core from *next on that has any, *next moved past it; 0 when
 * no core is left. */
static int next_core(const struct topo *t, int ncores, int *next, int pus[8])
{
	int npus = 0;
	while (*next < ncores && (npus = topo_core_cpus(t, *next, pus, 8)) == 0)
		(*next)++;
	if (*next >= ncores)
		return 0;
	(*next)++;
	return npus;
}

/* Each item's CPU, from the folder's topology.xml: the plan's cores in order on the machine's
 * cores (a pair on one core's first two PUs; on a machine whose cores have one PU each, a pair
 * takes two cores, as its cells were measured). -1 with err when the machine has too few. */
static int plan_cpus(const char *dir, const struct analysis_advice *a, int *cpu, bool *siblings,
                     char *err, size_t err_size)
{
	char *path = xasprintf("%s/topology.xml", dir);
	struct topo *t = topo_load(path, err, err_size);
	free(path);
	if (!t)
		return -1;
	int ncores = topo_core_count(t), next = 0, rc = 0;
	*siblings = true;
	for (size_t i = 0; i < a->nitems && rc == 0; i++) {
		int j = a->best.partner[i], pus[9] = { 0 };
		if (j >= 0 && j < (int)i)
			continue;
		int npus = next_core(t, ncores, &next, pus);
		if (j >= 0 && npus == 1) { /* cores of one PU: the partner on the next core */
			*siblings = false;
			npus = next_core(t, ncores, &next, pus + 1) ? 2 : 0;
		}
		if (npus == 0)
			rc = -1;
		cpu[i] = pus[0];
		if (j >= 0)
			cpu[j] = pus[1];
	}
	if (rc != 0)
		set_error(err, err_size, "%s/topology.xml: the plan needs more cores than the machine "
		          "has (%d%s); run fewer workloads (--count NAME=0) or give --cores for a "
		          "plan it can hold", dir, ncores, *siblings ? "" : ", one CPU each: a pair "
		          "measured on separate cores takes two");
	topo_free(&t);
	return rc;
}

/* ---- the commands --------------------------------------------------------------------------- */

/* s as one POSIX shell word: in single quotes, each ' as '\''. */
static void shell_word(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

/* Workload w's command line as shell words, from meta.json: a command's recorded words, or a
 * kernel's path (its one word) and its calibrated iteration count. -1 with err when it is not
 * recorded. */
static int command_words(const struct results_folder *f, size_t w, FILE *out, char *err,
                         size_t err_size)
{
	const json_t *matrix = json_object_get(f->meta, "matrix");
	const json_t *commands = json_object_get(matrix, "commands");
	const json_t *entry = json_array_get(commands ? commands : json_object_get(matrix, "kernels"),
	                                     w);
	const json_t *argv = json_object_get(entry, "command");
	json_int_t iters = json_integer_value(json_object_get(entry, "iters"));
	size_t count = commands ? json_array_size(argv) : 1;
	bool recorded = count > 0 && (commands || iters > 0);
	for (size_t i = 0; recorded && i < count; i++) {
		char *word = text_from_json(commands ? json_array_get(argv, i)
		                                     : json_object_get(entry, "path"));
		recorded = word != NULL;
		if (recorded && i)
			fputc(' ', out);
		if (recorded)
			shell_word(out, word);
		free(word);
	}
	if (recorded && !commands)
		fprintf(out, " %lld", (long long)iters);
	if (!recorded)
		set_error(err, err_size, "%s/meta.json: matrix workload %zu's command is not recorded",
		          f->shown_dir, w);
	return recorded ? 0 : -1;
}

/* The script: every workload of the plan started at once on its CPU, then waited for. */
static char *script_text(const struct results_folder *f, const struct advise_outcome *o,
                         const int *cpu, bool siblings, char *err, size_t err_size)
{
	const struct analysis_advice *a = o->advice;
	char *text = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	fprintf(out, "#!/bin/sh\n# Written by smtbench advise from %s: each workload on the CPU "
	        "of its place in the plan\n# (objective %s, %zu cores). Run it with sh; it waits for "
	        "every workload and exits 1 if any failed.\n", f->shown_dir,
	        advise_objective_name(a->objective), a->cores);
	if (!siblings)
		fprintf(out, "# This machine's cores have one CPU each: a pair runs on two cores, side "
		        "by side, as its cells were measured.\n");
	fprintf(out, "set -u\npids=''\n");
	int rc = 0;
	for (size_t i = 0; i < a->nitems && rc == 0; i++) {
		int j = a->best.partner[i];
		if (j >= 0 && j < (int)i)
			continue;
		fprintf(out, "# %s%s\n", o->matrix->kernels[a->item_workload[i]],
		        j < 0 ? " alone" : "");
		if (j >= 0)
			fprintf(out, "#   beside %s (CPUs %d and %d)\n",
			        o->matrix->kernels[a->item_workload[j]], cpu[i], cpu[j]);
		size_t members[2] = { i, (size_t)j };
		for (int k = 0; k < (j < 0 ? 1 : 2) && rc == 0; k++) {
			fprintf(out, "taskset -c %d ", cpu[members[k]]);
			rc = command_words(f, (size_t)a->item_workload[members[k]], out, err, err_size);
			fprintf(out, " &\npids=\"$pids $!\"\n");
		}
	}
	fprintf(out, "status=0\nfor pid in $pids; do\n\twait \"$pid\" || status=1\ndone\n"
	        "exit \"$status\"\n");
	fclose(out);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* --slurm: one srun line per workload, and its SMT advice as a --hint. */
static int print_slurm(const struct results_folder *f, const struct advise_outcome *o,
                       const int *cpu)
{
	const struct analysis_advice *a = o->advice;
	char err[ERR_LEN];
	printf("# smtbench advise %s: the plan as job steps, each pinned to its CPU (SLURM does not "
	       "take --hint\n# with --cpu-bind: each workload's hint is for steps left unpinned)\n",
	       f->shown_dir);
	for (size_t w = 0; w < a->nworkloads; w++) {
		const struct analysis_smt_advice *s = &a->smt[w];
		bool placed = false;
		for (size_t i = 0; i < a->nitems; i++)
			placed |= a->item_workload[i] == (int)w;
		if (!placed)
			continue;
		const char *hint = !o->matrix->placement
		                   || strcmp(o->matrix->placement, "sibling")
		                   ? "no --hint (not measured on SMT siblings)"
		                   : s->decision == ANALYSIS_SMT_KEEP_ON ? "--hint=multithread"
		                   : s->decision == ANALYSIS_SMT_TURN_OFF ? "--hint=nomultithread"
		                   : "no --hint (the data do not decide)";
		printf("# %s: %s\n", o->matrix->kernels[w], hint);
	}
	for (size_t i = 0; i < a->nitems; i++) {
		printf("srun --ntasks=1 --cpu-bind=map_cpu:%d --exact ", cpu[i]);
		fflush(stdout);
		if (command_words(f, (size_t)a->item_workload[i], stdout, err, sizeof err) != 0) {
			printf("\n");
			text_warnx("advise: %s", err);
			return EXIT_USAGE;
		}
		printf(" &\n");
	}
	printf("wait\n");
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

/* --script FILE: written atomically beside where it is named. */
static int write_script(const char *file, const char *text)
{
	char err[ERR_LEN];
	char *d = xstrdup(file), *b = xstrdup(file);
	int rc = fileio_write_atomic(dirname(d), basename(b), text, strlen(text), err, sizeof err);
	free(d);
	free(b);
	if (rc != 0) {
		text_warnx("advise: cannot write the script: %s", err);
		return EXIT_FAILURE_RUNTIME;
	}
	return EXIT_OK;
}

/* The plan applied: --script written, --slurm printed. */
static int apply_plan(const struct advise_args *args, const struct results_folder *f,
                      const struct advise_outcome *o)
{
	char err[ERR_LEN];
	int *cpu = xcalloc(o->advice->nitems + 1, sizeof *cpu);
	bool siblings;
	int status = EXIT_OK;
	char *text = NULL;
	if (plan_cpus(args->dir, o->advice, cpu, &siblings, err, sizeof err) != 0
	    || (args->script && !(text = script_text(f, o, cpu, siblings, err, sizeof err)))) {
		text_warnx("advise: %s", err);
		status = EXIT_USAGE;
	} else if (text) {
		status = write_script(args->script, text);
	}
	if (status == EXIT_OK && args->slurm)
		status = print_slurm(f, o, cpu);
	free(text);
	free(cpu);
	return status;
}

/* `smtbench advise FLEETDIR`: one plan per matrix group. Exit 0 when a group has a plan. */
static int advise_fleet(const struct advise_args *args)
{
	if (args->script || args->slurm)
		usage_exit("advise", "--script and --slurm apply one machine's plan: give one node's "
		           "matrix folder, not the fleet's %s", args->dir);
	char err[ERR_LEN];
	char *dirs[] = { (char *)args->dir };
	struct fleet *f = fleet_load(dirs, 1, err, sizeof err);
	if (!f) {
		text_warnx("advise: %s", err);
		return EXIT_USAGE;
	}
	char *shown = xescaped(args->dir);
	size_t planned;
	struct report *r = fleet_advise_report(f, shown, &args->rq, &planned, err, sizeof err);
	int status = EXIT_USAGE;
	if (!r) {
		text_warnx("advise: %s", err);
	} else {
		status = summary_print(r, args->json);
		if (status == EXIT_OK && !planned) {
			text_warnx("advise: no matrix group of %s has a plan (each says why)", shown);
			status = EXIT_USAGE;
		}
	}
	report_free(&r);
	free(shown);
	fleet_free(&f);
	return status;
}

int cmd_advise(int argc, char **argv)
{
	struct advise_args args = { .rq = { .objective = ANALYSIS_OBJECTIVE_THROUGHPUT } };
	parse_advise_options(argc, argv, &args);
	args.rq.count_names = (const char *const *)args.count_names;
	args.rq.count_values = args.count_values;
	struct stat st;
	int status = EXIT_USAGE;
	if (stat(args.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		text_warnx("advise: %s is not a directory; give a matrix's results folder", args.dir);
		goto out;
	}
	if (!fleet_is_results_folder(args.dir)) { /* a fleet's folder of node folders */
		status = advise_fleet(&args);
		goto out;
	}
	char err[ERR_LEN];
	struct results_folder *f = folder_open(args.dir);
	struct advise_outcome *o = NULL;
	struct report *r = advise_report(f, &args.rq, &o, err, sizeof err);
	if (!r) {
		text_warnx("advise: %s", err);
	} else {
		status = args.script || args.slurm ? apply_plan(&args, f, o) : EXIT_OK;
		if (status == EXIT_OK && !args.slurm)
			status = summary_print(r, args.json);
		if (status == EXIT_OK && args.script && !args.json) {
			char *shown = xescaped(args.script);
			printf("Script: %s (run it with sh %s)\n", shown, shown);
			free(shown);
		}
	}
	report_free(&r);
	advise_outcome_free(&o);
	folder_free(&f);
out:
	strings_release(&args.count_names, &args.rq.ncounts);
	free(args.count_values);
	return status;
}
