/*
 * folder.c — a results folder read once (folder.h).
 */
#include "common/folder.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/fileio.h"
#include "common/samples_csv.h"
#include "common/text.h"

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

/* meta.json into f->meta, or why it cannot be used. */
static void read_meta(struct results_folder *f)
{
	if (access(f->meta_path, F_OK) != 0) {
		f->meta_status = FOLDER_META_ABSENT;
		return;
	}
	char why[ERR_LEN];
	size_t len;
	char *text = fileio_read_all(f->meta_path, &len, why, sizeof why);
	json_error_t jerr;
	f->meta = text ? json_loadb(text, len, 0, &jerr) : NULL;
	free(text);
	if (!text) {
		f->meta_status = FOLDER_META_UNREADABLE;
		f->meta_error = xescaped(why);
	} else if (!f->meta) {
		f->meta_status = FOLDER_META_NOT_JSON;
		f->meta_error = xescaped(jerr.text); /* jansson's message may quote the bad bytes */
		f->meta_error_line = jerr.line;
	} else if (!json_is_object(f->meta)) {
		f->meta_status = FOLDER_META_NOT_OBJECT;
		json_decref(f->meta);
		f->meta = NULL;
	} else {
		f->meta_status = FOLDER_META_OK;
		f->shown_meta = json_deep_copy(f->meta);
		if (!f->shown_meta)
			text_errx(EXIT_FAILURE_RUNTIME, "out of memory reading %s", f->meta_path);
		text_escape_json(f->shown_meta);
	}
}

/* Whether the process pid is one of this program's (not a later process given its number):
 * its name is this process's. True when that cannot be read (no /proc): alive, for all we know. */
static bool runner_alive(long pid)
{
	if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))
		return false;
	char path[64], name[64], own[64];
	snprintf(path, sizeof path, "/proc/%ld/comm", pid);
	if (fileio_read_first_line("/proc/self/comm", own, sizeof own) != 0)
		return true;
	return fileio_read_first_line(path, name, sizeof name) == 0 && !strcmp(name, own);
}

/* Status running: whether its runner (the last segment's mark) is still there. */
static enum folder_state running_state(struct results_folder *f)
{
	json_t *segments = json_object_get(f->meta, "segments");
	json_t *last = json_array_get(segments, json_array_size(segments) - 1);
	json_t *pid = json_object_get(last, "pid");
	const char *host = json_string_value(json_object_get(last, "host"));
	const char *boot = json_string_value(json_object_get(last, "boot_id"));
	if (!json_is_integer(pid) || !host) /* older than the mark: cannot tell */
		return FOLDER_RUNNING;
	f->runner_pid = (long)json_integer_value(pid);
	f->runner_host = xescaped(host);
	char here[256] = "", this_boot[64] = "";
	gethostname(here, sizeof here - 1);
	if (strcmp(host, here)) /* another machine's process: it cannot be seen from here */
		return FOLDER_RUNNING;
	if (boot && fileio_read_first_line(BOOT_ID_PATH, this_boot, sizeof this_boot) == 0
	    && strcmp(boot, this_boot))
		return FOLDER_KILLED; /* the machine restarted since */
	return runner_alive(f->runner_pid) ? FOLDER_RUNNING : FOLDER_KILLED;
}

/* Kind, state and metric from meta.json (a folder without one: a run, user time). */
static void classify(struct results_folder *f)
{
	json_t *settings = json_object_get(f->meta, "settings");
	bool one_process = json_is_true(json_object_get(settings, "one_process"));
	f->kind = json_is_object(json_object_get(f->meta, "matrix")) ? FOLDER_MATRIX
	          : one_process ? FOLDER_ONE_PROCESS : FOLDER_RUN;
	const char *metric = json_string_value(json_object_get(f->meta, "metric"));
	f->wall_metric = metric ? !strcmp(metric, SAMPLES_METRIC_WALL) : one_process;
	/* meta.json's status is one of the states' names; "killed" is found, never written. */
	const char *status = json_string_value(json_object_get(f->meta, "status"));
	f->state = FOLDER_UNRECORDED;
	for (enum folder_state s = FOLDER_COMPLETE; status && s <= FOLDER_RUNNING; s++)
		if (!strcmp(status, folder_state_name(s)))
			f->state = s;
	if (f->state == FOLDER_RUNNING)
		f->state = running_state(f);
}

