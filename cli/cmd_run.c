/*
 * smtbench run — interleaved paired trials of a kernel or command in each placement.
 *
 * Everything the user gave is checked before anything is written: a bad option, kernel,
 * placement, pair or command is one line on stderr and exit 2 with no folder created.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/run_shared.h"
#include "common/text.h"
#include "runner/kernels.h"
#include "runner/launch.h"
#include "runner/workload.h"

#define DEFAULT_TRIALS 30
#define DEFAULT_WARMUP 2
#define DEFAULT_PLACEMENTS "sibling,non-sibling,solo"

enum { OPT_PLACEMENTS = RUN_OPT_OWN, OPT_KERNEL, OPT_ITERS, OPT_BESIDE_KERNEL, OPT_BESIDE_ITERS,
       OPT_PAIR, OPT_NAME, OPT_ONE_PROCESS, OPT_LIST_KERNELS };

const struct cli_option run_options[] = {
	{ "placements", 0, OPT_PLACEMENTS, CLI_PLACEMENTS, "LIST", NULL, "comma-separated "
	  "placements (default " DEFAULT_PLACEMENTS "); those this machine cannot give are "
	  "skipped with the reason" },
	{ "kernel", 'k', OPT_KERNEL, CLI_KERNEL, "NAME", NULL, "the workload (default nop; see "
	  "--list-kernels)" },
	{ "iters", 'i', OPT_ITERS, CLI_WORD, "N", NULL, "kernel iterations per process, not "
	  "calibrated (default: calibrated, see --trial-time)" },
	{ "trial-time", 0, OPT_TRIAL_TIME, CLI_WORD, "S", NULL, "without --iters, a calibration "
	  "on the first CPU sizes the kernel so that one copy runs about S seconds of CPU time alone "
	  "(default " STR(CALIBRATE_DEFAULT_TRIAL_S) "; a command cannot be calibrated)" },
	{ "precision", 0, OPT_PRECISION, CLI_WORD, "PCT", NULL, "stop once the headline ratio's "
	  "95% interval, paired by block, is within ±PCT% of its centre, after at least "
	  STR(PRECISION_MIN_BLOCKS) " measured blocks, or at --blocks/--duration if first (alone: "
	  "at most " STR(PRECISION_DEFAULT_MAX_BLOCKS) " blocks)" },
	{ "blocks", 'b', OPT_BLOCKS, CLI_WORD, "N", NULL, "measured blocks (each runs every "
	  "placement once, in a random order; default " STR(DEFAULT_TRIALS) "); --trials N is the "
	  "same option, by its former name" },
	{ "trials", 0, OPT_BLOCKS, CLI_WORD, "N", NULL, NULL },
	{ "duration", 'd', OPT_DURATION, CLI_WORD, "T", NULL, "instead of --blocks: after the "
	  "warm-up, as many whole blocks as fit in T (90s, 15m, 8h, 2d, 1h30m; a bare number is "
	  "seconds)" },
	{ "warmup-blocks", 'w', OPT_WARMUP, CLI_WORD, "N", NULL, "warm-up blocks, run first, "
	  "stored and left out of the analysis (default " STR(DEFAULT_WARMUP) "); --warmup N is "
	  "the same option, by its former name" },
	{ "warmup", 0, OPT_WARMUP, CLI_WORD, "N", NULL, NULL },
	{ "pair", 'p', OPT_PAIR, CLI_WORD, "A,B", NULL, "use these CPUs (OS numbers) for the "
	  "placement they form; the placements default to that one and solo" },
	{ "one-process", 0, OPT_ONE_PROCESS, CLI_FLAG, NULL, NULL, "one process per trial, bound "
	  "to all of the placement's CPUs and judged by its wall time: for a multi-threaded "
	  "program, or --kernel nop-2t" },
	{ "beside-kernel", 0, OPT_BESIDE_KERNEL, CLI_KERNEL, "NAME", NULL, "run this kernel on "
	  "the second CPU instead of a second copy (only the first one's times are analysed)" },
	{ "beside-iters", 0, OPT_BESIDE_ITERS, CLI_WORD, "N", NULL, "its iterations (default: as "
	  "long alone as the first kernel)" },
	{ "name", 'n', OPT_NAME, CLI_WORD, "A[,B]", NULL, "name the command after '--' (and the "
	  "one after '--beside') in samples.csv, meta.json and every report, instead of its file "
	  "name: " WORKLOAD_NAME_RULE },
	{ "list-kernels", 0, OPT_LIST_KERNELS, CLI_FLAG, NULL, NULL, "list the kernels and what "
	  "bounds each" },
	RUN_SHARED_OPTIONS("run"),
	{ 0 },
};

const struct cli_example run_examples[] = {
	{ "what `make run` runs: it stops when the headline ratio is known to ±1%, or after 45 s "
	  "of measured blocks", "smtbench run --placements sibling,non-sibling,same-pu,solo "
	  "--precision 1 --duration 45s --warmup-blocks 2" },
	{ "how much one command slows another on two given CPUs, each named in the reports",
	  "smtbench run --pair 0,1 --name gzip-6,bzip2 -- gzip -6 -c big.tar --beside bzip2 -c "
	  "big.tar" },
	{ "a two-thread program given a sibling pair, two cores, and one CPU",
	  "smtbench run --one-process --placements sibling,non-sibling,solo -- xz -T2 -c big.tar" },
	{ 0 },
};

/* What the command line said beyond the experiment's own settings. */
struct run_options {
	struct run_cli run;
	const char *placements; /* --placements, or NULL */
	const char *names;      /* --name A[,B], or NULL */
};

