/*
 * test_samples_load_parts.c — samples.csv is read in parts at once (analysis/samples_load.c),
 * and the dataset must not depend on how it was cut. A file with every kind of line the loader
 * meets (good trials of every shape, warm-ups, failed and contaminated trials, damaged lines, a
 * NUL, a '\r', empty lines, a duplicated row, a trial missing a row, rows out of order, a last
 * line without its end) is loaded whole and in 2 to 16 parts, with the cuts moved through
 * every byte of a line; everything the dataset holds, warnings and their line numbers included,
 * must be the same, to the bit.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/internal.h"
#include "common/samples_csv.h"
#include "tests/harness.h"

static char base[] = "/tmp/smtbench-parts-XXXXXX";

/* A new folder NAME under base, dir its path, and its samples.csv opened for writing (NULL when
 * it cannot be). */
static FILE *new_samples(const char *name, char *dir, size_t size)
{
	char path[700];
	snprintf(dir, size, "%s/%s", base, name);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	mkdir(dir, 0777);
	return fopen(path, "w");
}

/* Everything a dataset holds, as text (doubles in %a, so that equal text is equal bits). */
static char *digest(const struct analysis_dataset *d)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return NULL;
	fprintf(f, "unit %d warmup %zu failed %zu excluded %zu workload %s beside %s\n", d->unit,
	        d->warmup_trials, d->failed_trials, d->excluded_contaminated,
	        d->workload ? d->workload : "-", d->beside_workload ? d->beside_workload : "-");
	for (size_t i = 0; i < d->group_count; i++) {
		const struct analysis_group *g = &d->groups[i];
		fprintf(f, "group %s n %zu failed %zu overlap %zu/%zu wall %zu/%zu freq %a/%zu "
		        "contaminated %zu/%zu leftovers %zu/%zu\n", g->name, g->n, g->failed_trials,
		        g->poor_overlap_trials, g->overlap_known, g->wall_above_cpu_trials,
		        g->wall_known, g->freq_mhz, g->freq_n, g->contaminated_trials,
		        g->contamination_known, g->leftover_trials, g->leftovers);
		for (size_t k = 0; k < g->n; k++)
			fprintf(f, " %ld:%a", g->trials[k], g->values_s[k]);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < d->point_count; i++) {
		const struct analysis_point *p = &d->points[i];
		fprintf(f, "point %ld %d %a %d %d\n", p->trial, p->group, p->value_s, p->warmup,
		        p->outlier);
	}
	for (size_t i = 0; i < d->warning_count; i++)
		fprintf(f, "warning %s\n", d->warnings[i]);
	fclose(f);
	return text;
}

/* One row of the whole schema; pad lengthens started_utc's text to move the cuts. */
static void row(FILE *f, long trial, int warmup, const char *placement, int proc,
                const char *role, const char *status, double utime, const char *foreign,
                int pad)
{
	fprintf(f, "%ld,%ld,%d,%s,%d,%s,%d,%s,%s,0,,%.6f,0.000100,%.6f,0,1,1,0,1408,0.9%d,%.3f,0.5,"
	        "2026-12-01T00:00:00Z%.*s,%s,0.000000,%d,\n", trial, trial / 3, warmup, placement,
	        proc, role, 2 * proc, role[0] == 'a' ? "nop" : "spin", status, utime,
	        utime * (trial % 11 == 4 ? 3.0 : 1.0) + 0.0004, (int)(trial % 10),
	        2900.1 + 0.7 * (double)((trial * 37) % 13) + 0.001 * (double)trial, /* sums round */
	        pad, "..........................................................................."
	        "...........................................................................",
	        foreign, trial % 13 == 5);
}

