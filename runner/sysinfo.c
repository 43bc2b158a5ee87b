#include "runner/sysinfo.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* First line of a small /sys or /proc file, without its newline; "" when unreadable. */
static void read_first_line(const char *path, char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	else
		out[0] = '\0';
	fclose(f);
}

static void read_cpu_model(char *out, size_t len)
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

void sysinfo_read(struct sysinfo_facts *out)
{
	memset(out, 0, sizeof *out);
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(out->host, sizeof out->host, "%s", u.nodename);
		snprintf(out->os_kernel, sizeof out->os_kernel, "%s %s %s", u.sysname, u.release,
		         u.version);
	}
	read_cpu_model(out->cpu_model, sizeof out->cpu_model);
	read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", out->governor,
	                sizeof out->governor);
	read_first_line("/sys/devices/system/cpu/smt/control", out->smt_control,
	                sizeof out->smt_control);
	read_first_line("/sys/devices/system/cpu/smt/active", out->smt_active,
	                sizeof out->smt_active);
}
