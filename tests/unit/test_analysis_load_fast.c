/*
 * The fast samples.csv loader (analysis/samples_load.c, common/samples_csv.c) reads what the slow one
 * read: the splitter against a plain reference on random lines (commas at every offset of an
 * 8-byte word); every utime_s text, in plain decimals and in forms only strtod reads, gives the
 * double strtod gives, to the bit; a line longer than the read buffer, lines across the buffer's
 * boundaries and rows out of trial order load, with warnings on the right line numbers.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/samples_csv.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

static const char *const header =
	"trial,warmup,placement,proc,role,status,utime_s,extra\n";

/* The reference: split at every comma, one byte at a time. */
static size_t split_reference(char *line, char **fields, size_t max)
{
	size_t count = 0;
	char *start = line;
	for (char *p = line;; p++)
		if (*p == ',' || !*p) {
			bool end = !*p;
			*p = '\0';
			if (count < max)
				fields[count] = start;
			count++;
			start = p + 1;
			if (end)
				return count;
		}
}

static void splitter_matches_reference(void)
{
	struct rng rng = { 7 };
	int bad = 0;
	for (int t = 0; t < 20000; t++) {
		char a[80], b[80], *fa[40], *fb[40];
		size_t len = rng_next(&rng) % 70;
		for (size_t i = 0; i < len; i++)
			a[i] = "ab,,x,-,,\x01\xac"[rng_next(&rng) % 11];
		a[len] = '\0';
		memcpy(b, a, sizeof a);
		size_t max = rng_next(&rng) % 40;
		size_t na = samples_csv_split(a, fa, max), nb = split_reference(b, fb, max);
		bool same = na == nb;
		for (size_t i = 0; same && i < na && i < max; i++)
			same = fa[i] - a == fb[i] - b && !strcmp(fa[i], fb[i]);
		bad += !same;
	}
	CHECK(bad == 0, "the splitter agrees with the reference on 20000 random lines (%d differ)", bad);
}

/* A number's text in one of many forms; some only strtod reads. */
static void number_text(struct rng *rng, char *out, size_t size)
{
	double v = rng_uniform(rng) * pow(10, (double)(rng_next(rng) % 12) - 6);
	switch (rng_next(rng) % 8) {
	case 0: snprintf(out, size, "%.6f", v); break;
	case 1: snprintf(out, size, "%.*f", (int)(rng_next(rng) % 16), v); break;
	case 2: snprintf(out, size, "%.17g", v); break;   /* exponents, 17 digits */
	case 3: snprintf(out, size, "%.15g", v); break;
	case 4: snprintf(out, size, "%llu", (unsigned long long)(v * 1e6)); break;
	case 5: snprintf(out, size, "%.20f", v); break;  /* more digits than the fast path takes */
	case 6: snprintf(out, size, "+%.4f", v); break;  /* a sign: strtod's */
	default: snprintf(out, size, "%.3f", v); snprintf(out + strlen(out), 4, "."); break;
	}
}

static void values_match_strtod(const char *dir, const char *path)
{
	enum { N = 30000 };
	struct rng rng = { 11 };
	static double want[N];
	FILE *f = fopen(path, "w");
	if (!CHECK(f != NULL, "write %s", path))
		return;
	fputs(header, f);
	size_t valid = 0;
	for (int t = 0; t < N; t++) {
		char text[64];
		number_text(&rng, text, sizeof text);
		char *end;
		double v = strtod(text, &end);
		if (*end) /* "1.234." and the like: a bad value either way */
			continue;
		want[valid++] = v;
		fprintf(f, "%d,0,solo,0,a,ok,%s,x\n", t, text);
	}
	fclose(f);
	char err[512];
	struct analysis_dataset *d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "random numbers load: %s", d ? "ok" : err)) {
		size_t differ = 0, n = d->groups[0].n;
		for (size_t i = 0; i < n && i < valid; i++)
			differ += memcmp(&d->groups[0].values_s[i], &want[i], sizeof want[i]) != 0;
		CHECK(n == valid && differ == 0, "%zu of %zu values, every one strtod's to the bit "
		      "(%zu differ)", n, valid, differ);
		analysis_dataset_free(&d);
	}
}

/* Rows out of trial order, a 3 MB line (longer than one read), and damage after it. */
static void long_lines_and_order(const char *dir, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!CHECK(f != NULL, "write %s", path))
		return;
	fputs(header, f);
	long line = 1;
	/* A solo trial has one row, a non-sibling trial two (its placement says so). */
	for (int t = 59999; t >= 0; t--) {                     /* lines 2 .. 90001 */
		int procs = t % 2 ? 1 : 2;
		for (int proc = 0; proc < procs; proc++) {
			fprintf(f, "%d,0,%s,%d,a,ok,%d.5,x\n", t, t % 2 ? "solo" : "non-sibling", proc,
			        1 + t % 3);
			line++;
		}
	}
	fputs("60000,0,solo,0,a,ok,1.5,", f);                  /* one 3 MB field */
	for (int i = 0; i < 3 << 20; i++)
		fputc('y', f);
	fputs("\n60001,0,solo,0,a,ok,oops,x\n", f);            /* bad utime_s */
	fputs("60002,0,solo,0,a,ok,2.5,x\n", f);
	fclose(f);
	long bad_line = line + 2;
	line += 3;
	char want[96];
	snprintf(want, sizeof want, "samples.csv:%ld: bad or missing 'utime_s' value", bad_line);
	char err[512];
	struct analysis_dataset *d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "out of order and long lines load: %s", d ? "ok" : err)) {
		int solo = analysis_dataset_find(d, "solo"), non = analysis_dataset_find(d, "non-sibling");
		CHECK(solo >= 0 && non >= 0 && d->groups[solo].n == 30002 && d->groups[non].n == 30000,
		      "every trial kept, the long line's included (solo %zu, non-sibling %zu)",
		      solo >= 0 ? d->groups[solo].n : 0, non >= 0 ? d->groups[non].n : 0);
		bool ordered = d->point_count == 60002;
		for (size_t i = 1; ordered && i < d->point_count; i++)
			ordered = d->points[i].trial > d->points[i - 1].trial;
		CHECK(ordered, "points sorted into trial order");
		CHECK(d->warning_count == 1 &&
		      strstr(d->warnings[0], want),
		      "the bad line after the long one is named by its number (%s)",
		      d->warning_count ? d->warnings[0] : "no warning");
		CHECK(line == 90004, "the file had %ld lines", line);
		analysis_dataset_free(&d);
	}
}

int main(void)
{
	splitter_matches_reference();
	char dir[] = "/tmp/smtbench-test-load-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char path[256];
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	values_match_strtod(dir, path);
	long_lines_and_order(dir, path);
	unlink(path);
	rmdir(dir);
	return test_done("test_analysis_load_fast");
}