/* One option of cli_getopt into e or o; bad values exit 2. */
static void take_option(int opt, struct experiment *e, struct run_options *o)
{
	if (run_take_option("run", opt, e, &o->run))
		return;
	switch (opt) {
	case OPT_PLACEMENTS: o->placements = optarg; break;
	case OPT_KERNEL: free(e->kernel); e->kernel = xstrdup(optarg); break;
	case OPT_BESIDE_KERNEL: free(e->beside_kernel); e->beside_kernel = xstrdup(optarg); break;
	case OPT_BESIDE_ITERS: e->beside_iters = cli_whole("run", 1, RUN_MAX_ITERS); break;
	case OPT_ITERS: e->iters = cli_whole("run", 1, RUN_MAX_ITERS); break;
	case OPT_PAIR:
		if (parse_cpu_pair(optarg, e->pair) != 0)
			usage_exit("run", "--pair: '%s' is not two CPU numbers such as 0,1", optarg);
		e->have_pair = true;
		break;
	case OPT_NAME: o->names = optarg; break;
	case OPT_ONE_PROCESS: e->one_process = true; break;
	case OPT_LIST_KERNELS: exit(kernels_print(stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME);
	}
}

/* The user's command: after '--' (getopt leaves it at optind), split at '--beside'. */
static void set_command_workloads(struct experiment *e, int cmd_argc, char **cmd_argv)
{
	if (e->kernel || e->iters || e->beside_kernel || e->beside_iters || e->trial_time_s > 0)
		usage_exit("run", "--kernel, --iters, --trial-time, --beside-kernel and --beside-iters "
		           "are for kernels; with a command after '--', leave them out (a command "
		           "cannot be calibrated)");
	int split = 0;
	while (split < cmd_argc && strcmp(cmd_argv[split], "--beside"))
		split++;
	if (split == 0)
		usage_exit("run", "no command before --beside");
	if (split + 1 == cmd_argc)
		usage_exit("run", "no command after --beside");
	xworkload_command(&e->a, cmd_argv, split);
	if (split < cmd_argc)
		xworkload_command(&e->b, cmd_argv + split + 1, cmd_argc - split - 1);
}

/* Without --iters a kernel is calibrated (new_run); until then it has its table count, which
 * the preflight uses. The beside kernel's count: as long alone as the first's (each kernel's
 * table count is sized for the same time), so that it keeps A company for all of its run. */
static void set_kernel_workloads(struct experiment *e)
{
	if (!e->kernel)
		e->kernel = xstrdup("nop");
	const struct kernel *k = kernel_find(e->kernel);
	if (e->iters && e->trial_time_s > 0)
		usage_exit("run", "--trial-time sizes a calibrated count and --iters gives the count; "
		           "give one of them");
	if (!e->iters && e->trial_time_s <= 0)
		e->trial_time_s = CALIBRATE_DEFAULT_TRIAL_S;
	if (k && e->iters == 0)
		e->iters = k->default_iters;
	xworkload_kernel(&e->a, e->kernel, e->iters);
	const struct kernel *b = e->beside_kernel ? kernel_find(e->beside_kernel) : NULL;
	if (b && e->beside_iters == 0 && e->trial_time_s <= 0) {
		double scaled = (double)b->default_iters * ((double)e->iters / (double)k->default_iters);
		e->beside_iters = scaled < 1 ? 1 : scaled >= (double)RUN_MAX_ITERS ? RUN_MAX_ITERS
		                  : (unsigned long)scaled;
	} else if (b && e->beside_iters == 0) {
		e->beside_iters = b->default_iters;
		e->cal_b.trial_time_s = e->trial_time_s; /* to be calibrated too */
	}
	if (e->beside_kernel)
		xworkload_kernel(&e->b, e->beside_kernel, e->beside_iters);
	else if (e->beside_iters)
		usage_exit("run", "--beside-iters goes with --beside-kernel");
}

/* --name A[,B]: a command's, and the one beside it's, each by the rule of workload.h; a kernel
 * has its name. Else exit 2. */
static void set_names(struct experiment *e, const char *list)
{
	if (!list)
		return;
	const char *comma = strchr(list, ',');
	if (comma && strchr(comma + 1, ','))
		usage_exit("run", "--name: '%s' holds more than two names: --name A names the command, "
		           "--name A,B that one and the one after '--beside'", list);
	char *names[2] = { xasprintf("%.*s", (int)(comma ? (size_t)(comma - list) : strlen(list)),
	                             list), comma ? xstrdup(comma + 1) : NULL };
	for (int i = 0; i < 2; i++)
		if (names[i] && !workload_name_valid(names[i]))
			usage_exit("run", "--name: '%s' is not a name: a name is %s (--name A or "
			           "--name A,B)", names[i], WORKLOAD_NAME_RULE);
	if (e->a.is_kernel)
		usage_exit("run", "--name names a command after '--'; a kernel has its own name "
		           "(%s)", e->a.name);
	if (names[1] && !e->b.argv)
		usage_exit("run", "--name %s,%s: the second name is for the command after '--beside', "
		           "and there is none", names[0], names[1]);
	for (int i = 0; i < 2 && names[i]; i++)
		workload_set_name(i ? &e->b : &e->a, names[i]);
	free(names[0]);
	free(names[1]);
}

/* Workloads, blocks and warm-up from what the options left. */
static void settle_settings(struct experiment *e, const struct run_options *o, int argc,
                            char **argv)
{
	bool dashes = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (optind == argc && dashes)
		usage_exit("run", "no command after '--'");
	if (optind < argc && !dashes)
		usage_exit("run", "unexpected argument '%s'; a command to run goes after '--'",
		           argv[optind]);
	if (optind < argc)
		set_command_workloads(e, argc - optind, argv + optind);
	else
		set_kernel_workloads(e);
	if (e->one_process && (e->b.argv || e->beside_kernel))
		usage_exit("run", "--one-process runs one process on all of each placement's CPUs, "
		           "and %s runs a second workload beside the first: give one of them",
		           e->beside_kernel ? "--beside-kernel" : "--beside");
	const struct kernel *k = e->a.is_kernel ? kernel_find(e->kernel) : NULL;
	if (k && e->one_process && k->threads < 2)
		text_warnx("kernel %s has one thread: with --one-process it keeps one of a "
		           "placement's two CPUs busy (nop-2t has two threads)", k->name);
	else if (k && !e->one_process && k->threads > 1)
		text_warnx("kernel %s has %d threads: without --one-process each copy is bound to "
		           "one CPU, where its threads take turns", k->name, k->threads);
	set_names(e, o->names);
	run_settle_budget("run", &o->run, e, DEFAULT_TRIALS, DEFAULT_WARMUP);
}

/* --placements LIST into wanted, checked against --pair: the user's input, read before the
 * machine is. */
static void parse_wanted(const struct experiment *e, const char *list,
                         bool wanted[PLACEMENT_COUNT])
{
	char *copy = xstrdup(list), *save = NULL, known[256];
	bool two_cpus = false;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		enum placement p;
		char near[128];
		if (placement_parse(name, &p) != 0 && *placement_suggest(name, near, sizeof near))
			usage_exit("run", "--placements: unknown placement '%s'; did you mean %s? (the "
			           "placements are %s)", name, near, placement_names_list(known,
			                                                                  sizeof known));
		if (placement_parse(name, &p) != 0)
			usage_exit("run", "--placements: unknown placement '%s'; the placements are %s",
			           name, placement_names_list(known, sizeof known));
		wanted[p] = true;
		two_cpus |= placement_nprocs(p) == 2 && p != PLACEMENT_SAME_PU;
	}
	free(copy);
	if (!memchr(wanted, true, PLACEMENT_COUNT))
		usage_exit("run", "--placements: the list is empty");
	if (!two_cpus && e->have_pair)
		usage_exit("run", "--pair %d,%d names two CPUs, but --placements has no placement of "
		           "two CPUs (solo and same-pu use only CPU %d)", e->pair[0], e->pair[1],
		           e->pair[0]);
}