/* The file: many trials of solo, non-sibling and sibling, and among them every damaged kind. */
static void write_file(const char *path, int pad, bool sorted)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", SAMPLES_CSV_HEADER);
	static const char *const places[] = { "solo", "non-sibling", "sibling", "some-new-one" };
	for (long t = 0; t < 60; t++) {
		long trial = sorted || t < 40 || t >= 50 ? t : 89 - t; /* 40..49 backwards */
		const char *place = places[trial % 4];
		int procs = trial % 4 == 0 ? 1 : 2;
		double utime = 0.25 + 0.001 * (double)((trial * 7919) % 97) + (trial == 33 ? 5.0 : 0);
		const char *status = trial % 17 == 9 ? "timeout" : "ok";
		const char *foreign = trial % 19 == 7 ? "0.200000" : trial % 23 == 2 ? "" : "0.001000";
		int warmup = trial < 4;
		for (int p = 0; p < procs; p++) {
			if (trial == 26 && p == 1)
				continue; /* a trial missing its second row */
			row(f, trial, warmup, place, p, p == 0 ? "a" : "b", status, utime + 0.01 * p,
			    foreign, trial == 0 ? pad : 0);
			if (trial == 14 && p == 0) /* a duplicated row */
				row(f, trial, warmup, place, p, "a", status, utime, foreign, 0);
		}
		switch (trial) {
		case 10: fputs("10,3,0,solo,0,a,0,nop,ok,0\n", f); break;           /* too few fields */
		case 20: fputs("\n\n", f); break;                                     /* empty lines */
		case 30: { /* a NUL byte */
			static const char nul[] = "30,1,0,solo,0,a,0,nop,ok,0,,0.2\0x,,,,,,,,,,,,,,\n";
			fwrite(nul, 1, sizeof nul - 1, f);
			break;
		}
		case 35: /* a CRLF line end (a good row), and a '\r' within a line (cut there) */
			fputs("135,1,0,solo,0,a,0,nop,ok,0,,0.3,0,,,,,,,,,,,,,,\r\n", f);
			fputs("136,1,0,solo,0,a,0,nop,ok,0,,0.3\r,0,,,,,,,,,,,,,,\n", f);
			break;
		case 45: fputs("x45,1,0,solo,0,a,0,nop,ok,0,,0.3,0,,,,,,,,,,,,,,\n", f); break;
		case 52: fputs("52,1,0,solo,0,a,0,nop,ok,0,,abc,0,,,,,,,,,,,,,,\n", f); break;
		default: break;
		}
	}
	fputs("60,20,0,solo,0,a,0,nop,ok,0,,0.25", f); /* cut short: no end of line */
	fclose(f);
}

/* Loads dir whole and in 2..16 parts, both units, with and without exclusion: same digests. */
static int compare_parts(const char *dir, const char *what)
{
	int differ = 0;
	for (int unit = 0; unit < 2; unit++)
		for (int exclude = 0; exclude < 2; exclude++) {
			char err[512];
			enum analysis_unit u = unit ? ANALYSIS_UNIT_PROCESS : ANALYSIS_UNIT_TRIAL;
			struct analysis_dataset *whole = samples_load(dir, u, exclude, 1, err, sizeof err);
			if (!whole) {
				CHECK(false, "%s loads whole (%s)", what, err);
				return 1;
			}
			char *want = digest(whole);
			for (size_t parts = 2; parts <= 16; parts++) {
				struct analysis_dataset *d = samples_load(dir, u, exclude, parts, err,
				                                          sizeof err);
				char *got = d ? digest(d) : NULL;
				if (!got || !want || strcmp(got, want)) {
					if (!differ)
						printf("# %s differs in %zu parts (unit %d, exclude %d): %s\n",
						       what, parts, unit, exclude, d ? "" : err);
					differ++;
				}
				free(got);
				analysis_dataset_free(&d);
			}
			free(want);
			analysis_dataset_free(&whole);
		}
	return differ;
}

