#include "runner/cpustat.h"

#include "common/fileio.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double cpustat_tick_s(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	return 1.0 / (double)(hz > 0 ? hz : 100);
}

/* One "cpuN v1 v2 ..." line into ticks; -1 when it has fewer than 8 numbers. */
static int parse_cpu_line(const char *rest, struct cpustat *t)
{
	/* user nice system idle iowait irq softirq steal */
	unsigned long long v[8];
	if (sscanf(rest, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	           &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	t->steal = v[7];
	return 0;
}

int cpustat_read(const char *path, const int *pus, int npus, struct cpustat *out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	*out = (struct cpustat){ 0, 0 };
	cpu_set_t wanted; /* a PU named twice counts once */
	CPU_ZERO(&wanted);
	for (int i = 0; i < npus; i++)
		CPU_SET(pus[i], &wanted);
	int rc = 0;
	char *line = NULL;
	size_t cap = 0;
	while (CPU_COUNT(&wanted) > 0 && fileio_read_line(f, &line, &cap, 1 << 20) > 0) {
		if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
			continue;
		char *end;
		long pu = strtol(line + 3, &end, 10);
		if (pu >= CPU_SETSIZE || !CPU_ISSET(pu, &wanted))
			continue;
		struct cpustat t;
		if (parse_cpu_line(end, &t) != 0) {
			rc = -1;
			break;
		}
		out->busy += t.busy;
		out->steal += t.steal;
		CPU_CLR(pu, &wanted);
	}
	free(line);
	fclose(f);
	return rc == 0 && CPU_COUNT(&wanted) == 0 ? 0 : -1;
}