struct results_folder *folder_open(const char *dir)
{
	struct results_folder *f = xcalloc(1, sizeof *f);
	f->dir = xstrdup(dir);
	f->shown_dir = xescaped(dir);
	f->meta_path = xasprintf("%s/meta.json", dir);
	read_meta(f);
	classify(f);
	return f;
}

/* Why a present meta.json rules out reading the folder's samples (folder_samples says why): a
 * new string, or NULL. */
static char *meta_damage(const struct results_folder *f)
{
	const char *after = "; it says what the folder holds (a run of copies, one process per "
	                    "trial, a matrix), so the folder is not analysed or reported without it "
	                    "and its reports are left as they are: restore meta.json, or move it "
	                    "aside to read samples.csv as a plain run of copies";
	switch (f->meta_status) {
	case FOLDER_META_UNREADABLE:
		return xasprintf("%s%s", f->meta_error, after);
	case FOLDER_META_NOT_JSON:
		return xasprintf("%s/meta.json is damaged: not valid JSON (line %d: %s)%s", f->shown_dir,
		                 f->meta_error_line, f->meta_error, after);
	case FOLDER_META_NOT_OBJECT:
		return xasprintf("%s/meta.json is damaged: not a JSON object%s", f->shown_dir, after);
	case FOLDER_META_ABSENT:
	case FOLDER_META_OK:
		break;
	}
	return NULL;
}

/* Adds name to the list text (", "-separated, escaped) and marks the table's names equal to it. */
static void name_listed(const char *name, const struct samples_name *names, size_t count,
                        bool *named, char **text)
{
	/* samples.csv holds a name as the runner wrote it (samples_csv_token: escaped, one token,
	 * cut); meta.json holds it as it is. */
	char *shown = xescaped(name);
	char token[SAMPLES_FIELD_LEN];
	samples_csv_token(name, token, sizeof token);
	for (size_t i = 0; i < count; i++)
		if (!strcmp(names[i].name, name) || !strcmp(names[i].name, token))
			named[i] = true;
	char *joined = *text ? xasprintf("%s, %s", *text, shown) : xstrdup(shown);
	free(shown);
	free(*text);
	*text = joined;
}

/* The workloads meta.json names in each role: a run's "workloads" a and b, each in its role; a
 * matrix's kernels or commands, in either role. None when it names none (an older or foreign
 * meta.json). */
static void meta_workloads(struct results_folder *f, const struct samples_table *t)
{
	const json_t *matrix = json_object_get(f->meta, "matrix");
	const json_t *listed = json_object_get(matrix, "commands");
	if (!listed)
		listed = json_object_get(matrix, "kernels");
	const json_t *workloads = json_object_get(f->meta, "workloads");
	bool in_matrix = json_is_array(listed);
	if (!in_matrix && !json_is_object(workloads))
		return;
	for (int as = 0; as < 2; as++)
		f->workload_named[as] = xcalloc(t->workload_count + 1, sizeof *f->workload_named[as]);
	size_t count = in_matrix ? json_array_size(listed) : 2;
	for (size_t i = 0; i < count; i++) {
		const json_t *w = in_matrix ? json_array_get(listed, i)
		                            : json_object_get(workloads, i ? "b" : "a");
		/* text, or {"hex": ...} for a name that is not UTF-8 (text_to_json) */
		char *name = text_from_json(json_object_get(w, "name"));
		for (int as = 0; name && as < 2; as++)
			if (in_matrix || (size_t)as == i)
				name_listed(name, t->workloads, t->workload_count, f->workload_named[as],
				            &f->meta_workloads[as]);
		free(name);
	}
}

/* Which of the table's placements and workloads meta.json names (folder_row_disagreement). */
static void find_agreement(struct results_folder *f, const struct samples_table *t)
{
	const json_t *placements = json_object_get(f->meta, "placements");
	if (json_is_array(placements) && json_array_size(placements) > 0) {
		f->placement_named = xcalloc(t->placement_count + 1, sizeof *f->placement_named);
		size_t i;
		const json_t *p;
		json_array_foreach(placements, i, p) {
			const char *name = json_string_value(json_object_get(p, "name"));
			if (name)
				name_listed(name, t->placements, t->placement_count, f->placement_named,
				            &f->meta_placements);
		}
	}
	meta_workloads(f, t);
}

