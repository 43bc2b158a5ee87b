/*
 * test_folder.c — a results folder read once (common/folder.h): what meta.json says the folder
 * is and how far it got, every way meta.json can be unusable, and the runner's mark that tells a
 * run still being written from one whose runner was killed (its pid gone, another process given
 * its number, the machine restarted since, another host's, an older folder without the mark).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fileio.h"
#include "common/folder.h"
#include "common/text.h"
#include "tests/harness.h"

static char base[] = "/tmp/smtbench-folder-XXXXXX";

/* DIR/meta.json holds text (NULL: no meta.json); DIR is base/NAME, made here. */
static void folder_with(const char *name, const char *text, char *dir, size_t size)
{
	char path[600];
	snprintf(dir, size, "%s/%s", base, name);
	mkdir(dir, 0777);
	snprintf(path, sizeof path, "%s/meta.json", dir);
	unlink(path);
	if (!text)
		return;
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The state of a folder whose meta.json says running, marked by a runner with this pid, host
 * and boot id ("" for a mark without it). */
static enum folder_state running_with(const char *name, long pid, const char *host,
                                      const char *boot)
{
	char text[1024], dir[512];
	snprintf(text, sizeof text, "{\"status\": \"running\", \"segments\": [{\"first_trial\": 0}, "
	         "{\"first_trial\": 4, \"pid\": %ld, \"host\": \"%s\"%s%s%s}]}", pid, host,
	         *boot ? ", \"boot_id\": \"" : "", boot, *boot ? "\"" : "");
	folder_with(name, text, dir, sizeof dir);
	struct results_folder *f = folder_open(dir);
	enum folder_state state = f->state;
	folder_free(&f);
	return state;
}

static void test_kind_state_metric(void)
{
	static const struct {
		const char *meta;
		enum folder_kind kind;
		enum folder_state state;
		bool wall;
		const char *what;
	} cases[] = {
		{ "{\"status\": \"complete\"}", FOLDER_RUN, FOLDER_COMPLETE, false,
		  "a complete run of copies, by user time" },
		{ "{\"status\": \"interrupted\", \"settings\": {\"one_process\": true}}",
		  FOLDER_ONE_PROCESS, FOLDER_INTERRUPTED, true,
		  "an interrupted run of one process: by wall time" },
		{ "{\"status\": \"failed\", \"settings\": {\"one_process\": true}, \"metric\": \"user\"}",
		  FOLDER_ONE_PROCESS, FOLDER_FAILED, false, "a recorded metric wins: user" },
		{ "{\"status\": \"complete\", \"matrix\": {}, \"metric\": \"wall\"}", FOLDER_MATRIX,
		  FOLDER_COMPLETE, true, "a matrix (its \"matrix\" object); metric wall as recorded" },
		{ "{\"status\": 3, \"matrix\": [], \"settings\": {\"one_process\": \"yes\"}}", FOLDER_RUN,
		  FOLDER_UNRECORDED, false, "values of the wrong types: a run, no state, user time" },
		{ "{\"source\": \"typed in by hand\"}", FOLDER_RUN, FOLDER_UNRECORDED, false,
		  "no status (the seed's example)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char dir[512];
		folder_with("kinds", cases[i].meta, dir, sizeof dir);
		struct results_folder *f = folder_open(dir);
		CHECK(f->meta_status == FOLDER_META_OK && f->kind == cases[i].kind
		      && f->state == cases[i].state && f->wall_metric == cases[i].wall,
		      "%s (kind %d, state %d, wall %d)", cases[i].what, f->kind, f->state,
		      f->wall_metric);
		folder_free(&f);
		CHECK(f == NULL, "folder_free clears the pointer");
	}
}

static void test_meta_problems(void)
{
	char dir[512], path[600];
	folder_with("absent", NULL, dir, sizeof dir);
	struct results_folder *f = folder_open(dir);
	CHECK(f->meta_status == FOLDER_META_ABSENT && !f->meta && !f->meta_error
	      && f->kind == FOLDER_RUN && f->state == FOLDER_UNRECORDED,
	      "no meta.json: absent, a run with no state");
	folder_free(&f);

	folder_with("bad", "{\"status\": \"complete\",\n \"x\": \x1b[31m}", dir, sizeof dir);
	f = folder_open(dir);
	CHECK(f->meta_status == FOLDER_META_NOT_JSON && f->meta_error_line == 2 && !f->meta
	      && text_is_printable(f->meta_error),
	      "not JSON: jansson's line (%d) and its message, escaped (\"%s\")", f->meta_error_line,
	      f->meta_error);
	folder_free(&f);

	folder_with("array", "[1, 2]", dir, sizeof dir);
	f = folder_open(dir);
	CHECK(f->meta_status == FOLDER_META_NOT_OBJECT && !f->meta, "a JSON array: not an object");
	folder_free(&f);

	folder_with("fifo", NULL, dir, sizeof dir);
	snprintf(path, sizeof path, "%s/meta.json", dir);
	if (mkfifo(path, 0600) != 0) {
		test_skip("mkfifo failed in the test's folder: a FIFO meta.json is not checked");
	} else {
		f = folder_open(dir); /* must not hang: a FIFO is refused before it is read */
		CHECK(f->meta_status == FOLDER_META_UNREADABLE && strstr(f->meta_error, "FIFO"),
		      "a FIFO named meta.json is not read: \"%s\"", f->meta_error);
		folder_free(&f);
	}

	folder_with("escaped", "{\"host\": \"evil\\u001b[2J\", \"status\": \"complete\"}", dir,
	            sizeof dir);
	f = folder_open(dir);
	CHECK(!strcmp(json_string_value(json_object_get(f->meta, "host")), "evil\x1b[2J")
	      && !strcmp(folder_meta_string(f, "host"), "evil\\x1b[2J"),
	      "meta.json kept as written, and its strings escaped for showing");
	folder_free(&f);
}

static void test_samples_once(void)
{
	char dir[512], path[600], err[ERR_LEN];
	folder_with("samples", "{\"status\": \"complete\"}", dir, sizeof dir);
	struct results_folder *f = folder_open(dir);
	CHECK(!folder_samples(f, err, sizeof err) && strstr(err, "is") && strstr(err, "a results "
	      "folder?"), "no samples.csv: why, and the question (\"%s\")", err);
	folder_free(&f);

	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *csv = fopen(path, "w");
	if (csv) {
		fputs("trial,warmup,placement,role,status,utime_s,workload\n"
		      "0,0,solo,a,ok,0.5,nop\n1,0,solo,a,ok,x,nop\n", csv);
		fclose(csv);
	}
	f = folder_open(dir);
	const struct samples_table *t = folder_samples(f, err, sizeof err);
	CHECK(t && t->warning_count == 1 && strstr(t->warnings[0], "samples.csv:3:")
	      && t->workload_count == 1 && !strcmp(samples_table_first_workload(t, 0), "nop"),
	      "samples.csv read: one record, line 3 skipped, workload nop");
	unlink(path); /* read once: asked again, the same table, not the file */
	CHECK(folder_samples(f, err, sizeof err) == t, "asked again: the same table");
	folder_free(&f);
}

static void test_runner_mark(void)
{
	char host[256] = "", boot[64] = "";
	gethostname(host, sizeof host - 1);
	fileio_read_first_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
	CHECK(running_with("own", (long)getpid(), host, boot) == FOLDER_RUNNING,
	      "running, marked by a live process of this program on this host: being written");
	CHECK(running_with("older", 0, "", "") == FOLDER_RUNNING,
	      "running without a valid mark (an older folder): cannot be told, so running");
	CHECK(running_with("elsewhere", 1, "another-host.invalid", boot) == FOLDER_RUNNING,
	      "running, marked on another host: cannot be seen from here, so running");
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0); /* its pid is now no process's (for a while at least) */
	CHECK(running_with("dead", (long)child, host, boot) == FOLDER_KILLED,
	      "running, its runner's pid gone: killed");
	CHECK(running_with("reused", (long)getppid(), host, boot) == FOLDER_KILLED,
	      "running, its pid now another program's (the parent shell): killed");
	if (*boot)
		CHECK(running_with("rebooted", (long)getpid(), host,
		                   "00000000-0000-0000-0000-000000000000") == FOLDER_KILLED,
		      "running, marked in an earlier boot of this machine: killed");
	else
		test_skip("no /proc/sys/kernel/random/boot_id: a restarted machine is not checked");

	json_t *segment = json_object();
	folder_mark_runner(segment);
	CHECK(json_integer_value(json_object_get(segment, "pid")) == getpid()
	      && !strcmp(json_string_value(json_object_get(segment, "host")), host),
	      "folder_mark_runner writes this process's pid and host");
	json_decref(segment);
}

int main(void)
{
	if (!mkdtemp(base))
		test_skip_all("mkdtemp failed: no temporary folder");
	test_kind_state_metric();
	test_meta_problems();
	test_samples_once();
	test_runner_mark();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", base);
	return test_done("test_folder");
}
