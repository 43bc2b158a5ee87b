/* Unit tests of the runner's pure parts: strict parsing, the block plan, the store's resume. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "runner/plan.h"
#include "runner/store.h"
#include "common/alloc.h"
#include "common/fileio.h"
#include "tests/harness.h"

static void test_parse_ulong(void)
{
	unsigned long v = 0;
	CHECK(parse_ulong("42", 1, 100, &v) == 0 && v == 42, "parse_ulong accepts 42");
	CHECK(parse_ulong("0", 1, 100, &v) != 0, "parse_ulong rejects a value below min");
	CHECK(parse_ulong("101", 1, 100, &v) != 0, "parse_ulong rejects a value above max");
	CHECK(parse_ulong("-5", 0, 100, &v) != 0, "parse_ulong rejects a sign");
	CHECK(parse_ulong("+5", 0, 100, &v) != 0, "parse_ulong rejects a plus sign");
	CHECK(parse_ulong(" 5", 0, 100, &v) != 0, "parse_ulong rejects leading space");
	CHECK(parse_ulong("5x", 0, 100, &v) != 0, "parse_ulong rejects trailing text");
	CHECK(parse_ulong("", 0, 100, &v) != 0, "parse_ulong rejects the empty string");
	CHECK(parse_ulong("99999999999999999999999", 0, ~0UL, &v) != 0, "parse_ulong rejects overflow");
}

static void test_parse_pair_and_duration(void)
{
	int pair[2];
	CHECK(parse_cpu_pair("3,17", pair) == 0 && pair[0] == 3 && pair[1] == 17, "pair 3,17");
	CHECK(parse_cpu_pair("3", pair) != 0, "pair without a comma is rejected");
	CHECK(parse_cpu_pair("3,", pair) != 0, "pair with an empty second CPU is rejected");
	CHECK(parse_cpu_pair("a,1", pair) != 0, "pair with a non-number is rejected");
	CHECK(parse_cpu_pair("1,2,3", pair) != 0, "three CPUs are rejected");

	double s = 0;
	CHECK(parse_duration_s("90", &s) == 0 && s == 90, "90 is 90 s");
	CHECK(parse_duration_s("15m", &s) == 0 && s == 900, "15m is 900 s");
	CHECK(parse_duration_s("8h", &s) == 0 && s == 28800, "8h is 28800 s");
	CHECK(parse_duration_s("1h30m", &s) == 0 && s == 5400, "1h30m is 5400 s");
	CHECK(parse_duration_s("2d", &s) == 0 && s == 172800, "2d");
	CHECK(parse_duration_s("0s", &s) != 0, "a zero duration is rejected");
	CHECK(parse_duration_s("5x", &s) != 0, "an unknown unit is rejected");
	CHECK(parse_duration_s("-5m", &s) != 0, "a negative duration is rejected");
	CHECK(parse_duration_s("", &s) != 0, "an empty duration is rejected");
}

static void test_plan(void)
{
	struct plan p = { .seed = 12345, .nplacements = 3,
	                  .placements = { PLACEMENT_SOLO, PLACEMENT_SIBLING, PLACEMENT_NON_SIBLING },
	                  .warmup_blocks = 2, .measured_blocks = 10 };
	CHECK_INT(plan_total_trials(&p), 36, "total trials = (warm-up + measured) x placements");
	int complete = 1, orders_seen = 0;
	int seen_order[6] = { 0 };
	for (long b = 0; b < 200; b++) {
		enum placement order[PLACEMENT_COUNT];
		plan_block_order(&p, b, order);
		int counts[PLACEMENT_COUNT] = { 0 };
		for (int i = 0; i < 3; i++)
			counts[order[i]]++;
		if (counts[PLACEMENT_SOLO] != 1 || counts[PLACEMENT_SIBLING] != 1
		    || counts[PLACEMENT_NON_SIBLING] != 1)
			complete = 0;
		/* Index the permutation to count the distinct orders drawn. */
		int key = order[0] * 10 + order[1];
		int idx = key == 2 * 10 + 3 ? 0 : key == 2 * 10 + 0 ? 1 : key == 3 * 10 + 2 ? 2
		        : key == 3 * 10 + 0 ? 3 : key == 0 * 10 + 2 ? 4 : 5;
		if (!seen_order[idx]++)
			orders_seen++;
	}
	CHECK(complete, "every block runs every placement exactly once");
	CHECK_INT(orders_seen, 6, "over 200 blocks all 6 orders of 3 placements occur");

	/* Same seed, same plan; another seed, another plan. */
	struct plan q = p;
	int same = 1, differs = 0;
	for (long t = 0; t < 36; t++)
		if (plan_placement_of(&p, t) != plan_placement_of(&q, t))
			same = 0;
	q.seed = 54321;
	for (long t = 0; t < 36; t++)
		if (plan_placement_of(&p, t) != plan_placement_of(&q, t))
			differs = 1;
	CHECK(same, "the same seed replays the same order");
	CHECK(differs, "another seed gives another order");
	CHECK(plan_is_warmup(&p, 5) && !plan_is_warmup(&p, 6), "the first 2 blocks are warm-up");
	CHECK_INT(plan_block_of(&p, 7), 2, "trial 7 is in block 2");
	p.measured_blocks = -1;
	CHECK_INT(plan_total_trials(&p), -1, "a duration-bounded plan has no total");
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_store_resume_cuts_torn_tail(void)
{
	char dir[] = "/tmp/smtbench-store-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char path[256];
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	char *text = xasprintf(
		"%s\n"
		"0,0,1,solo,0,a,1,nop,ok,0,,0.250000,0.000000,0.251,0.0,0.251,0,1,900,1.0000,,0.10,X"
		",0.000,0.000,0,\n"
		"1,0,1,non-sibling,0,a,1,nop,ok,0,,0.260000,0.000000,0.26,0.3,0.56,0,1,900,0.9900,,0.10,X"
		",0.000,0.000,0,\n"
		"1,0,1,non-sibling,1,a,0,nop,ok,0,,0.270000,0.000000,0.27,0.3,0.57,0,1,900,0.9900,,0.10,X"
		",0.000,0.000,0,\n"
		"2,1,0,non-sibling,0,a,1,nop,ok,0,,0.260000,0.000000,0.26,0.6,0.86,0,1,900,0.9900,,0.10,X"
		",0.000,0.000,0,\n"
		"2,1,0,non-sibling,1,a,0,nop,o",
		SAMPLES_CSV_HEADER);
	write_text(path, text);
	free(text);

	char err[ERR_LEN];
	struct store_scan scan = { 0 };
	struct store *s = store_open(dir, err, sizeof err);
	bool resumed = s && store_scan(s, false, &scan, err, sizeof err) == 0
	               && store_cut_torn(s, &scan, err, sizeof err) == 0;
	CHECK(resumed, "store_open, store_scan and store_cut_torn take a folder with a torn last "
	      "trial");
	long n = resumed ? scan.ntrials : 0;
	const struct stored_trial *trials = resumed ? scan.trials : NULL;
	CHECK_INT(n, 2, "two complete trials are kept");
	CHECK_INT(resumed ? scan.cut_lines : 0, 2, "the torn trial's two lines are cut");
	if (n == 2) {
		CHECK(trials[1].placement == PLACEMENT_NON_SIBLING && trials[1].ok,
		      "trial 1 is an ok non-sibling trial");
		CHECK_NEAR(trials[1].utime_a_s, 0.265, 1e-9, "trial 1's role-a mean user time");
		CHECK_NEAR(trials[1].end_s, 0.57, 1e-9, "trial 1 ends at its latest process");
	}
	struct stat st;
	stat(path, &st);
	store_close(&s);
	store_scan_release(&scan);
	/* What is left must be exactly the header and the three rows of the two trials. */
	FILE *f = fopen(path, "r");
	int lines = 0, c, last = 0;
	while ((c = fgetc(f)) != EOF) {
		if (c == '\n')
			lines++;
		last = c;
	}
	fclose(f);
	CHECK_INT(lines, 4, "samples.csv keeps the header and three rows");
	CHECK(last == '\n', "samples.csv ends with a complete line");

	/* A file that is not ours is refused. */
	write_text(path, "a,b,c\n1,2,3\n");
	s = store_open(dir, err, sizeof err);
	CHECK(s && store_scan(s, false, &scan, err, sizeof err) != 0 && strstr(err, "header"),
	      "a foreign CSV is refused: %s", err);
	store_close(&s);
	unlink(path);
	rmdir(dir);
}

