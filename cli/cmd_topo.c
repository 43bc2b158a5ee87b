/*
 * cmd_topo.c — `smtbench topo`: which CPUs share a core here (or on any machine given as an
 * hwloc synthetic string or XML file), and the pair each placement would use.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "common/text.h"
#include "topology/topology.h"

/* ------------------------------------------------------------------------------------------ */
/* Text output, for a person.                                                                   */

/* A count's line: the count, or "unknown" where the topology has no such level. */
static void print_count(const char *label, int n, bool known, const char *level)
{
	if (known)
		printf("%-18s%d\n", label, n);
	else
		printf("%-18sunknown (the topology has no %s level)\n", label, level);
}

static void print_threads_per_core(const struct topo_info *info)
{
	if (info->cores == 0 || info->nkinds < 2) {
		print_count("threads per core:", info->max_threads_per_core, info->cores > 0, "Core");
		return;
	}
	printf("threads per core: by CPU kind (biggest first):\n");
	for (int k = 0; k < info->nkinds; k++) {
		const struct topo_kind *kind = &info->kinds[k];
		char *name = xescaped(kind->name); /* from an XML file, as the model below */
		printf("  %-14s %d per core (%d cores, %d PUs)\n", name, kind->max_threads_per_core,
		       kind->cores, kind->pus);
		free(name);
	}
	if (info->mixed_kind_cores)
		printf("  %d core%s mix%s kinds: %s PUs are of different kinds\n",
		       info->mixed_kind_cores, info->mixed_kind_cores == 1 ? "" : "s",
		       info->mixed_kind_cores == 1 ? "es" : "", info->mixed_kind_cores == 1 ? "its"
		                                                                          : "their");
}

static void print_info(const struct topo_info *info, const char *spec)
{
	if (info->source == TOPO_THIS_SYSTEM)
		printf("topology:         this system\n");
	else {
		char *shown = xescaped(spec);
		printf("topology:         %s %s\n", info->source_name, shown);
		free(shown);
	}
	if (info->cpu_model[0]) {
		/* The one rule chose (common/cpu_model.h); say so when hwloc's string differs, so that
		 * a user comparing with lstopo sees why. */
		char hwloc[CPU_MODEL_LEN];
		cpu_model_choose(NULL, info->cpu_model_hwloc, hwloc, sizeof hwloc);
		char *model = xescaped(info->cpu_model), *hwloc_model = xescaped(hwloc);
		if (hwloc[0] && strcmp(hwloc, info->cpu_model))
			printf("CPU model:        %s (from /proc/cpuinfo; hwloc names it \"%s\")\n",
			       model, hwloc_model);
		else
			printf("CPU model:        %s\n", model);
		free(model);
		free(hwloc_model);
	}
	print_count("packages:", info->packages, info->packages > 0 || info->pus == 0, "Package");
	print_count("cores:", info->cores, info->cores > 0, "Core");
	if (info->disallowed_pus > 0)
		printf("PUs:              %d usable (%d more present but offline, disallowed or outside "
		       "the affinity mask)\n", info->pus, info->disallowed_pus);
	else
		printf("PUs:              %d usable\n", info->pus);
	print_threads_per_core(info);
	printf("SMT:              %s (%s)\n", info->smt, info->source == TOPO_THIS_SYSTEM
	       ? "/sys/devices/system/cpu/smt/control" : "inferred from the topology");
	if (info->source == TOPO_THIS_SYSTEM) {
		struct topo_cpu_quota quota;
		topo_cpu_quota(&quota);
		if (quota.cpus > 0)
			printf("CPU quota:        %.3g CPUs (%s)\n"
			       "warning: a CPU quota throttles this process and its children: two busy "
			       "processes %s run at the same time, so a pair's contention is not what "
			       "its placement says\n",
			       quota.cpus, quota.source, quota.cpus < 2 ? "cannot" : "may not always");
		else
			printf("CPU quota:        none\n");
	}
	if (info->virtual_machine)
		printf("warning: virtual machine%s%s%s: its CPU numbering and siblings need not match "
		       "the host's\n", info->hypervisor[0] ? " (" : "", info->hypervisor,
		       info->hypervisor[0] ? ")" : "");
}

