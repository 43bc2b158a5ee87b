/*
 * bench_fleet — how long `smtbench fleet` takes over 1,000 results folders (goal: under 10 s):
 * writes 1,000 SYNTHETIC folders (meta.json + samples.csv as `smtbench run` writes them; 20
 * trials of sibling and non-sibling each, four CPU models) into a temporary folder, then times
 * fleet_load (find, read, analyse, group, pool) and the report (text, fleet.md/json/html).
 * Prints the times; asserts nothing (a timed assertion would fail on a noisy machine).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "report/report.h"

enum { FOLDERS = 1000, TRIALS = 20 };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static int write_folder(const char *root, int k)
{
	char dir[4096], path[4200];
	snprintf(dir, sizeof dir, "%s/node%04d-1", root, k);
	if (mkdir(dir, 0755) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/meta.json", dir);
	FILE *m = fopen(path, "w");
	if (!m)
		return -1;
	fprintf(m, "{\"tool\": \"smtbench\", \"version\": \"%s\", \"host\": \"node%04d\", "
	        "\"os_kernel\": \"Linux 6.1.0 (synthetic)\", \"cpu_model\": \"Synthetic CPU %d\", "
	        "\"smt_control\": \"on\", \"smt_active\": \"1\", \"status\": \"complete\", "
	        "\"trials_done\": %d, \"settings\": {\"placements\": [\"non-sibling\", \"sibling\"]}, "
	        "\"workloads\": {\"a\": {\"name\": \"nop\", \"argv\": [\"nop\", \"1000000\"]}, "
	        "\"b\": null}}\n", SMTBENCH_VERSION, k, k % 4, 2 * TRIALS);
	fclose(m);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *c = fopen(path, "w");
	if (!c)
		return -1;
	fputs("trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,utime_s,"
	      "stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,loadavg_1m,"
	      "started_utc\n", c);
	uint64_t s = (uint64_t)k * 7919;
	double ratio = 1.2 + 0.05 * (k % 4) + 0.01 * (uniform(&s) - 0.5);
	for (int t = 0; t < 2 * TRIALS; t++) {
		const char *pl = t % 2 ? "non-sibling" : "sibling";
		for (int p = 0; p < 2; p++)
			fprintf(c, "%d,%d,0,%s,%d,a,%d,nop,ok,0,,%.6f,0.0,,,,,,,,,,\n", t, t / 2, pl, p, p,
			        0.1 * (t % 2 ? 1 : ratio) * (1 + 0.01 * (uniform(&s) - 0.5)));
	}
	return fclose(c);
}

static void remove_tree(const char *root)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_fleet: could not remove %s\n", root);
}

int main(void)
{
	char root[] = "/tmp/smtbench-bench-fleet.XXXXXX";
	if (!mkdtemp(root))
		return 1;
	for (int k = 0; k < FOLDERS; k++)
		if (write_folder(root, k) != 0) {
			fprintf(stderr, "bench_fleet: cannot write the synthetic folders under %s\n", root);
			remove_tree(root);
			return 1;
		}
	char err[512], out[4200];
	char *dirs[] = { root };
	double t0 = now_s(), c0 = cpu_s();
	struct fleet *f = fleet_load(dirs, 1, err, sizeof err);
	double t1 = now_s();
	snprintf(out, sizeof out, "%s/report", root);
	FILE *devnull = fopen("/dev/null", "w");
	struct report *r = f ? fleet_report(f) : NULL;
	int rc = r && devnull && report_print(r, devnull) == 0 && mkdir(out, 0755) == 0
	         && report_write(r, out, err, sizeof err) == 0 ? 0 : 1;
	report_free(&r);
	double t2 = now_s(), c2 = cpu_s();
	if (rc == 0)
		printf("bench_fleet: %d folders (%zu nodes in %zu groups): loaded and pooled in %.2f s, "
		       "reported (text, fleet.md/json/html) in %.2f s; total %.2f s wall, %.2f s CPU "
		       "over all threads (goal: under 10 s wall)\n",
		       FOLDERS, f->host_count, f->group_count, t1 - t0, t2 - t1, t2 - t0, c2 - c0);
	else
		fprintf(stderr, "bench_fleet: %s\n", f ? err : "fleet_load failed");
	if (devnull)
		fclose(devnull);
	fleet_free(&f);
	remove_tree(root);
	return rc;
}