char *folder_row_disagreement(const struct results_folder *f, const struct samples_record *r)
{
	const struct samples_table *t = f->samples;
	int as = r->role_a ? 0 : 1;
	bool placement = t && f->placement_named && !f->placement_named[r->placement];
	if (!placement && (!t || !f->workload_named[as] || r->workload == SAMPLES_NO_WORKLOAD
	                   || f->workload_named[as][r->workload]))
		return NULL;
	char *name = xescaped(placement ? t->placements[r->placement].name
	                                : t->workloads[r->workload].name);
	char *s = placement
	          ? xasprintf("placement '%s' is " FOLDER_NOT_NAMED_BY_META " (%s)", name,
	                      f->meta_placements ? f->meta_placements : "none")
	          : xasprintf("workload '%s' in role %c is " FOLDER_NOT_NAMED_BY_META " (%s)", name,
	                      as ? 'b' : 'a',
	                      f->meta_workloads[as] ? f->meta_workloads[as] : "none in that role");
	free(name);
	return s;
}

const struct samples_table *folder_samples(struct results_folder *f, char *err, size_t err_size)
{
	if (!f->samples && !f->samples_error)
		f->samples_error = meta_damage(f);
	if (!f->samples && !f->samples_error) {
		char *path = xasprintf("%s/samples.csv", f->dir);
		char why[ERR_LEN];
		int fd = fileio_open_regular(path, O_RDONLY, why, sizeof why);
		if (fd < 0)
			f->samples_error = xasprintf("%s (is %s a results folder?)", why, f->dir);
		else if (!(f->samples = samples_table_read(fd, path, f->parts, why, sizeof why)))
			f->samples_error = xstrdup(why);
		if (fd >= 0)
			close(fd);
		free(path);
		if (f->samples && f->meta)
			find_agreement(f, f->samples);
	}
	if (!f->samples)
		set_error(err, err_size, "%s", f->samples_error);
	return f->samples;
}

const char *folder_state_name(enum folder_state state)
{
	static const char *const names[] = {
		[FOLDER_COMPLETE] = "complete", [FOLDER_INTERRUPTED] = "interrupted",
		[FOLDER_FAILED] = "failed", [FOLDER_RUNNING] = "running", [FOLDER_KILLED] = "killed",
		[FOLDER_UNRECORDED] = NULL,
	};
	return names[state];
}

const char *folder_meta_string(const struct results_folder *f, const char *key)
{
	return json_string_value(json_object_get(f->shown_meta, key));
}

long folder_trials_written(const struct results_folder *f)
{
	if (!f->samples)
		return -1;
	struct samples_cursor c = { .table = f->samples };
	const struct samples_record *rows;
	size_t n;
	long trials = 0;
	while (samples_next_trial(&c, &rows, &n))
		trials++;
	samples_cursor_release(&c);
	return trials;
}

void folder_free(struct results_folder **f)
{
	if (!*f)
		return;
	free((*f)->dir);
	free((*f)->shown_dir);
	free((*f)->meta_path);
	json_decref((*f)->meta);
	json_decref((*f)->shown_meta);
	free((*f)->meta_error);
	free((*f)->runner_host);
	samples_table_free(&(*f)->samples);
	free((*f)->samples_error);
	free((*f)->placement_named);
	free((*f)->meta_placements);
	for (int as = 0; as < 2; as++) {
		free((*f)->workload_named[as]);
		free((*f)->meta_workloads[as]);
	}
	free(*f);
	*f = NULL;
}

void folder_mark_runner(json_t *segment)
{
	char host[256] = "", boot[64] = "";
	gethostname(host, sizeof host - 1);
	fileio_read_first_line(BOOT_ID_PATH, boot, sizeof boot);
	json_object_set_new(segment, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(segment, "host", json_string(host));
	json_object_set_new(segment, "boot_id", *boot ? json_string(boot) : json_null());
}
