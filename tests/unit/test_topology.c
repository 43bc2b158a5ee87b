/*
 * test_topology.c — pair choice, "shares", reasons and relations on every fixture topology, on
 * synthetic strings (indexes= variants, single core, single PU, caches) and on restricted
 * cpusets; then this system, checked against what /sys and /proc say independently.
 *
 * The expected pairs were worked out by hand from `lstopo-no-graphics -i FILE --of console`
 * and checked with `hwloc-calc -i FILE --physical-input -I core|l3cache|package pu:N`, by the
 * rules of docs/DESIGN.md "Choosing pairs" (siblings from Core cpusets, PU 0's core avoided when
 * another core does as well, non-sibling sharing the deepest level, same CPU kind).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <hwloc.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/harness.h"
#include "topology/topology.h"

/* One placement's expected answer: pus {-1, -1} means unavailable, with `reason` a substring
 * of the reason. For solo only pus[0] matters. */
struct want_pair {
	int a, b;
	const char *shares_or_reason;
	int core; /* sibling only: logical index of the core, -1 otherwise */
};

struct want_topo {
	const char *spec; /* fixture file name (under topologies/) or synthetic string */
	bool is_file;
	int pus, cores, packages, max_tpc;
	const char *smt;
	bool vm;
	int disallowed;
	int solo;
	struct want_pair sibling, non_sibling, cross;
};

static char fixture_dir[1024];

static const char *fixture_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/topologies/%s", fixture_dir, name);
	return buf;
}

static void check_pair(const char *spec, const struct topo *t, enum placement p,
                       const struct want_pair *want)
{
	struct topo_pair got;
	int rc = topo_choose(t, p, &got);
	const char *name = placement_name(p);
	CHECK_INT(got.placement, p, "placement field is filled");
	if (want->a < 0) {
		CHECK(rc == -1 && !got.available, "%s: %s unavailable", spec, name);
		CHECK(strstr(got.reason, want->shares_or_reason) != NULL,
		      "%s: %s reason \"%s\" mentions \"%s\"", spec, name, got.reason,
		      want->shares_or_reason);
		CHECK(strchr(got.reason, '\n') == NULL, "%s: %s reason is one line", spec, name);
		return;
	}
	CHECK(rc == 0 && got.available, "%s: %s available (%s)", spec, name, got.reason);
	CHECK(got.pus[0] == want->a && got.pus[1] == want->b, "%s: %s pair: got %d,%d, want %d,%d",
	      spec, name, got.pus[0], got.pus[1], want->a, want->b);
	CHECK_STR(got.shares, want->shares_or_reason, "shares");
	CHECK_INT(got.core, want->core, "core of the pair");
}

/* Independent of the expectations: whatever was chosen must hold in the hwloc tree itself. */
static void check_pairs_in_tree(const struct want_topo *w, const struct topo *t,
                                hwloc_topology_t hw)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(hw);
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		struct topo_pair pair;
		if (topo_choose(t, (enum placement)p, &pair) < 0)
			continue;
		hwloc_obj_t obj[2] = { NULL, NULL };
		for (int i = 0; i < pair.npus; i++) {
			obj[i] = hwloc_get_pu_obj_by_os_index(hw, (unsigned)pair.pus[i]);
			CHECK(obj[i] && hwloc_bitmap_isset(allowed, (unsigned)pair.pus[i]),
			      "%s: %s uses PU %d, which exists and is allowed", w->spec,
			      placement_name((enum placement)p), pair.pus[i]);
		}
		if (pair.npus < 2 || !obj[0] || !obj[1])
			continue;
		hwloc_obj_t core[2], pack[2];
		for (int i = 0; i < 2; i++) {
			core[i] = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_CORE, obj[i]);
			pack[i] = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_PACKAGE, obj[i]);
		}
		if (p == PLACEMENT_SIBLING)
			CHECK(core[0] && core[0] == core[1] && pair.pus[0] != pair.pus[1],
			      "%s: sibling PUs %d,%d are two PUs of one Core", w->spec, pair.pus[0],
			      pair.pus[1]);
		if (p == PLACEMENT_NON_SIBLING || p == PLACEMENT_CROSS_PACKAGE)
			CHECK(pair.pus[0] != pair.pus[1] && (!core[0] || core[0] != core[1]),
			      "%s: %s PUs %d,%d are not on one Core", w->spec,
			      placement_name((enum placement)p), pair.pus[0], pair.pus[1]);
		if (p == PLACEMENT_CROSS_PACKAGE)
			CHECK(pack[0] && pack[1] && pack[0] != pack[1],
			      "%s: cross-package PUs are in different packages", w->spec);
		/* The user-facing relation of a chosen pair agrees with the choice. */
		struct topo_relation rel;
		char err[ERR_LEN] = "";
		int rc = topo_relate(t, pair.pus, &rel, err, sizeof err);
		CHECK(rc == 0, "%s: relate %d,%d works (%s)", w->spec, pair.pus[0], pair.pus[1], err);
		if (rc == 0) {
			CHECK_STR(rel.shares, pair.shares, "relate gives the pair's shares");
			bool ok = rel.relation == (enum placement)p ||
			          (p == PLACEMENT_NON_SIBLING && rel.relation == PLACEMENT_CROSS_PACKAGE);
			CHECK(ok, "%s: relate %d,%d says %s for %s", w->spec, pair.pus[0], pair.pus[1],
			      placement_name(rel.relation), placement_name((enum placement)p));
		}
	}
}