/* The CPU kind the pairs were chosen within, and those that could not be (several kinds). */
static void print_pair_kinds(const struct topo_info *info, const struct topo_pair pairs[PLACEMENT_COUNT])
{
	const struct topo_pair *solo = &pairs[PLACEMENT_SOLO];
	if (info->nkinds < 2 || !solo->available)
		return;
	char *kind = xescaped(solo->kind);
	printf("CPU kind:         %s (of %d kinds: the most performant, by hwloc's efficiency "
	       "ranking, that keeps the pairs within one kind; the baseline and every pair on it "
	       "unless warned below)\n", kind, info->nkinds);
	free(kind);
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		if (pairs[p].available && pairs[p].mixed_kinds)
			printf("warning: %s CPUs %d,%d mix CPU kinds: no %s pair here stays within one "
			       "kind, so its comparison is confounded by the kinds' speeds\n",
			       placement_name(pairs[p].placement), pairs[p].pus[0], pairs[p].pus[1],
			       placement_name(pairs[p].placement));
}

static void print_pairs(const struct topo_pair pairs[PLACEMENT_COUNT])
{
	printf("\n%-15s %-11s %s\n", "placement", "CPUs", "shares");
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		const struct topo_pair *pair = &pairs[p];
		const char *name = placement_name(pair->placement);
		if (!pair->available) {
			printf("%-15s %-11s unavailable: %s\n", name, "-", pair->reason);
			continue;
		}
		char cpus[32], core[32] = "";
		if (pair->npus == 1)
			snprintf(cpus, sizeof cpus, "%d", pair->pus[0]);
		else
			snprintf(cpus, sizeof cpus, "%d,%d", pair->pus[0], pair->pus[1]);
		if (pair->core >= 0)
			snprintf(core, sizeof core, " (core L#%d)", pair->core);
		printf("%-15s %-11s %s%s\n", name, cpus, pair->placement == PLACEMENT_SOLO ? "(alone)"
		       : pair->shares, core);
	}
}

/* The plain sentence a person needs when the sibling placement cannot run. */
static void print_smt_summary(const struct topo_info *info, const struct topo_pair *sibling)
{
	if (sibling->available)
		return;
	/* "No SMT" only when there is none: not when it is turned off, nor when some PUs may not
	 * be used here (then the reason says which, and why). */
	bool smt_off = info->source == TOPO_THIS_SYSTEM &&
	               (strcmp(info->smt, "off") == 0 || strcmp(info->smt, "forceoff") == 0);
	if (info->cores > 0 && info->max_threads_per_core < 2 && !smt_off &&
	    !info->smt_cores_present) {
		printf("\n%s has no SMT: every core runs one thread, so there is no sibling pair to "
		       "compare.\n", info->source == TOPO_THIS_SYSTEM ? "This machine" : "This topology");
	} else {
		printf("\nNo sibling pair: %s.\n", sibling->reason);
	}
}

static void print_relation(const struct topo_relation *rel)
{
	int a = rel->pus[0], b = rel->pus[1];
	switch (rel->relation) {
	case PLACEMENT_SAME_PU:
		printf("CPUs %d and %d are the same PU.\n", a, b);
		break;
	case PLACEMENT_SIBLING:
		printf("CPUs %d and %d are SMT siblings: two threads of one core (core L#%d); "
		       "they share its Core.\n", a, b, rel->core);
		break;
	case PLACEMENT_NON_SIBLING:
	case PLACEMENT_CROSS_PACKAGE: {
		const char *where = rel->relation == PLACEMENT_CROSS_PACKAGE ? "in different packages"
		                                                             : "in the same package";
		if (!strcmp(rel->shares, "Machine"))
			printf("CPUs %d and %d are on different cores %s: they share nothing below the "
			       "Machine.\n", a, b, where);
		else
			printf("CPUs %d and %d are on different cores %s: the deepest level they share "
			       "is %s.\n", a, b, where, rel->shares);
		break;
	}
	default:
		printf("CPUs %d and %d: %s, sharing %s.\n", a, b, placement_name(rel->relation),
		       rel->shares);
	}
	if (rel->mixed_kinds)
		printf("warning: CPUs %d and %d are of different CPU kinds: a comparison on them is "
		       "confounded by the kinds' speeds (`smtbench topo` shows pairs within one kind)\n",
		       a, b);
}

