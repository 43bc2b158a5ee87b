/*
 * machine.c — facts about this machine from /proc and /sys: host, kernel, CPU model, frequency
 * governor, SMT control, and a cgroup CPU quota. topology.c reads the tree; this file the rest.
 */
#include "topology/internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/fileio.h"

void topo_read_proc_cpu_model(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		const char *colon = strchr(line, ':');
		if (!colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		snprintf(out, len, "%s", colon);
		out[strcspn(out, "\n")] = '\0';
		break;
	}
	fclose(f);
}

void topo_machine_read(struct topo_machine *out)
{
	memset(out, 0, sizeof *out);
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(out->host, sizeof out->host, "%s", u.nodename);
		snprintf(out->os_kernel, sizeof out->os_kernel, "%s %s %s", u.sysname, u.release,
		         u.version);
	}
	fileio_read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	                       out->governor, sizeof out->governor);
	fileio_read_first_line(TOPO_SMT_CONTROL_PATH, out->smt_control, sizeof out->smt_control);
	fileio_read_first_line("/sys/devices/system/cpu/smt/active", out->smt_active,
	                       sizeof out->smt_active);
}

/* Reads a cgroup limit file: v2 "QUOTA PERIOD" or "max PERIOD"; v1 a lone number (-1: none). */
static bool read_numbers(const char *path, char *first, size_t len, double *second)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char format[32];
	snprintf(format, sizeof format, "%%%zus %%lf", len - 1);
	*second = 0;
	int n = fscanf(f, format, first, second);
	fclose(f);
	return n >= 1;
}

/* Keeps the tightest of the limits seen so far. */
static void consider(struct topo_cpu_quota *out, double cpus, const char *source)
{
	if (cpus > 0 && (out->cpus == 0 || cpus < out->cpus)) {
		out->cpus = cpus;
		snprintf(out->source, sizeof out->source, "%s", source);
	}
}

/* Walks from the process's cgroup directory up to the mount point, reading each level's limit. */
static void walk_up(const char *mount, const char *cgroup, bool v2, struct topo_cpu_quota *out)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s%s", mount, strcmp(cgroup, "/") ? cgroup : "");
	size_t mount_len = strlen(mount);
	for (;;) {
		char path[4200], quota[32];
		double period = 0;
		if (v2) {
			snprintf(path, sizeof path, "%s/cpu.max", dir);
			if (read_numbers(path, quota, sizeof quota, &period) && strcmp(quota, "max") != 0
			    && period > 0)
				consider(out, strtod(quota, NULL) / period, path);
		} else {
			char period_path[4200], period_text[32];
			snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
			snprintf(period_path, sizeof period_path, "%s/cpu.cfs_period_us", dir);
			double unused;
			if (read_numbers(path, quota, sizeof quota, &unused)
			    && read_numbers(period_path, period_text, sizeof period_text, &unused)) {
				double q = strtod(quota, NULL), p = strtod(period_text, NULL);
				if (q > 0 && p > 0)
					consider(out, q / p, path);
			}
		}
		char *slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < mount_len)
			break;
		*slash = '\0';
	}
}

/* The cgroup path of this process for v2 ("0::PATH") or for the v1 hierarchy holding "cpu". */
static bool cgroup_path(const char *proc_cgroup, bool v2, char *out, size_t len)
{
	FILE *f = fopen(proc_cgroup, "r");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *controllers = strchr(line, ':');
		char *path = controllers ? strchr(controllers + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		controllers++;
		if (v2) {
			found = !strncmp(line, "0", 1) && !*controllers;
		} else {
			for (char *save = NULL, *c = strtok_r(controllers, ",", &save); c && !found;
			     c = strtok_r(NULL, ",", &save))
				found = !strcmp(c, "cpu");
		}
		if (found)
			snprintf(out, len, "%s", path);
	}
	fclose(f);
	return found;
}

void topo_cpu_quota_from(const char *mountinfo, const char *proc_cgroup, const char *root,
                            struct topo_cpu_quota *out)
{
	memset(out, 0, sizeof *out);
	FILE *f = fopen(mountinfo, "r");
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS */
		char mount_point[1024];
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mount_point) != 1)
			continue;
		const char *dash = strstr(line, " - ");
		if (!dash)
			continue;
		char fstype[32], superopts[512] = "";
		if (sscanf(dash + 3, "%31s %*s %511s", fstype, superopts) < 1)
			continue;
		bool v2 = !strcmp(fstype, "cgroup2");
		bool v1_cpu = false;
		if (!strcmp(fstype, "cgroup"))
			for (char *save = NULL, *o = strtok_r(superopts, ",", &save); o;
			     o = strtok_r(NULL, ",", &save))
				v1_cpu |= !strcmp(o, "cpu");
		if (!v2 && !v1_cpu)
			continue;
		char path[2048], mount[2048];
		if (!cgroup_path(proc_cgroup, v2, path, sizeof path))
			continue;
		snprintf(mount, sizeof mount, "%s%s", root, mount_point);
		walk_up(mount, path, v2, out);
	}
	fclose(f);
}

void topo_cpu_quota(struct topo_cpu_quota *out)
{
	topo_cpu_quota_from("/proc/self/mountinfo", "/proc/self/cgroup", "", out);
}