static void test_store_create_refuses_existing(void)
{
	char dir[] = "/tmp/smtbench-store-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char err[ERR_LEN];
	struct store *s = store_create(dir, err, sizeof err);
	CHECK(s == NULL && strstr(err, "already exists") && strstr(err, "choose another --out")
	      && !strstr(err, "--resume"),
	      "an existing folder is refused, naming --out and not --resume (an empty folder is "
	      "no run to resume): %s", err);
	char *sub = xasprintf("%s/a/b/run", dir);
	s = store_create(sub, err, sizeof err);
	CHECK(s != NULL && store_publish(s, err, sizeof err) == 0, "store_create makes missing parents");
	store_close(&s);
	char *csv = xasprintf("%s/samples.csv", sub);
	char *content = fileio_read_all(csv, NULL, err, sizeof err);
	CHECK(content && !strncmp(content, SAMPLES_CSV_HEADER, strlen(SAMPLES_CSV_HEADER)),
	      "a new samples.csv starts with the header");
	free(content);
	CHECK(fileio_write_atomic(sub, "meta.json", "{}\n", 3, err, sizeof err) == 0,
	      "fileio_write_atomic");
	char *meta = xasprintf("%s/meta.json", sub);
	content = fileio_read_all(meta, NULL, err, sizeof err);
	free(meta);
	CHECK(content && !strcmp(content, "{}\n"), "fileio_write_atomic wrote the content");
	free(content);
	char *cmd = xasprintf("rm -rf %s", dir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	free(csv);
	free(sub);
}

/* A new folder exists only once published: before, it has a temporary name beside its own;
 * closed unpublished, it leaves nothing; published over a folder that appeared meanwhile, it
 * is refused. */
static void test_store_publish(void)
{
	char base[] = "/tmp/smtbench-publish-XXXXXX";
	if (!CHECK(mkdtemp(base) != NULL, "mkdtemp"))
		return;
	char err[ERR_LEN] = "";
	char *dir = xasprintf("%s/run", base);
	struct store *s = store_create(dir, err, sizeof err);
	struct stat st;
	CHECK(s && strstr(store_dir(s), "/.smtbench-partial-run.") && stat(dir, &st) != 0,
	      "before store_publish the folder has a temporary name (%s) and %s does not exist",
	      s ? store_dir(s) : err, dir);
	store_close(&s);
	char *ls = xasprintf("test -z \"$(ls -A %s)\"", base);
	CHECK(system(ls) == 0, "an unpublished store closed leaves nothing behind");
	s = store_create(dir, err, sizeof err);
	CHECK(s && mkdir(dir, 0777) == 0, "a folder of the same name appears meanwhile");
	CHECK(s && store_publish(s, err, sizeof err) == -1 && strstr(err, "appeared"),
	      "store_publish refuses to replace it: \"%s\"", err);
	store_close(&s);
	rmdir(dir);
	CHECK(system(ls) == 0, "…and the temporary folder is removed");
	s = store_create(dir, err, sizeof err);
	CHECK(s && store_publish(s, err, sizeof err) == 0 && !strcmp(store_dir(s), dir) &&
	      stat(dir, &st) == 0 && S_ISDIR(st.st_mode), "store_publish renames it into place");
	store_close(&s);
	char *rm = xasprintf("rm -rf %s", base);
	CHECK(system(rm) == 0, "clean up");
	free(rm);
	free(ls);
	free(dir);
}

/* Writes text into root/relative, making the folders on the way. */
static void put(const char *root, const char *relative, const char *text)
{
	char *path = xasprintf("%s/%s", root, relative);
	char *cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		CHECK(0, "mkdir for %s", path);
	write_text(path, text);
	free(cmd);
	free(path);
}

static void test_cpu_quota(void)
{
	char root[] = "/tmp/smtbench-cgroup-XXXXXX";
	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp");
		return;
	}
	struct topo_cpu_quota q;
	char *mountinfo = xasprintf("%s/mountinfo", root), *cgroup = xasprintf("%s/cgroup", root);

	/* cgroup v2: the process's own cgroup is unlimited ("max"), its parent allows 1.5 CPUs. */
	put(root, "mountinfo", "30 25 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw\n");
	put(root, "cgroup", "0::/jobs/bench\n");
	put(root, "sys/fs/cgroup/jobs/bench/cpu.max", "max 100000\n");
	put(root, "sys/fs/cgroup/jobs/cpu.max", "150000 100000\n");
	topo_cpu_quota_from(mountinfo, cgroup, root, &q);
	CHECK_NEAR(q.cpus, 1.5, 1e-12, "v2: the parent's cpu.max limits the process to 1.5 CPUs");
	CHECK(strstr(q.source, "/sys/fs/cgroup/jobs/cpu.max") != NULL, "v2: the source is named: %s",
	      q.source);

	/* The tightest limit wins, wherever it is. */
	put(root, "sys/fs/cgroup/jobs/bench/cpu.max", "50000 100000\n");
	topo_cpu_quota_from(mountinfo, cgroup, root, &q);
	CHECK_NEAR(q.cpus, 0.5, 1e-12, "v2: the tighter limit of the two (0.5 CPUs)");

	/* A limit's two numbers are read wherever the whitespace between them ends, not from a
	 * line cut at a buffer's size (which read this period as 10: 5000 CPUs). */
	char spaced[160];
	snprintf(spaced, sizeof spaced, "50000%120s100000\n", "");
	put(root, "sys/fs/cgroup/jobs/bench/cpu.max", spaced);
	topo_cpu_quota_from(mountinfo, cgroup, root, &q);
	CHECK_NEAR(q.cpus, 0.5, 1e-12, "v2: a limit with 120 spaces between its numbers (0.5 CPUs)");

	/* No limit anywhere. */
	put(root, "sys/fs/cgroup/jobs/bench/cpu.max", "max 100000\n");
	put(root, "sys/fs/cgroup/jobs/cpu.max", "max 100000\n");
	topo_cpu_quota_from(mountinfo, cgroup, root, &q);
	CHECK(q.cpus == 0, "v2: max everywhere means no quota");

	/* cgroup v1 with cpu and cpuacct mounted together (a hybrid machine). */
	put(root, "mountinfo",
	    "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	    "31 25 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	put(root, "cgroup", "4:cpu,cpuacct:/ci/job\n0::/\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/ci/job/cpu.cfs_quota_us", "-1\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/ci/job/cpu.cfs_period_us", "100000\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/ci/cpu.cfs_quota_us", "25000\n");
	put(root, "sys/fs/cgroup/cpu,cpuacct/ci/cpu.cfs_period_us", "100000\n");
	topo_cpu_quota_from(mountinfo, cgroup, root, &q);
	CHECK_NEAR(q.cpus, 0.25, 1e-12, "v1: cpu.cfs_quota_us / cpu.cfs_period_us of the parent");

	/* Files that cannot be read mean no quota known, not a failure. */
	topo_cpu_quota_from("/nonexistent/mountinfo", cgroup, root, &q);
	CHECK(q.cpus == 0 && q.source[0] == '\0', "no mountinfo: no quota");

	char *cmd = xasprintf("rm -rf %s", root);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	free(mountinfo);
	free(cgroup);
}

int main(void)
{
	test_parse_ulong();
	test_parse_pair_and_duration();
	test_plan();
	test_store_resume_cuts_torn_tail();
	test_store_create_refuses_existing();
	test_store_publish();
	test_cpu_quota();
	return test_done("test_runner");
}