/* ------------------------------------------------------------------------------------------ */
/* JSON output: a contract; keys as issue 2 writes them.                                         */

/* A name from the topology (a CPU model, a kind), or null when it is not UTF-8, which JSON
 * cannot hold. */
static json_t *json_text(const char *name)
{
	json_t *s = json_string(name);
	return s ? s : json_null();
}

/* A source's CPU model, or null when it names none (or is not UTF-8). */
static json_t *json_model(const char *model)
{
	return model[0] ? json_text(model) : json_null();
}

static json_t *json_pair(const struct topo_pair *pair)
{
	const char *name = placement_name(pair->placement);
	if (!pair->available)
		return json_pack("{s:s, s:b, s:s}", "name", name, "available", false, "reason",
		                 pair->reason);
	/* The CPU kind of its PUs (null on a machine of one kind), and whether they mix kinds. */
	return json_pack("{s:s, s:b, s:o, s:s*, s:o*, s:o, s:b}", "name", name, "available", true,
	                 "pus", json_pack(pair->npus == 1 ? "[i]" : "[i, i]", pair->pus[0], pair->pus[1]),
	                 "shares",
	                 pair->placement != PLACEMENT_SOLO ? pair->shares : NULL,
	                 "core", pair->core >= 0 ? json_integer(pair->core) : NULL,
	                 "cpu_kind", pair->kind[0] ? json_text(pair->kind) : json_null(),
	                 "mixed_kinds", pair->mixed_kinds);
}

static json_t *json_info(const struct topo_info *info, const struct topo_pair pairs[PLACEMENT_COUNT])
{
	struct topo_cpu_quota quota = { .cpus = 0 };
	bool here = info->source == TOPO_THIS_SYSTEM; /* only this system has a quota to read */
	if (here)
		topo_cpu_quota(&quota);
	json_t *kinds = json_array(), *list = json_array();
	for (int k = 0; k < info->nkinds; k++)
		json_array_append_new(kinds, json_pack("{s:o, s:i, s:i, s:i}", "name",
		                                       json_text(info->kinds[k].name), "cores",
		                                       info->kinds[k].cores,
		                                       "pus", info->kinds[k].pus, "max_threads_per_core",
		                                       info->kinds[k].max_threads_per_core));
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		json_array_append_new(list, json_pair(&pairs[p]));
	/* A hypervisor's name that is not UTF-8 leaves its key out, as no name does. */
	return json_pack("{s:s, s:i, s:i, s:i, s:i, s:s, s:b, s:o*, s:o*, s:o, s:{s:o, s:o}, s:i, "
	                 "s:o, s:o}", "source", info->source_name, "pus", info->pus,
	                 "cores", info->cores, "packages", info->packages,
	                 "max_threads_per_core", info->max_threads_per_core, "smt", info->smt,
	                 "virtual_machine", info->virtual_machine,
	                 "cpu_quota", !here ? NULL
	                              : quota.cpus > 0 ? json_real(quota.cpus) : json_null(),
	                 "hypervisor", info->hypervisor[0] ? json_string(info->hypervisor) : NULL,
	                 "cpu_model", json_text(info->cpu_model),
	                 "cpu_model_sources", "hwloc", json_model(info->cpu_model_hwloc),
	                 "proc_cpuinfo", json_model(info->cpu_model_proc),
	                 "disallowed_pus", info->disallowed_pus, "cpu_kinds", kinds,
	                 "placements", list);
}