static void same_whatever_the_cuts(bool sorted)
{
	char dir[600], path[700];
	snprintf(dir, sizeof dir, "%s/%s", base, sorted ? "sorted" : "unsorted");
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	mkdir(dir, 0777);
	int differ = 0;
	/* Lengthening the first row byte by byte moves every cut through a whole line. */
	for (int pad = 0; pad < 150; pad += sorted ? 1 : 7) {
		write_file(path, pad, sorted);
		differ += compare_parts(dir, sorted ? "the sorted file" : "the file out of order");
	}
	CHECK(differ == 0, "%s: the same dataset, warnings and line numbers in 1 to 16 parts, the "
	      "cuts at every byte of a line (%d loads differ)", sorted ? "rows in order" :
	      "rows out of order", differ);
	char err[512];
	struct analysis_dataset *d = samples_load(dir, ANALYSIS_UNIT_TRIAL, false, 7, err,
	                                          sizeof err);
	if (!CHECK(d != NULL, "the file loads in 7 parts (%s)", d ? "" : err))
		return;
	/* It must also be what was written: the damage found on the right lines. */
	char *all = digest(d);
	CHECK(all && strstr(all, "a NUL byte in the line") && strstr(all, "no end of line") &&
	      strstr(all, "fields where the header has") && strstr(all, "duplicated or stray") &&
	      strstr(all, "bad 'trial' value") && strstr(all, "bad or missing 'utime_s'") &&
	      strstr(all, "has 1 of its 2 rows") && strstr(all, "12 fields where the header has") &&
	      strstr(all, "135:"), "every kind of damage is warned about, and a CRLF line loads");
	CHECK(d->group_count == 4 && d->failed_trials > 0 && d->warmup_trials == 4,
	      "4 placements, failed trials counted, 4 warm-ups (%zu, %zu, %zu)", d->group_count,
	      d->failed_trials, d->warmup_trials);
	free(all);
	analysis_dataset_free(&d);
}

/* The first lines of a file, then a cut inside the header: one part must be able to be empty. */
static void tiny_files(void)
{
	char dir[600], path[700];
	snprintf(dir, sizeof dir, "%s/tiny", base);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	mkdir(dir, 0777);
	static const char *const bodies[] = {
		"", "\n", "0,0,0,solo,0,a,0,nop,ok,0,,0.25,0,0.25,0,0,0,0,0,1,0,0,x,0,0,0,\n",
		"0,0,0,solo,0,a,0,nop,ok,0,,0.25,0,0.25,0,0,0,0,0,1,0,0,x,0,0,0,",
	};
	int differ = 0;
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		FILE *f = fopen(path, "w");
		if (!f)
			continue;
		fprintf(f, "%s\n%s", SAMPLES_CSV_HEADER, bodies[i]);
		fclose(f);
		differ += compare_parts(dir, "a tiny file");
	}
	CHECK(differ == 0, "a file of no, one or an empty line loads the same in 1 to 16 parts "
	      "(%d differ)", differ);
}

/* A hostile file with one placement name per line must fail in bounded time, named. */
static void too_many_placements(void)
{
	char dir[600];
	FILE *f = new_samples("names", dir, sizeof dir);
	if (!f)
		return;
	fprintf(f, "%s\n", SAMPLES_CSV_HEADER);
	for (int t = 0; t < 5000; t++)
		fprintf(f, "%d,0,0,place-%d,0,a,0,nop,ok,0,,0.25,0,0.25,0,0,0,0,0,1,0,0,x,0,0,0,\n", t, t);
	fclose(f);
	for (size_t parts = 1; parts <= 7; parts++) {
		char err[512] = "";
		struct analysis_dataset *d = samples_load(dir, ANALYSIS_UNIT_TRIAL, false, parts, err,
		                                          sizeof err);
		CHECK(!d && strstr(err, "samples.csv:1002: more than 1000 placement names"),
		      "5000 placement names in %zu part(s): refused, naming the line of the 1001st (%s)",
		      parts, err);
		analysis_dataset_free(&d);
	}
}

/* A placement this smtbench does not know is analysed but warned about, on its first line; a
 * process number its placement does not have makes the trial's row a stray. */
static void unknown_names_and_procs(void)
{
	char dir[600];
	FILE *f = new_samples("unknown", dir, sizeof dir);
	if (!f)
		return;
	fprintf(f, "%s\n", SAMPLES_CSV_HEADER);
	for (int t = 0; t < 8; t++)
		fprintf(f, "%d,0,0,%s,%d,a,0,nop,ok,0,,0.25,0,0.25,0,0,0,0,0,1,0,0,x,0,0,0,\n", t,
		        t == 3 || t == 6 ? "evil-place" : "solo", t == 5 ? 7 : 0);
	fclose(f);
	char err[512];
	struct analysis_dataset *d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (!CHECK(d != NULL, "a file with an unknown placement loads (%s)", d ? "" : err))
		return;
	char *all = digest(d);
	CHECK(all && strstr(all, "warning samples.csv:5: placement 'evil-place' is not one this "
	                         "smtbench knows") && !strstr(all, "samples.csv:8: placement"),
	      "the unknown placement is warned about once, on the line it first appears");
	CHECK(all && strstr(all, "samples.csv:7: trial 5: a duplicated or stray row (process 7; a "
	                         "solo trial has 1 row)"),
	      "a solo row of process 7 is a stray, its trial skipped");
	int solo = analysis_dataset_find(d, "solo"), evil = analysis_dataset_find(d, "evil-place");
	CHECK(solo >= 0 && evil >= 0 && d->groups[solo].n == 5 && d->groups[evil].n == 2,
	      "solo keeps its 5 good trials, evil-place its 2");
	free(all);
	analysis_dataset_free(&d);
}