/* With --one-process, same-pu gives its one process the one CPU solo gives it: the two would
 * measure the same thing, and the comparison of them would answer nothing. Refused before the
 * run, naming the one to keep. */
static void refuse_same_cpus(const struct experiment *e, const struct run_options *o,
                             const bool wanted[PLACEMENT_COUNT])
{
	if (!e->one_process || !wanted[PLACEMENT_SAME_PU] || !wanted[PLACEMENT_SOLO])
		return;
	if (!o->placements && e->have_pair) /* the placements came from --pair, not --placements */
		usage_exit("run", "--pair %d,%d names CPU %d twice (same-pu), and with --one-process "
		           "same-pu and solo give the one process the same one CPU, so there would be "
		           "nothing to compare; give --pair two different CPUs, or leave out "
		           "--one-process (then two copies share CPU %d)", e->pair[0], e->pair[1],
		           e->pair[0], e->pair[0]);
	usage_exit("run", "--one-process: same-pu and solo give the one process the same one "
	           "CPU, so they would measure the same thing; keep one of them in --placements "
	           "(solo, the baseline every placement is compared with)");
}

/* Without --placements: the placement --pair forms and solo, or the default list. */
static void default_wanted(const struct experiment *e, const struct topo *topo,
                           bool wanted[PLACEMENT_COUNT])
{
	char err[ERR_LEN];
	struct topo_relation rel;
	if (!e->have_pair)
		parse_wanted(e, DEFAULT_PLACEMENTS, wanted);
	else if (topo_relate(topo, e->pair, &rel, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "--pair %d,%d: %s", e->pair[0], e->pair[1], err);
	else
		wanted[rel.relation] = wanted[PLACEMENT_SOLO] = true;
}

/* How long a copy runs: calibrated, given, or a command's own length. */
static void print_workload_sizes(const struct experiment *e)
{
	char *name = xescaped(e->a.name), *file = xescaped(e->a.argv[0]);
	if (e->cal_a.iters)
		launch_print_calibration("", e->kernel, &e->cal_a);
	else if (e->kernel)
		printf("  %s: %lu iterations (--iters: not calibrated)\n", e->kernel, e->iters);
	else
		printf("  %s%s%s%s is a command: it cannot be calibrated; its length is shown after "
		       "the warm-up\n", name, e->a.named ? " (" : "", e->a.named ? file : "",
		       e->a.named ? ")" : "");
	free(name);
	free(file);
	if (e->one_process && e->cal_a.iters)
		printf("  (calibrated as one process alone on one CPU: its threads' CPU time together)\n");
	if (e->b.named) {
		name = xescaped(e->b.name), file = xescaped(e->b.argv[0]);
		printf("  beside it: %s (%s)\n", name, file);
		free(name);
		free(file);
	}
	if (e->cal_b.iters)
		launch_print_calibration("beside ", e->beside_kernel, &e->cal_b);
	else if (e->beside_kernel)
		printf("  beside %s: %lu iterations\n", e->beside_kernel, e->beside_iters);
}

static void print_plan(const struct experiment *e)
{
	char *a = xescaped(e->a.name), *b = e->b.argv ? xescaped(e->b.name) : NULL;
	char *out = xescaped(e->out_dir);
	printf("smtbench run: %s%s%s%s → %s\n", a, b ? " beside " : "", b ? b : "",
	       e->one_process ? ", one process per trial on all of the placement's CPUs, judged "
	                        "by its wall time" : "", out);
	free(a);
	free(b);
	free(out);
	for (int i = 0; i < e->plan.nplacements; i++) {
		const struct topo_pair *pair = &e->pairs[e->plan.placements[i]];
		int cpus[2], n = e->one_process ? topo_pair_cpus(pair, cpus) : pair->npus;
		if (n == 1)
			printf("  %-13s CPU %d\n", placement_name(pair->placement), pair->pus[0]);
		else
			printf("  %-13s CPUs %d,%d (share %s)\n", placement_name(pair->placement),
			       pair->pus[0], pair->pus[1], pair->shares);
	}
	launch_print_kinds(e);
	long total = plan_total_trials(&e->plan);
	long blocks = e->plan.measured_blocks, warmup = e->plan.warmup_blocks;
	if (total >= 0)
		printf("  %ld trial%s%s: %ld warm-up + %ld measured block%s of %d (each block runs every "
		       "placement once), seed %llu\n", total, total == 1 ? "" : "s",
		       e->precision_pct > 0 ? " at most" : "", warmup, blocks,
		       blocks == 1 ? "" : "s", e->plan.nplacements, (unsigned long long)e->plan.seed);
	else
		printf("  whole blocks of %d (each block runs every placement once) for %.0f s (%ld "
		       "warm-up block%s first), seed %llu\n", e->plan.nplacements, e->duration_s,
		       warmup, warmup == 1 ? "" : "s", (unsigned long long)e->plan.seed);
	print_workload_sizes(e);
	launch_print_duration(e);
	launch_print_precision(e);
	launch_print_protections(e);
	fflush(stdout);
}

/* A new run: the user's input checked, the machine read (once), the pairs chosen, the kernel
 * tried and calibrated, then the folder and the trials. */
static int new_run(struct experiment *e, const struct run_options *o)
{
	bool wanted[PLACEMENT_COUNT] = { false };
	if (o->placements)
		parse_wanted(e, o->placements, wanted);
	char err[ERR_LEN];
	struct topo *topo = topo_load(NULL, err, sizeof err);
	if (!topo)
		text_errx(EXIT_FAILURE_RUNTIME, "cannot read this machine's topology: %s", err);
	if (!o->placements)
		default_wanted(e, topo, wanted);
	/* A bad --out is the user's mistake: say so before anything about the machine. */
	run_check_out("run", e->out_dir);
	struct topo_info info;
	topo_get_info(topo, &info);
	refuse_same_cpus(e, o, wanted);
	launch_choose_pairs(e, topo, wanted);
	if (e->plan.nplacements > 1 && e->plan.measured_blocks == 1)
		usage_exit("run", "--blocks 1 gives each placement one sample, and a comparison needs "
		           "at least 2 (the paired design %d): give --blocks 2 or more, or one placement "
		           "in --placements", ANALYSIS_PAIRED_MIN_BLOCKS);
	launch_check_machine(e, &info);
	if (e->a.is_kernel)
		launch_preflight(e, &e->a, true);
	if (e->b.argv && e->b.is_kernel)
		launch_preflight(e, &e->b, true);
	if (e->a.is_kernel && e->trial_time_s > 0)
		launch_calibrate(e, &e->a, &e->iters, &e->cal_a);
	if (e->b.argv && e->b.is_kernel && e->cal_b.trial_time_s > 0)
		launch_calibrate(e, &e->b, &e->beside_iters, &e->cal_b);
	return run_new(e, &topo, &info, print_plan);
}

int cmd_run(int argc, char **argv)
{
	struct experiment e = { .plan.measured_blocks = -2, .plan.warmup_blocks = -1,
	                        .trial_timeout_s = -1 };
	struct run_options o = { .placements = NULL };
	optind = 1;
	for (int opt; (opt = cli_getopt(argc, argv, "run")) != -1;)
		take_option(opt, &e, &o);
	int rc = run_resume_or_begin("run", &o.run, argc, argv, &e);
	if (rc < 0) {
		settle_settings(&e, &o, argc, argv);
		rc = new_run(&e, &o);
		experiment_release(&e);
	}
	return rc;
}