static hwloc_topology_t load_hwloc(const struct want_topo *w, const char *path)
{
	hwloc_topology_t hw;
	hwloc_topology_init(&hw);
	hwloc_topology_set_flags(hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (w->is_file)
		hwloc_topology_set_xml(hw, path);
	else
		hwloc_topology_set_synthetic(hw, w->spec);
	hwloc_topology_load(hw);
	return hw;
}

static void check_topology(const struct want_topo *w)
{
	char path[1200];
	const char *spec = w->is_file ? fixture_path(w->spec, path, sizeof path) : w->spec;
	char err[ERR_LEN] = "";
	struct topo *t = topo_load(spec, err, sizeof err);
	if (!CHECK(t != NULL, "%s loads (%s)", w->spec, err))
		return;
	struct topo_info info;
	topo_get_info(t, &info);
	CHECK_STR(info.source_name, w->is_file ? "xml" : "synthetic", w->spec);
	CHECK_INT(info.source, w->is_file ? TOPO_XML : TOPO_SYNTHETIC, "source");
	CHECK_INT(info.pus, w->pus, "usable PUs");
	CHECK_INT(info.cores, w->cores, "usable cores");
	CHECK_INT(info.packages, w->packages, "packages with usable PUs");
	CHECK_INT(info.max_threads_per_core, w->max_tpc, "max threads per core");
	CHECK_STR(info.smt, w->smt, "SMT state (inferred)");
	CHECK(info.virtual_machine == w->vm, "%s: virtual machine %d", w->spec, w->vm);
	CHECK_INT(info.disallowed_pus, w->disallowed, "PUs present but not usable");

	struct want_pair solo = { w->solo, w->solo, "", -1 };
	struct want_pair same = { w->solo, w->solo, "PU", -1 };
	if (w->solo < 0)
		solo = same = (struct want_pair){ -1, -1, "no usable PU", -1 };
	check_pair(w->spec, t, PLACEMENT_SOLO, &solo);
	check_pair(w->spec, t, PLACEMENT_SAME_PU, &same);
	check_pair(w->spec, t, PLACEMENT_SIBLING, &w->sibling);
	check_pair(w->spec, t, PLACEMENT_NON_SIBLING, &w->non_sibling);
	check_pair(w->spec, t, PLACEMENT_CROSS_PACKAGE, &w->cross);

	struct topo_pair s, n;
	topo_choose(t, PLACEMENT_SOLO, &s);
	topo_choose(t, PLACEMENT_NON_SIBLING, &n);
	CHECK_INT(s.npus, w->solo < 0 ? 0 : 1, "solo has one PU");
	if (n.available)
		CHECK_INT(n.pus[0], s.pus[0], "non-sibling keeps solo's (the anchor's) PU");

	hwloc_topology_t hw = load_hwloc(w, spec);
	check_pairs_in_tree(w, t, hw);
	hwloc_topology_destroy(hw);
	topo_free(&t);
	CHECK(t == NULL, "topo_free sets the pointer to NULL");
}

#define UNAVAILABLE(reason) { -1, -1, reason, -1 }
#define PAIR(a, b, shares) { a, b, shares, -1 }
#define SIB(a, b, core) { a, b, "Core", core }

static const struct want_topo fixtures[] = {
	/* 6 of 32 PUs allowed (0-5), all in package 0: no SMT on this Opteron. */
	{ "amd-4s2n4c-cgroup2-disallowed.xml", true, 6, 6, 1, 1, "off", false, 26, 1,
	  UNAVAILABLE("no SMT"), PAIR(1, 2, "L3Cache"), UNAVAILABLE("only one package") },
	/* Core L#1 = PUs 1,49; PU 2 is in the same CCX (L3 L#0); package 1 starts at PU 24. */
	{ "amd-zen1-2x7451.xml", true, 96, 48, 2, 2, "on", false, 0, 1,
	  SIB(1, 49, 1), PAIR(1, 2, "L3Cache"), PAIR(1, 24, "Machine") },
	{ "amd-zen3-2x7763-smt-off.xml", true, 128, 128, 2, 1, "off", false, 0, 1,
	  UNAVAILABLE("no SMT"), PAIR(1, 2, "L3Cache"), PAIR(1, 64, "Machine") },
	/* Only core L#1 (PUs 4,12) kept both threads; its only L3 neighbour is PU 0's core. */
	{ "intel-4s2c2t-offlines.xml", true, 7, 6, 4, 2, "on", false, 9, 4,
	  SIB(4, 12, 1), PAIR(4, 0, "L3Cache"), PAIR(4, 1, "Machine") },
	/* Siblings N and N+8; package 1 = cores {1,9} and {5,13}, away from PU 0. */
	{ "intel-4s2c2t.xml", true, 16, 8, 4, 2, "on", false, 0, 1,
	  SIB(1, 9, 2), PAIR(1, 5, "L3Cache"), PAIR(1, 4, "Machine") },
	/* P-cores 0-11 (SMT2, own L2), E-cores 12-19: both pairs on P-cores. */
	{ "intel-raptorlake-1370p-hybrid.xml", true, 20, 14, 1, 2, "on", false, 0, 2,
	  SIB(2, 3, 1), PAIR(2, 4, "L3Cache"), UNAVAILABLE("only one package") },
	/* Interleaved packages: core L#1 = PUs 2,38; package 1 holds the odd PUs. */
	{ "intel-skylake-2x6140.xml", true, 72, 36, 2, 2, "on", false, 0, 2,
	  SIB(2, 38, 1), PAIR(2, 4, "L3Cache"), PAIR(2, 1, "Machine") },
	/* No Core objects: PUs 0,6 / 12,18 / 24,30 / 36,42 each in their own L3, two L3 per
	 * package; PUs in different L3s are surely different cores. */
	{ "no-core-level.xml", true, 8, 0, 4, 0, "unknown", false, 0, 12,
	  UNAVAILABLE("no Core level"), PAIR(12, 18, "Package"), PAIR(12, 6, "Group") },
	/* SMT4, one core per package, 8 packages per NUMA node (Group1). */
	{ "power7-8n8s4t-smt4.xml", true, 256, 64, 64, 4, "on", false, 0, 4,
	  SIB(4, 5, 1), PAIR(4, 8, "NUMANode"), PAIR(4, 8, "NUMANode") },
	{ "qemu-2p3d3c2t.xml", true, 36, 18, 2, 2, "on", true, 0, 2,
	  SIB(2, 3, 1), PAIR(2, 4, "L3Cache"), PAIR(2, 18, "Machine") },
};

static const struct want_topo synthetics[] = {
	{ "pack:2 core:4 pu:2", false, 16, 8, 2, 2, "on", false, 0, 2,
	  SIB(2, 3, 1), PAIR(2, 4, "Package"), PAIR(2, 8, "Machine") },
	/* Siblings N and N+4. */
	{ "core:4 pu:2(indexes=core)", false, 8, 4, 0, 2, "on", false, 0, 1,
	  SIB(1, 5, 1), PAIR(1, 2, "Machine"), UNAVAILABLE("no Package level") },
	/* Package 0 = cores {0,4} {2,6}, package 1 = cores {1,5} {3,7}. */
	{ "pack:2 core:2 pu:2(indexes=pack:core)", false, 8, 4, 2, 2, "on", false, 0, 1,
	  SIB(1, 5, 2), PAIR(1, 3, "Package"), PAIR(1, 2, "Machine") },
	/* Package 0 = cores {0,4} {1,5}, package 1 = cores {2,6} {3,7}. */
	{ "pack:2 core:2 pu:2(indexes=core:pack)", false, 8, 4, 2, 2, "on", false, 0, 2,
	  SIB(2, 6, 2), PAIR(2, 3, "Package"), PAIR(2, 1, "Machine") },
	/* One core: its pair avoids PU 0 as first PU. */
	{ "core:1 pu:2", false, 2, 1, 0, 2, "on", false, 0, 1,
	  SIB(1, 0, 0), UNAVAILABLE("only one usable core"), UNAVAILABLE("no Package level") },
	{ "core:1 pu:1", false, 1, 1, 0, 1, "off", false, 0, 0,
	  UNAVAILABLE("no SMT"), UNAVAILABLE("only one usable core"),
	  UNAVAILABLE("no Package level") },
	{ "pu:1", false, 1, 0, 0, 0, "unknown", false, 0, 0,
	  UNAVAILABLE("no Core level"), UNAVAILABLE("no Core level"),
	  UNAVAILABLE("no Package level") },
	/* Two PUs without a Core level and nothing that separates them: no pair invented. */
	{ "pu:2", false, 2, 0, 0, 0, "unknown", false, 0, 1,
	  UNAVAILABLE("no Core level"), UNAVAILABLE("known to be on different cores"),
	  UNAVAILABLE("no Package level") },
	{ "pack:2 l3:1 core:3 pu:1", false, 6, 6, 2, 1, "off", false, 0, 1,
	  UNAVAILABLE("no SMT"), PAIR(1, 2, "L3Cache"), PAIR(1, 3, "Machine") },
	/* NUMA nodes hang from Groups: the pair is reported as sharing the NUMA node. */
	{ "pack:1 numa:2 core:2 pu:1", false, 4, 4, 1, 1, "off", false, 0, 2,
	  UNAVAILABLE("no SMT"), PAIR(2, 3, "NUMANode"), UNAVAILABLE("only one package") },
	{ "pack:2 core:2 pu:4", false, 16, 4, 2, 4, "on", false, 0, 8,
	  SIB(8, 9, 2), PAIR(8, 12, "Package"), PAIR(8, 4, "Machine") },
	/* Caches shared by pairs of cores: non-sibling stays in one L2. */
	{ "pack:2 l2:2 core:2 pu:2", false, 16, 8, 2, 2, "on", false, 0, 4,
	  SIB(4, 5, 2), PAIR(4, 6, "L2Cache"), PAIR(4, 8, "Machine") },
};

/* Writes an XML of `synthetic` with only `allowed` usable (hwloc_topology_allow) or with the
 * tree restricted to it (hwloc_topology_restrict); returns 0 on success. */
static int write_restricted_xml(const char *synthetic, const char *cpulist, bool restrict_tree,
                                const char *path)
{
	hwloc_topology_t hw;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int rc = -1;
	hwloc_topology_init(&hw);
	hwloc_topology_set_flags(hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (hwloc_topology_set_synthetic(hw, synthetic) < 0 || hwloc_topology_load(hw) < 0 ||
	    hwloc_bitmap_list_sscanf(set, cpulist) < 0)
		goto out;
	if (restrict_tree ? hwloc_topology_restrict(hw, set, 0)
	                  : hwloc_topology_allow(hw, set, NULL, HWLOC_ALLOW_FLAG_CUSTOM))
		goto out;
	rc = hwloc_topology_export_xml(hw, path, 0);
out:
	hwloc_bitmap_free(set);
	hwloc_topology_destroy(hw);
	return rc;
}

struct want_restricted {
	const char *synthetic, *cpus;
	bool restrict_tree;
	int pus, cores, packages, disallowed, solo;
	struct want_pair sibling, non_sibling, cross;
	int bad_cpu;          /* a CPU topo_relate must refuse */
	const char *bad_text; /* ... with this in its message */
};

static const struct want_restricted restricted[] = {
	/* cores {0,1} {2,3} | {4,5} {6,7}; allowed 2,4,5,6: only core L#2 keeps two PUs. */
	{ "pack:2 core:2 pu:2", "2,4-6", false, 4, 3, 2, 4, 4,
	  SIB(4, 5, 2), PAIR(4, 6, "Package"), PAIR(4, 2, "Machine"), 3, "allowed" },
	/* The tree cut down to PUs 1-3: PU 0 and package 1 no longer exist. */
	{ "pack:2 core:2 pu:2", "1-3", true, 3, 2, 1, 0, 2,
	  SIB(2, 3, 1), PAIR(2, 1, "Package"), UNAVAILABLE("only one package"), 0, "does not exist" },
	/* Siblings present but never both allowed: no sibling pair, and the reason says why. */
	{ "pack:2 core:2 pu:2", "0,2,4,6", false, 4, 4, 2, 4, 4,
	  UNAVAILABLE("no core has two usable PUs: 4 PUs are outside the allowed cpuset (cgroup)"),
	  PAIR(4, 6, "Package"), PAIR(4, 2, "Machine"), 1, "CPU 1" },
	/* A cgroup that allows one CPU. */
	{ "pack:2 core:2 pu:2", "5", false, 1, 1, 1, 7, 5,
	  UNAVAILABLE("no core has two usable PUs: 7 PUs are outside the allowed cpuset (cgroup)"),
	  UNAVAILABLE("only one usable core"),
	  UNAVAILABLE("only one package has usable PUs"), 4, "CPU 4" },
};

static void check_restricted(const struct want_restricted *w)
{
	char path[] = "/tmp/smtbench-test-topo-XXXXXX.xml";
	int fd = mkstemps(path, 4);
	if (!CHECK(fd >= 0, "temporary XML file"))
		return;
	close(fd);
	char what[128];
	snprintf(what, sizeof what, "%s %s {%s}", w->synthetic,
	         w->restrict_tree ? "restricted to" : "allowing", w->cpus);
	if (!CHECK(write_restricted_xml(w->synthetic, w->cpus, w->restrict_tree, path) == 0,
	           "%s: XML written", what)) {
		unlink(path);
		return;
	}
	char err[ERR_LEN] = "";
	struct topo *t = topo_load(path, err, sizeof err);
	unlink(path);
	if (!CHECK(t != NULL, "%s loads (%s)", what, err))
		return;
	struct topo_info info;
	topo_get_info(t, &info);
	CHECK_INT(info.pus, w->pus, what);
	CHECK_INT(info.cores, w->cores, "usable cores");
	CHECK_INT(info.packages, w->packages, "packages with usable PUs");
	CHECK_INT(info.disallowed_pus, w->disallowed, "PUs present but not usable");
	struct want_pair solo = { w->solo, w->solo, "", -1 };
	check_pair(what, t, PLACEMENT_SOLO, &solo);
	check_pair(what, t, PLACEMENT_SIBLING, &w->sibling);
	check_pair(what, t, PLACEMENT_NON_SIBLING, &w->non_sibling);
	check_pair(what, t, PLACEMENT_CROSS_PACKAGE, &w->cross);
	struct topo_relation rel;
	int pair[2] = { w->solo, w->bad_cpu };
	err[0] = '\0';
	CHECK(topo_relate(t, pair, &rel, err, sizeof err) == -1, "%s: CPU %d refused", what, w->bad_cpu);
	CHECK(strstr(err, w->bad_text) != NULL, "%s: message \"%s\" says \"%s\"", what, err,
	      w->bad_text);
	char cpu[32];
	snprintf(cpu, sizeof cpu, "CPU %d", w->bad_cpu);
	CHECK(strstr(err, cpu) != NULL, "message names %s", cpu);
	topo_free(&t);
}

struct want_relation {
	const char *spec; /* fixture file or synthetic */
	bool is_file;
	int a, b;
	int relation;     /* -1: an error whose message contains `shares_or_error` */
	const char *shares_or_error;
	int core;
};

static const struct want_relation relations[] = {
	{ "intel-skylake-2x6140.xml", true, 2, 38, PLACEMENT_SIBLING, "Core", 1 },
	{ "intel-skylake-2x6140.xml", true, 38, 2, PLACEMENT_SIBLING, "Core", 1 },
	{ "intel-skylake-2x6140.xml", true, 2, 4, PLACEMENT_NON_SIBLING, "L3Cache", -1 },
	{ "intel-skylake-2x6140.xml", true, 2, 1, PLACEMENT_CROSS_PACKAGE, "Machine", -1 },
	{ "intel-skylake-2x6140.xml", true, 5, 5, PLACEMENT_SAME_PU, "PU", -1 },
	{ "intel-skylake-2x6140.xml", true, 0, 72, -1, "CPU 72 does not exist", -1 },
	{ "intel-4s2c2t.xml", true, 0, 8, PLACEMENT_SIBLING, "Core", 0 },
	{ "intel-4s2c2t.xml", true, 0, 1, PLACEMENT_CROSS_PACKAGE, "Machine", -1 },
	{ "amd-zen1-2x7451.xml", true, 0, 48, PLACEMENT_SIBLING, "Core", 0 },
	{ "amd-zen1-2x7451.xml", true, 1, 3, PLACEMENT_NON_SIBLING, "NUMANode", -1 },
	{ "amd-zen1-2x7451.xml", true, 1, 8, PLACEMENT_NON_SIBLING, "Package", -1 },
	{ "amd-zen1-2x7451.xml", true, 1, 25, PLACEMENT_CROSS_PACKAGE, "Machine", -1 },
	{ "no-core-level.xml", true, 0, 6, PLACEMENT_NON_SIBLING, "Package", -1 },
	{ "no-core-level.xml", true, 0, 12, PLACEMENT_CROSS_PACKAGE, "Group", -1 },
	{ "no-core-level.xml", true, 6, 6, PLACEMENT_SAME_PU, "PU", -1 },
	{ "no-core-level.xml", true, 0, 1, -1, "CPU 1 does not exist", -1 },
	{ "intel-4s2c2t-offlines.xml", true, 0, 8, -1, "CPU 8 is offline", -1 },
	{ "intel-4s2c2t-offlines.xml", true, 12, 4, PLACEMENT_SIBLING, "Core", 1 },
	{ "amd-4s2n4c-cgroup2-disallowed.xml", true, 6, 0, -1, "CPU 6 may not be used", -1 },
	{ "amd-4s2n4c-cgroup2-disallowed.xml", true, 0, 3, PLACEMENT_NON_SIBLING, "L3Cache", -1 },
	{ "amd-4s2n4c-cgroup2-disallowed.xml", true, 0, 5, PLACEMENT_NON_SIBLING, "Package", -1 },
	{ "intel-raptorlake-1370p-hybrid.xml", true, 12, 13, PLACEMENT_NON_SIBLING, "L2Cache", -1 },
	{ "intel-raptorlake-1370p-hybrid.xml", true, 0, 12, PLACEMENT_NON_SIBLING, "L3Cache", -1 },
	{ "intel-raptorlake-1370p-hybrid.xml", true, 10, 11, PLACEMENT_SIBLING, "Core", 5 },
	{ "qemu-2p3d3c2t.xml", true, 0, 1, PLACEMENT_SIBLING, "Core", 0 },
	{ "qemu-2p3d3c2t.xml", true, 0, 17, PLACEMENT_NON_SIBLING, "Package", -1 },
	{ "qemu-2p3d3c2t.xml", true, 0, 18, PLACEMENT_CROSS_PACKAGE, "Machine", -1 },
	{ "power7-8n8s4t-smt4.xml", true, 0, 3, PLACEMENT_SIBLING, "Core", 0 },
	{ "power7-8n8s4t-smt4.xml", true, 0, 4, PLACEMENT_CROSS_PACKAGE, "NUMANode", -1 },
	{ "power7-8n8s4t-smt4.xml", true, 0, 32, PLACEMENT_CROSS_PACKAGE, "Group", -1 },
	{ "core:4 pu:2(indexes=core)", false, 1, 5, PLACEMENT_SIBLING, "Core", 1 },
	{ "core:4 pu:2(indexes=core)", false, 1, 2, PLACEMENT_NON_SIBLING, "Machine", -1 },
	{ "pu:2", false, 0, 1, -1, "no Core level", -1 },
	{ "pu:2", false, 1000000, 1, -1, "CPU 1000000 does not exist", -1 },
};

static void check_relation(const struct want_relation *w)
{
	char path[1200], err[ERR_LEN] = "";
	struct topo *t = topo_load(w->is_file ? fixture_path(w->spec, path, sizeof path) : w->spec,
	                           err, sizeof err);
	if (!CHECK(t != NULL, "%s loads (%s)", w->spec, err))
		return;
	struct topo_relation rel;
	int pus[2] = { w->a, w->b };
	int rc = topo_relate(t, pus, &rel, err, sizeof err);
	if (w->relation < 0) {
		CHECK(rc == -1, "%s: relate %d,%d refused", w->spec, w->a, w->b);
		CHECK(strstr(err, w->shares_or_error) != NULL, "%s: error \"%s\" says \"%s\"",
		      w->spec, err, w->shares_or_error);
	} else if (CHECK(rc == 0, "%s: relate %d,%d works (%s)", w->spec, w->a, w->b, err)) {
		CHECK((int)rel.relation == w->relation, "%s: %d,%d are %s (got %s)", w->spec, w->a, w->b,
		      placement_name((enum placement)w->relation), placement_name(rel.relation));
		CHECK_STR(rel.shares, w->shares_or_error, "relation shares");
		CHECK_INT(rel.core, w->core, "relation core");
		CHECK(rel.pus[0] == w->a && rel.pus[1] == w->b, "relation keeps the PUs in order");
	}
	topo_free(&t);
}

static void test_placement_names(void)
{
	static const char *const names[] = { "solo", "same-pu", "sibling", "non-sibling",
	                                     "cross-package" };
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		enum placement parsed = PLACEMENT_COUNT;
		CHECK_STR(placement_name((enum placement)p), names[p], "placement_name");
		CHECK(placement_parse(names[p], &parsed) == 0 && parsed == (enum placement)p,
		      "placement_parse(\"%s\")", names[p]);
		CHECK_INT(placement_nprocs((enum placement)p), p == PLACEMENT_SOLO ? 1 : 2, names[p]);
	}
	enum placement parsed;
	CHECK(placement_parse("Sibling", &parsed) == -1, "names are exact: \"Sibling\" refused");
	CHECK(placement_parse("", &parsed) == -1, "empty name refused");
	CHECK(placement_parse("smt", &parsed) == -1, "unknown name refused");
}

static void test_hybrid_kinds(void)
{
	char path[1200], err[ERR_LEN];
	struct topo *t = topo_load(fixture_path("intel-raptorlake-1370p-hybrid.xml", path,
	                                        sizeof path), err, sizeof err);
	if (!CHECK(t != NULL, "hybrid loads"))
		return;
	struct topo_info info;
	topo_get_info(t, &info);
	CHECK_INT(info.nkinds, 2, "hybrid: two CPU kinds");
	CHECK_STR(info.kinds[0].name, "IntelCore", "biggest kind first");
	CHECK_INT(info.kinds[0].cores, 6, "P-cores");
	CHECK_INT(info.kinds[0].pus, 12, "P-core PUs");
	CHECK_INT(info.kinds[0].max_threads_per_core, 2, "P-cores have SMT2");
	CHECK_STR(info.kinds[1].name, "IntelAtom", "E-cores second");
	CHECK_INT(info.kinds[1].cores, 8, "E-cores");
	CHECK_INT(info.kinds[1].pus, 8, "E-core PUs");
	CHECK_INT(info.kinds[1].max_threads_per_core, 1, "E-cores have no SMT");
	CHECK_STR(info.cpu_model, "13th Gen Intel(R) Core(TM) i7-1370P", "CPU model");
	topo_free(&t);

	t = topo_load(fixture_path("amd-zen1-2x7451.xml", path, sizeof path), err, sizeof err);
	topo_get_info(t, &info);
	CHECK_INT(info.nkinds, 1, "ordinary machine: one kind");
	CHECK_INT(info.kinds[0].pus, 96, "the one kind holds every PU");
	CHECK_STR(info.cpu_model, "AMD EPYC 7451 24-Core Processor", "CPU model, trimmed");
	CHECK_STR(info.cpu_model_proc, "", "a loaded topology: this machine's /proc is not asked");
	CHECK_STR(info.cpu_model_hwloc, "AMD EPYC 7451 24-Core Processor",
	          "... so hwloc's CPUModel is the model (the one rule)");
	topo_free(&t);

	t = topo_load(fixture_path("qemu-2p3d3c2t.xml", path, sizeof path), err, sizeof err);
	topo_get_info(t, &info);
	CHECK_STR(info.hypervisor, "QEMU", "qemu fixture: hypervisor named from the CPU model");
	topo_free(&t);
}

/* Pairs within one CPU kind (issue 28 item 3): a core whose PUs are of different kinds (as in
 * hwloc's own fakecpukinds.xml) must not pair a small PU with a big one where a same-kind pair
 * exists; where none exists, the pair says it mixes kinds. */
static void test_pairs_within_one_kind(void)
{
	char path[1200], err[ERR_LEN];
	struct topo *t = topo_load(fixture_path("fake-kinds-within-cores.xml", path, sizeof path),
	                           err, sizeof err);
	if (!CHECK(t != NULL, "kinds within cores: loads (%s)", t ? "" : err))
		return;
	struct topo_info info;
	topo_get_info(t, &info);
	CHECK_INT(info.nkinds, 3, "kinds within cores: three CPU kinds counted PU by PU");
	CHECK_INT(info.mixed_kind_cores, 2, "... both cores mix kinds");
	struct topo_pair non, sib, solo;
	topo_choose(t, PLACEMENT_NON_SIBLING, &non);
	topo_choose(t, PLACEMENT_SIBLING, &sib);
	topo_choose(t, PLACEMENT_SOLO, &solo);
	CHECK(non.available && !non.mixed_kinds && ((non.pus[0] == 1 && non.pus[1] == 0)
	                                            || (non.pus[0] == 0 && non.pus[1] == 1)),
	      "non-sibling stays within one kind: CPUs %d,%d (PUs 0 and 1 are the one same-kind "
	      "pair on two cores)", non.pus[0], non.pus[1]);
	CHECK_STR(non.kind, "SmallCore", "... and names its kind");
	CHECK(solo.available && solo.pus[0] == non.pus[0] && !strcmp(solo.kind, "SmallCore"),
	      "the baseline is on the pairs' kind (CPU %d)", solo.pus[0]);
	CHECK(sib.available && sib.mixed_kinds, "no sibling pair is within one kind: the sibling "
	      "pair %d,%d says it mixes kinds", sib.pus[0], sib.pus[1]);
	struct topo_relation rel;
	struct topo_pair given;
	CHECK(topo_relate(t, (const int[2]){ 1, 2 }, &rel, err, sizeof err) == 0 && rel.mixed_kinds
	      && topo_pair_from_cpus(&rel, PLACEMENT_NON_SIBLING, &given, err, sizeof err) == 0
	      && given.mixed_kinds && !strcmp(given.kind, "SmallCore"),
	      "a pair the user gives (--pair 1,2) that mixes kinds says so");
	CHECK(topo_relate(t, (const int[2]){ 1, 0 }, &rel, err, sizeof err) == 0
	      && !rel.mixed_kinds, "... and one within a kind does not");
	topo_free(&t);

	t = topo_load(fixture_path("intel-raptorlake-1370p-hybrid.xml", path, sizeof path), err,
	              sizeof err);
	if (!CHECK(t != NULL, "hybrid loads"))
		return;
	for (int p = 0; p < PLACEMENT_COUNT; p++) {
		struct topo_pair pair;
		if (topo_choose(t, (enum placement)p, &pair) < 0)
			continue;
		CHECK(!pair.mixed_kinds && !strcmp(pair.kind, "IntelCore"), "hybrid: %s on the "
		      "performance cores' kind (IntelCore), not mixed: CPUs %d,%d, kind %s",
		      placement_name((enum placement)p), pair.pus[0], pair.pus[1], pair.kind);
	}
	topo_free(&t);

	t = topo_load(fixture_path("intel-4s2c2t.xml", path, sizeof path), err, sizeof err);
	struct topo_pair pair;
	topo_choose(t, PLACEMENT_NON_SIBLING, &pair);
	CHECK(!pair.mixed_kinds && !pair.kind[0], "a machine of one kind names none");
	topo_free(&t);
}

static void test_load_errors(void)
{
	char err[ERR_LEN] = "";
	struct topo *t = topo_load("/nonexistent/dir/machine.xml", err, sizeof err);
	CHECK(t == NULL && strstr(err, "/nonexistent/dir/machine.xml") &&
	      strstr(err, "No such file"), "missing XML file: \"%s\"", err);
	err[0] = '\0';
	t = topo_load("pack:2 bogus:3", err, sizeof err);
	CHECK(t == NULL && strstr(err, "pack:2 bogus:3") && strstr(err, "synthetic"),
	      "bad synthetic string: \"%s\"", err);
	err[0] = '\0';
	t = topo_load("", err, sizeof err);
	CHECK(t == NULL && err[0], "empty spec refused: \"%s\"", err);

	char path[] = "/tmp/smtbench-test-bad-XXXXXX.xml";
	int fd = mkstemps(path, 4);
	if (fd >= 0) {
		if (write(fd, "not xml at all\n", 15) != 15)
			perror("write");
		close(fd);
		err[0] = '\0';
		t = topo_load(path, err, sizeof err);
		CHECK(t == NULL && strstr(err, "not a valid hwloc XML"), "garbage XML: \"%s\"", err);
		unlink(path);
	}
	CHECK(strchr(err, '\n') == NULL, "errors are one line");

	/* topo_free sets the caller's pointer to NULL, so a second free is harmless; NULL and a
	 * pointer to NULL are accepted (a crash here fails the program). */
	struct topo *loaded = topo_load("core:2 pu:1", err, sizeof err);
	CHECK(loaded != NULL, "a synthetic topology loads (%s)", loaded ? "ok" : err);
	topo_free(&loaded);
	CHECK(loaded == NULL, "topo_free sets the caller's pointer to NULL");
	topo_free(&loaded);
	topo_free(NULL);

	const char *version = topo_hwloc_version();
	CHECK(version && version[0] == '2' && version[1] == '.', "hwloc version \"%s\"", version);
}

static void test_export(void)
{
	char path[1200], err[ERR_LEN];
	struct topo *t = topo_load(fixture_path("intel-skylake-2x6140.xml", path, sizeof path), err, sizeof err);
	char dir[] = "/tmp/smtbench-test-export-XXXXXX", out[64];
	if (!CHECK(t && mkdtemp(dir), "export setup"))
		return;
	snprintf(out, sizeof out, "%s/topology.xml", dir);
	CHECK(topo_export_xml(t, dir, "topology.xml", err, sizeof err) == 0, "export to %s (%s)",
	      out, err);
	struct topo *again = topo_load(out, err, sizeof err);
	if (CHECK(again != NULL, "the export loads again (%s)", err)) {
		struct topo_pair a, b;
		topo_choose(t, PLACEMENT_NON_SIBLING, &a);
		topo_choose(again, PLACEMENT_NON_SIBLING, &b);
		CHECK(a.pus[0] == b.pus[0] && a.pus[1] == b.pus[1] && !strcmp(a.shares, b.shares),
		      "the exported topology gives the same pairs");
		topo_free(&again);
	}
	unlink(out);
	rmdir(dir);
	err[0] = '\0';
	CHECK(topo_export_xml(t, "/nonexistent/dir", "x.xml", err, sizeof err) == -1 &&
	      strstr(err, "/nonexistent/dir/x.xml"), "export to a bad path: \"%s\"", err);
	struct topo_pair bad;
	CHECK(topo_choose(t, PLACEMENT_COUNT, &bad) == -1 && !bad.available,
	      "an out-of-range placement is refused");
	topo_free(&t);
}

/* ---- this system, checked against the kernel's own files ---- */

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool cpuinfo_says_vm(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool vm = false;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			vm = true;
	if (f)
		fclose(f);
	return vm;
}

static void test_this_system(void)
{
	char err[ERR_LEN] = "";
	struct topo *t = topo_load(NULL, err, sizeof err);
	if (!CHECK(t != NULL, "this system loads (%s)", err))
		return;
	struct topo_info info;
	topo_get_info(t, &info);
	CHECK_STR(info.source_name, "this-system", "source");
	cpu_set_t mask;
	CPU_ZERO(&mask);
	sched_getaffinity(0, sizeof mask, &mask);
	CHECK_INT(info.pus, CPU_COUNT(&mask), "usable PUs = this process's affinity mask");

	/* SMT here, according to the kernel: does any usable CPU have a sibling? */
	bool kernel_smt = false;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char path[128], list[256];
		snprintf(path, sizeof path,
		         "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (CPU_ISSET(cpu, &mask) && read_line(path, list, sizeof list) &&
		    strpbrk(list, ",-"))
			kernel_smt = true;
	}
	struct topo_pair sib;
	topo_choose(t, PLACEMENT_SIBLING, &sib);
	if (kernel_smt) {
		char path[128], list[256] = "";
		snprintf(path, sizeof path,
		         "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", sib.pus[0]);
		read_line(path, list, sizeof list);
		CHECK(sib.available, "SMT here: a sibling pair is offered (kernel: %s)", list);
	} else {
		CHECK(!sib.available, "no SMT here: no sibling pair is invented");
		CHECK(strstr(sib.reason, "SMT") != NULL, "the reason mentions SMT: \"%s\"", sib.reason);
		CHECK_INT(info.max_threads_per_core, 1, "one thread per core");
	}
	char control[64];
	if (read_line("/sys/devices/system/cpu/smt/control", control, sizeof control))
		CHECK_STR(info.smt, control, "SMT state from /sys/devices/system/cpu/smt/control");
	else
		CHECK_STR(info.smt, "unknown", "SMT state without /sys");
	CHECK(info.virtual_machine == cpuinfo_says_vm(),
	      "virtual machine flag matches /proc/cpuinfo's hypervisor flag (%d)",
	      info.virtual_machine);
	if (!info.virtual_machine)
		CHECK_STR(info.hypervisor, "", "no hypervisor named outside a VM");

	struct topo_pair solo, non;
	topo_choose(t, PLACEMENT_SOLO, &solo);
	topo_choose(t, PLACEMENT_NON_SIBLING, &non);
	CHECK(solo.available && CPU_ISSET(solo.pus[0], &mask), "solo PU %d is in the affinity mask",
	      solo.pus[0]);
	if (info.cores >= 2)
		CHECK(non.available && non.pus[0] != non.pus[1] && CPU_ISSET(non.pus[1], &mask),
		      "non-sibling pair %d,%d uses two allowed CPUs", non.pus[0], non.pus[1]);
	if (info.pus >= 2)
		CHECK(solo.pus[0] != 0, "PU 0 is avoided as the anchor when another will do");

	/* A CPU outside the affinity mask is refused and named. */
	int outside = -1;
	for (int cpu = 0; cpu < CPU_SETSIZE && outside < 0; cpu++)
		if (!CPU_ISSET(cpu, &mask))
			outside = cpu;
	struct topo_relation rel;
	int pus[2] = { solo.pus[0], outside };
	err[0] = '\0';
	CHECK(topo_relate(t, pus, &rel, err, sizeof err) == -1, "CPU %d (not usable) refused: %s", outside, err);
	topo_free(&t);
}

int main(void)
{
	const char *env = getenv("SMTBENCH_FIXTURES");
	snprintf(fixture_dir, sizeof fixture_dir, "%s", env ? env : "tests/fixtures");

	test_placement_names();
	for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
		check_topology(&fixtures[i]);
	for (size_t i = 0; i < sizeof synthetics / sizeof synthetics[0]; i++)
		check_topology(&synthetics[i]);
	for (size_t i = 0; i < sizeof restricted / sizeof restricted[0]; i++)
		check_restricted(&restricted[i]);
	for (size_t i = 0; i < sizeof relations / sizeof relations[0]; i++)
		check_relation(&relations[i]);
	test_hybrid_kinds();
	test_pairs_within_one_kind();
	test_load_errors();
	test_export();
	test_this_system();
	return test_done("test_topology");
}