/* samples.csv as a FIFO (or a link to /dev/zero) is not a results folder's file: it is refused
 * at once, naming what it is, whether or not anything writes into it (a FIFO with no writer used
 * to hang the loader in open(), and /dev/zero to grow without bound: issue 21, item 4). */
static void not_a_regular_file(void)
{
	char fifo_dir[600], fifo[700], zero_dir[600], zero[700];
	snprintf(fifo_dir, sizeof fifo_dir, "%s/fifo", base);
	snprintf(fifo, sizeof fifo, "%s/samples.csv", fifo_dir);
	mkdir(fifo_dir, 0777);
	if (mkfifo(fifo, 0600) < 0) {
		test_skip("mkfifo failed here: a FIFO cannot be made in /tmp");
		return;
	}
	char err[512] = "";
	alarm(20); /* a hang fails the test rather than CI's time limit */
	struct analysis_dataset *d = samples_load(fifo_dir, ANALYSIS_UNIT_TRIAL, false, 4, err,
	                                          sizeof err);
	alarm(0);
	CHECK(!d && strstr(err, "samples.csv is a FIFO, not a regular file"),
	      "a FIFO with no writer is refused at once: \"%s\"", err);
	analysis_dataset_free(&d);
	snprintf(zero_dir, sizeof zero_dir, "%s/zero", base);
	snprintf(zero, sizeof zero, "%s/samples.csv", zero_dir);
	mkdir(zero_dir, 0777);
	CHECK(symlink("/dev/zero", zero) == 0, "samples.csv -> /dev/zero made");
	err[0] = '\0';
	alarm(20);
	d = samples_load(zero_dir, ANALYSIS_UNIT_TRIAL, false, 4, err, sizeof err);
	alarm(0);
	CHECK(!d && strstr(err, "is a character device, not a regular file"),
	      "a link to /dev/zero is refused at once: \"%s\"", err);
	analysis_dataset_free(&d);
	unlink(zero);
	unlink(fifo);
}

/* The report's workload name and frequency come from lines that load, not from a damaged one
 * (nor a last line cut short). */
static void extras_from_good_lines(void)
{
	char dir[600];
	FILE *f = new_samples("extras", dir, sizeof dir);
	if (!f)
		return;
	fputs("trial,warmup,placement,proc,role,workload,status,utime_s,stime_s,freq_mhz\n"
	      "0,0,solo,0,a,damaged,ok,0.25,bad,3000\n"
	      "1,0,solo,0,a,nop,ok,0.25,0.0,2000\n"
	      "2,0,solo,0,a,nop,ok,0.26,0.0,2001\n"
	      "3,0,solo,0,a,cut,ok,0.26,0.0,5000", f);
	fclose(f);
	char err[512];
	struct analysis_dataset *d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (!CHECK(d != NULL, "the file loads (%s)", d ? "" : err))
		return;
	CHECK(d->workload && !strcmp(d->workload, "nop") && d->groups[0].freq_n == 2 &&
	      d->groups[0].freq_mhz == 2000.5, "workload 'nop' and 2000.5 MHz from the two lines "
	      "that load (%s, %zu, %g)", d->workload ? d->workload : "-", d->groups[0].freq_n,
	      d->groups[0].freq_mhz);
	analysis_dataset_free(&d);
}

int main(void)
{
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	same_whatever_the_cuts(true);
	same_whatever_the_cuts(false);
	tiny_files();
	too_many_placements();
	unknown_names_and_procs();
	not_a_regular_file();
	extras_from_good_lines();
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (getenv("KEEP") == NULL && system(cmd) != 0)
		printf("# could not remove %s\n", base);
	return test_done("test_samples_load_parts");
}
