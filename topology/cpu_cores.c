/*
 * cpu_cores.c — which core each CPU of the machine belongs to, whatever this process may use:
 * `smtbench threads` relates CPUs that other processes' threads ran on, which need not be in
 * this process's affinity mask, so it cannot use the usable-PU model of topology.c.
 */
#include "topology/internal.h"

int topo_cpu_core(const struct topo *t, int cpu)
{
	hwloc_obj_t pu = cpu < 0 ? NULL : hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu);
	hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
	return core ? (int)core->logical_index : -1;
}

int topo_core_count(const struct topo *t)
{
	int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_CORE);
	return n > 0 ? n : 0;
}

int topo_core_cpus(const struct topo *t, int core, int *out, int max)
{
	hwloc_obj_t obj = core < 0 ? NULL : hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_CORE,
	                                                          (unsigned)core);
	if (!obj)
		return 0;
	int n = 0;
	unsigned cpu; /* the cpuset's bits are the PUs' OS indexes, ascending */
	hwloc_bitmap_foreach_begin(cpu, obj->cpuset) {
		if (n < max)
			out[n] = (int)cpu;
		n++;
	} hwloc_bitmap_foreach_end();
	return n;
}
