/*
 * fuzz_common.h — what the fuzz harnesses share: one temporary folder per fuzzing process, and
 * writing a fuzz input into a file there. Harness code only (not linked into smtbench).
 */
#ifndef SMTBENCH_TESTS_FUZZ_COMMON_H
#define SMTBENCH_TESTS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The process's scratch folder, made on first use (libFuzzer runs one input at a time). */
static inline const char *fuzz_dir(void)
{
	static char dir[] = "/tmp/smtbench-fuzz-XXXXXX";
	static int made;
	if (!made) {
		if (!mkdtemp(dir))
			abort();
		made = 1;
	}
	return dir;
}

/* Writes bytes to DIR/NAME (replacing it); aborts when it cannot, since that is not a finding. */
static inline void fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
}

static inline void fuzz_remove(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
	unlink(path);
}

#endif
