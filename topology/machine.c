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

#include "common/fileio.h"

/* The longest line of /proc or a cgroup file read here; a longer one ends the reading. */
#define LINE_MAX_BYTES (1 << 20)

void topo_read_cpuinfo(const char *field, char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL, *colon = NULL;
	size_t cap = 0;
	while (f && !colon && fileio_read_line(f, &line, &cap, LINE_MAX_BYTES) > 0)
		if (!strncmp(line, field, strlen(field)) && (colon = strchr(line, ':')))
			snprintf(out, len, "%.*s", (int)strcspn(colon + 1 + strspn(colon + 1, " \t"), "\n"),
			         colon + 1 + strspn(colon + 1, " \t"));
	free(line);
	if (f)
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

/* The numbers a cgroup limit file starts with: v2 "QUOTA PERIOD" ("max PERIOD", no limit,
 * reads none); v1 a lone number (-1: none). How many were read. */
static int read_numbers(const char *path, double *first, double *second)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int n = fscanf(f, "%lf %lf", first, second);
	fclose(f);
	return n > 0 ? n : 0;
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
		char path[4200], period_path[4200];
		double quota = 0, period = 0, unused;
		snprintf(path, sizeof path, "%s/%s", dir, v2 ? "cpu.max" : "cpu.cfs_quota_us");
		snprintf(period_path, sizeof period_path, "%s/cpu.cfs_period_us", dir);
		bool limited = v2 ? read_numbers(path, &quota, &period) == 2
		                  : read_numbers(path, &quota, &unused)
		                    && read_numbers(period_path, &period, &unused);
		if (limited && period > 0)
			consider(out, quota / period, path);
		char *slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < mount_len)
			break;
		*slash = '\0';
	}
}

/* The cgroup path of this process for v2 ("0::PATH") or for the v1 hierarchy holding "cpu". */
static bool cgroup_path(const char *proc_cgroup, bool v2, char *out, size_t len)
{
	FILE *f = fopen(proc_cgroup, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	while (f && !found && fileio_read_line(f, &line, &cap, LINE_MAX_BYTES) > 0) {
		line[strcspn(line, "\n")] = '\0';
		char *controllers = strchr(line, ':');
		char *path = controllers ? strchr(controllers + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		controllers++;
		if (v2)
			found = !strncmp(line, "0", 1) && !*controllers;
		for (char *save = NULL, *c = v2 ? NULL : strtok_r(controllers, ",", &save); c && !found;
		     c = strtok_r(NULL, ",", &save))
			found = !strcmp(c, "cpu");
		if (found)
			snprintf(out, len, "%s", path);
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* One line of mountinfo (ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE
 * SOURCE SUPEROPTIONS): its mount point when it mounts cgroup2, or cgroup v1 with "cpu". */
static bool cgroup_mount(char *line, char *mount_point, size_t len, bool *v2)
{
	char format[32], fstype[32];
	snprintf(format, sizeof format, "%%*s %%*s %%*s %%*s %%%zus", len - 1);
	const char *dash = strstr(line, " - ");
	char *superopts = dash ? strchr(dash + 3 + strcspn(dash + 3, " ") + 1, ' ') : NULL;
	if (sscanf(line, format, mount_point) != 1 || !dash
	    || sscanf(dash + 3, "%31s", fstype) != 1)
		return false;
	*v2 = !strcmp(fstype, "cgroup2");
	bool v1_cpu = false;
	for (char *save = NULL, *o = strcmp(fstype, "cgroup") || !superopts ? NULL
	     : strtok_r(superopts + 1, ",\n", &save); o; o = strtok_r(NULL, ",\n", &save))
		v1_cpu |= !strcmp(o, "cpu");
	return *v2 || v1_cpu;
}

void topo_cpu_quota_from(const char *mountinfo, const char *proc_cgroup, const char *root,
                            struct topo_cpu_quota *out)
{
	memset(out, 0, sizeof *out);
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL, mount_point[1024], path[2048], mount[2048];
	size_t cap = 0;
	bool v2;
	while (f && fileio_read_line(f, &line, &cap, LINE_MAX_BYTES) > 0) {
		if (!cgroup_mount(line, mount_point, sizeof mount_point, &v2)
		    || !cgroup_path(proc_cgroup, v2, path, sizeof path))
			continue;
		snprintf(mount, sizeof mount, "%s%s", root, mount_point);
		walk_up(mount, path, v2, out);
	}
	free(line);
	if (f)
		fclose(f);
}

void topo_cpu_quota(struct topo_cpu_quota *out)
{
	topo_cpu_quota_from("/proc/self/mountinfo", "/proc/self/cgroup", "", out);
}
