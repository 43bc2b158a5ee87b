/*
 * cpu_model.h — the one rule that decides which string names a machine's CPU model.
 *
 * Two sources name it, and on one machine they can differ (a hypervisor may give CPUID a brand
 * string that the guest kernel's /proc/cpuinfo does not show, or the other way round):
 *   - /proc/cpuinfo's "model name": the kernel's record, the string `lscpu` shows;
 *   - hwloc's CPUModel info attribute (root or first Package that has one): read by hwloc's own
 *     backend (CPUID, /proc/cpuinfo or the device tree), and the only one an XML export carries.
 * `topo`, meta.json's cpu_model, every report and fleet's grouping all take the string from
 * here, so that one machine has one name everywhere and one cluster forms one fleet group.
 * Needs no hwloc, so the report and fleet layers use it on meta.json too.
 */
#ifndef SMTBENCH_COMMON_CPU_MODEL_H
#define SMTBENCH_COMMON_CPU_MODEL_H

#include <stddef.h>

#include <jansson.h>

/* Room for a model string (the kernel's model name is at most 48 bytes of CPUID brand). */
#define CPU_MODEL_LEN 160

/*
 * The model to show and to group by: /proc/cpuinfo's when it names one, else hwloc's; leading
 * and trailing blanks dropped and each run of spaces and tabs inside made one space (old x86
 * brand strings pad with runs of spaces, and sources pad differently). "" when neither names
 * one. Either source may be NULL or "". Writes into out (truncated to out_size bytes) and
 * returns out.
 */
char *cpu_model_choose(const char *proc_cpuinfo, const char *hwloc, char *out, size_t out_size);

/*
 * The same rule on a results folder's meta.json, for folders of every age: on its
 * cpu_model_sources ("proc_cpuinfo" and "hwloc", written since the rule was made) where they
 * name a model, else on its cpu_model (older folders: the runner stored /proc/cpuinfo's string
 * there, hwloc's only where /proc had none, which is this rule). A new string the caller frees
 * (out of memory exits: common/alloc.h); "" when meta.json names no model.
 */
char *cpu_model_of_meta(const json_t *meta);

#endif