static json_t *json_relation(const struct topo_relation *rel)
{
	/* mixed_kinds: whether the two CPUs are of different CPU kinds (topology.h). */
	return json_pack("{s:[i, i], s:s, s:s, s:o*, s:b}", "pus", rel->pus[0], rel->pus[1],
	                 "relation", placement_name(rel->relation), "shares", rel->shares,
	                 "core", rel->core >= 0 ? json_integer(rel->core) : NULL,
	                 "mixed_kinds", rel->mixed_kinds);
}

/* ------------------------------------------------------------------------------------------ */

/* --pair A,B: what the two CPUs share. An exit status. */
static int show_pair(const struct topo *t, const int pair[2], bool json)
{
	char err[ERR_LEN];
	struct topo_relation rel;
	if (topo_relate(t, pair, &rel, err, sizeof err) < 0) {
		text_warnx("%s", err);
		return EXIT_USAGE;
	}
	if (json)
		return cli_print_json(json_relation(&rel), 0);
	print_relation(&rel);
	return EXIT_OK;
}

/* The machine and the pair each placement would use. An exit status. */
static int show_machine(const struct topo *t, const char *spec, bool json)
{
	struct topo_info info;
	struct topo_pair pairs[PLACEMENT_COUNT];
	topo_get_info(t, &info);
	for (int p = 0; p < PLACEMENT_COUNT; p++)
		topo_choose(t, (enum placement)p, &pairs[p]);
	if (json)
		return cli_print_json(json_info(&info, pairs), 0);
	print_info(&info, spec);
	print_smt_summary(&info, &pairs[PLACEMENT_SIBLING]);
	print_pairs(pairs);
	print_pair_kinds(&info, pairs);
	return EXIT_OK;
}

enum { OPT_TOPOLOGY = 1, OPT_PAIR, OPT_JSON };

const struct cli_option topo_options[] = {
	{ "topology", 't', OPT_TOPOLOGY, CLI_FILE, "SPEC", NULL, "plan for another machine: an "
	  "hwloc XML file or a synthetic description such as \"pack:2 core:4 pu:2(indexes=core)\"" },
	{ "pair", 'p', OPT_PAIR, CLI_WORD, "A,B", NULL, "say what CPUs A and B (OS numbers) share: "
	  "the same PU, one core (SMT siblings), or different cores sharing L3, a package, or "
	  "nothing" },
	{ "json", 'j', OPT_JSON, CLI_FLAG, NULL, NULL, "print JSON instead (a stable format for "
	  "other programs)" },
	{ 0 },
};

const struct cli_example topo_examples[] = {
	{ "this machine: its cores, SMT siblings, and the pair of CPUs each placement would use",
	  "smtbench topo" },
	{ "plan for a two-socket server from its XML (lstopo --of xml)",
	  "smtbench topo --topology intel-skylake-2x6140.xml" },
	{ "what CPUs 0 and 1 share here", "smtbench topo --pair 0,1" },
	{ 0 },
};

int cmd_topo(int argc, char **argv)
{
	const char *spec = NULL, *pair_text = NULL;
	bool json = false;
	int opt;
	optind = 1;
	while ((opt = cli_getopt(argc, argv, "topo")) != -1) {
		if (opt == OPT_TOPOLOGY)
			spec = optarg;
		else if (opt == OPT_PAIR)
			pair_text = optarg;
		else
			json = true;
	}
	if (optind < argc)
		usage_exit("topo", "unexpected argument '%s'", argv[optind]);
	int pair[2] = { 0, 0 };
	if (pair_text && parse_cpu_pair(pair_text, pair) < 0) {
		text_warnx("--pair '%s': expected two CPU numbers (OS indexes) as A,B, e.g. "
		           "--pair 0,1", pair_text);
		return EXIT_USAGE;
	}

	char err[ERR_LEN];
	struct topo *t = topo_load(spec, err, sizeof err);
	if (!t) {
		text_warnx("%s", err);
		return spec ? EXIT_USAGE : EXIT_FAILURE_RUNTIME;
	}
	int status = pair_text ? show_pair(t, pair, json) : show_machine(t, spec, json);
	topo_free(&t);
	return status;
}
