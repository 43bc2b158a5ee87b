/* The one rule that names the CPU model (common/cpu_model.h), on strings and on meta.json of
 * every age: /proc/cpuinfo's wins, hwloc's where /proc has none, blanks folded. */
#include <stdlib.h>
#include <string.h>

#include "common/cpu_model.h"
#include "tests/harness.h"

static void check_meta(const char *json, const char *want, const char *what)
{
	json_error_t jerr;
	json_t *meta = json_loads(json, 0, &jerr);
	char *got = meta ? cpu_model_of_meta(meta) : NULL;
	CHECK_STR(got ? got : "(null)", want, what);
	free(got);
	json_decref(meta);
}

int main(void)
{
	char out[CPU_MODEL_LEN];
	CHECK_STR(cpu_model_choose("AMD EPYC", "Oxide Virtual Turin-like Processor", out, sizeof out),
	          "AMD EPYC", "/proc/cpuinfo's string wins over hwloc's");
	CHECK_STR(cpu_model_choose("", "POWER9, altivec supported", out, sizeof out),
	          "POWER9, altivec supported", "hwloc's where /proc has no model name");
	CHECK_STR(cpu_model_choose(NULL, "AMD EPYC 7451", out, sizeof out), "AMD EPYC 7451",
	          "hwloc's for a loaded topology (no /proc string)");
	CHECK_STR(cpu_model_choose(" \t ", "X", out, sizeof out), "X", "a blank /proc string names none");
	CHECK_STR(cpu_model_choose(NULL, NULL, out, sizeof out), "", "neither: empty");
	CHECK_STR(cpu_model_choose("  Intel(R) Xeon(R) CPU           X5670  @ 2.93GHz\t", NULL, out,
	                           sizeof out),
	          "Intel(R) Xeon(R) CPU X5670 @ 2.93GHz", "blanks trimmed, runs of them one space");
	CHECK_STR(cpu_model_choose("CPU\nFAKE", NULL, out, sizeof out), "CPU\nFAKE",
	          "a newline is not folded: the reports' sanitiser shows it escaped");
	char small[6];
	CHECK_STR(cpu_model_choose("ab  cdef", NULL, small, sizeof small), "ab cd",
	          "truncated to the buffer");
	char tiny[4];
	CHECK_STR(cpu_model_choose("ab  cd", NULL, tiny, sizeof tiny), "ab",
	          "a space with no room for what follows is left out");

	check_meta("{\"cpu_model\": \"AMD EPYC\"}", "AMD EPYC",
	           "meta.json written before the rule: its cpu_model");
	check_meta("{\"cpu_model\": \"  AMD   EPYC \"}", "AMD EPYC", "... with its blanks folded");
	check_meta("{\"cpu_model\": \"AMD EPYC\", \"cpu_model_sources\": {\"hwloc\": \"Oxide\", "
	           "\"proc_cpuinfo\": \"AMD EPYC\"}}", "AMD EPYC", "both sources: /proc's");
	check_meta("{\"cpu_model\": \"stale\", \"cpu_model_sources\": {\"hwloc\": \"Oxide\", "
	           "\"proc_cpuinfo\": null}}", "Oxide", "only hwloc's source: hwloc's");
	check_meta("{\"cpu_model\": \"AMD EPYC\", \"cpu_model_sources\": {\"hwloc\": null, "
	           "\"proc_cpuinfo\": null}}", "AMD EPYC", "sources that name none: cpu_model");
	check_meta("{\"cpu_model_sources\": {\"hwloc\": {\"hex\": \"ff\"}, \"proc_cpuinfo\": 3}}", "",
	           "sources that are not strings, no cpu_model: none");
	check_meta("{\"host\": \"h\"}", "", "no model recorded: empty");
	check_meta("[]", "", "not an object: empty");
	return test_done("test_cpu_model");
}
