/*
 * test_kernels.c — the kernel table matches asm/, lookups behave, and kernel_path finds the
 * built executables (through SMTBENCH_KERNEL_DIR, since this binary lives in BUILD/tests/)
 * and explains itself when it cannot.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/kernels.h"
#include "common/alloc.h"
#include "tests/harness.h"

/* The order the issue lists them in, which --list-kernels shows. */
static const char *const expected_order[] = {
	"nop", "mul-latency", "mul-throughput", "pause", "l1-load", "mem-chase", "avx2-fma",
	"nop-2t",
};

/* Whether asm_dir holds NAME.asm. */
static int has_asm_file(const char *asm_dir, const char *name)
{
	char *path = xasprintf("%s/%s.asm", asm_dir, name);
	int found = access(path, R_OK) == 0;
	free(path);
	return found;
}

static void test_table_matches_asm_dir(const char *root)
{
	char *asm_dir = xasprintf("%s/asm", root);
	DIR *dir = opendir(asm_dir);
	if (!CHECK(dir != NULL, "asm/ is readable at %s", asm_dir)) {
		free(asm_dir);
		return;
	}
	size_t asm_files = 0;
	struct dirent *entry;
	while ((entry = readdir(dir)) != NULL) {
		size_t len = strlen(entry->d_name);
		if (len <= 4 || strcmp(entry->d_name + len - 4, ".asm") != 0)
			continue;
		asm_files++;
		char *name = xstrdup(entry->d_name);
		name[len - 4] = '\0';
		CHECK(kernel_find(name) != NULL, "asm/%s.asm has an entry in the kernel table", name);
		free(name);
	}
	closedir(dir);
	CHECK_INT(kernel_count(), asm_files, "kernel_count() equals the number of asm/*.asm files");
	for (size_t i = 0; i < kernel_count(); i++)
		CHECK(has_asm_file(asm_dir, kernel_at(i)->name), "table entry %s has asm/%s.asm",
		      kernel_at(i)->name, kernel_at(i)->name);
	free(asm_dir);
}

static void test_table_entries(void)
{
	size_t n = sizeof expected_order / sizeof expected_order[0];
	CHECK_INT(kernel_count(), n, "kernel_count()");
	for (size_t i = 0; i < n && i < kernel_count(); i++)
		CHECK_STR(kernel_at(i)->name, expected_order[i], "kernel_at(i)->name in the issue's order");
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel *k = kernel_at(i);
		CHECK(k->bound_by && *k->bound_by && k->summary && *k->summary && k->default_iters > 0,
		      "%s has bound_by, a summary and default_iters > 0", k->name);
		CHECK(kernel_find(k->name) == k, "kernel_find(\"%s\") returns its own entry", k->name);
		for (size_t j = i + 1; j < kernel_count(); j++)
			if (strcmp(k->name, kernel_at(j)->name) == 0)
				CHECK(0, "kernel name %s appears twice", k->name);
	}
	CHECK(kernel_at(kernel_count()) == NULL, "kernel_at(count) is NULL");
	CHECK(kernel_find("no-such-kernel") == NULL, "kernel_find of an unknown name is NULL");
	CHECK(kernel_find("") == NULL, "kernel_find(\"\") is NULL");
	CHECK(kernel_find(NULL) == NULL, "kernel_find(NULL) is NULL");
	CHECK(kernel_find("NOP") == NULL, "kernel names are case-sensitive");
}

static void test_path_with_override(const char *build)
{
	char *dir = xasprintf("%s/kernels", build);
	setenv("SMTBENCH_KERNEL_DIR", dir, 1);
	for (size_t i = 0; i < kernel_count(); i++) {
		const char *name = kernel_at(i)->name;
		char err[512] = "";
		char *path = kernel_path(name, err, sizeof err);
		char *want = xasprintf("%s/%s", dir, name);
		CHECK_STR(path, want, "kernel_path with SMTBENCH_KERNEL_DIR");
		CHECK(path && access(path, X_OK) == 0, "%s is executable", want);
		free(want);
		free(path);
	}

	char err[512] = "";
	char *path = kernel_path("no-such-kernel", err, sizeof err);
	CHECK(path == NULL && strstr(err, "unknown kernel 'no-such-kernel'"),
	      "an unknown kernel is refused: %s", err);
	free(path);

	setenv("SMTBENCH_KERNEL_DIR", "/nonexistent-smtbench-dir", 1);
	err[0] = '\0';
	path = kernel_path("nop", err, sizeof err);
	CHECK(path == NULL, "a wrong SMTBENCH_KERNEL_DIR is an error, not a fallback");
	CHECK(strstr(err, "/nonexistent-smtbench-dir/nop") && strstr(err, "run make"),
	      "the error names the path tried and says to run make: %s", err);
	free(path);

	/* A directory where NAME exists but is not executable. */
	char tmpl[] = "/tmp/smtbench-kernels.XXXXXX";
	if (CHECK(mkdtemp(tmpl) != NULL, "mkdtemp")) {
		char *file = xasprintf("%s/nop", tmpl);
		FILE *f = fopen(file, "w");
		if (f)
			fclose(f);
		setenv("SMTBENCH_KERNEL_DIR", tmpl, 1);
		path = kernel_path("nop", err, sizeof err);
		CHECK(path == NULL && strstr(err, file), "a non-executable file is not a kernel: %s", err);
		free(path);
		unlink(file);
		rmdir(tmpl);
		free(file);
	}

	/* A tiny buffer truncates the message but still terminates it. */
	char small[16];
	memset(small, 'x', sizeof small);
	path = kernel_path("nop", small, sizeof small);
	CHECK(path == NULL && strlen(small) == sizeof small - 1, "the message fits a small buffer");
	free(path);
	free(dir);
}

/* Without the override this binary (BUILD/tests/) looks in BUILD/tests/kernels/, which does
 * not exist, then in kernel_install_dir(), which exists only after make install. */
static void test_path_search(void)
{
	unsetenv("SMTBENCH_KERNEL_DIR");
	char err[1024] = "";
	char *path = kernel_path("nop", err, sizeof err);
	char *installed = xasprintf("%s/nop", kernel_install_dir());
	if (path) {
		CHECK(strcmp(path, installed) == 0,
		      "found only in the install directory: %s", path);
	} else {
		CHECK(strstr(err, "/tests/kernels/nop") != NULL,
		      "the error names <dir of this program>/kernels/nop: %s", err);
		CHECK(strstr(err, installed) != NULL,
		      "the error names the install directory: %s", err);
		CHECK(strstr(err, "run make") != NULL, "the error says to run make");
	}

	setenv("SMTBENCH_KERNEL_DIR", "", 1);
	char err2[1024] = "";
	char *path2 = kernel_path("nop", err2, sizeof err2);
	CHECK(path ? path2 && strcmp(path, path2) == 0 : !path2 && strcmp(err, err2) == 0,
	      "an empty SMTBENCH_KERNEL_DIR means no override");
	free(installed);
	free(path);
	free(path2);
}

/* Copies the file at from to to, with mode; 0 on success. */
static int copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	int ok = in >= 0 && out >= 0;
	char buf[65536];
	ssize_t n;
	while (ok && (n = read(in, buf, sizeof buf)) > 0)
		ok = write(out, buf, (size_t)n) == n;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* The build-tree search, for real: a copy of this program in DIR/ with DIR/kernels/nop beside
 * it, run as `DIR/prog --print-kernel-path nop`, must print DIR/kernels/nop. */
static void test_path_beside_program(void)
{
	char dir[] = "/tmp/smtbench-prefix.XXXXXX";
	if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp"))
		return;
	char *prog = xasprintf("%s/prog", dir);
	char *kdir = xasprintf("%s/kernels", dir);
	char *kernel = xasprintf("%s/kernels/nop", dir);
	int ready = copy_file("/proc/self/exe", prog, 0755) == 0 && mkdir(kdir, 0755) == 0 &&
	            copy_file("/dev/null", kernel, 0755) == 0;
	if (CHECK(ready, "set up %s with a copy of this program and kernels/nop", dir)) {
		int fds[2];
		char out[1024] = "";
		if (pipe(fds) == 0) {
			pid_t pid = fork();
			if (pid == 0) {
				dup2(fds[1], STDOUT_FILENO);
				close(fds[0]);
				close(fds[1]);
				unsetenv("SMTBENCH_KERNEL_DIR");
				execl(prog, prog, "--print-kernel-path", "nop", (char *)NULL);
				_exit(127);
			}
			close(fds[1]);
			size_t got = 0;
			ssize_t n;
			while (got < sizeof out - 1 &&
			       (n = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
				got += (size_t)n;
			out[got] = '\0';
			close(fds[0]);
			int status = 0;
			waitpid(pid, &status, 0);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the copy ran");
		}
		out[strcspn(out, "\n")] = '\0';
		const char *printed = out;
		CHECK_STR(printed, kernel, "kernel_path finds kernels/NAME beside the program");
	}
	unlink(kernel);
	rmdir(kdir);
	unlink(prog);
	rmdir(dir);
	free(kernel);
	free(kdir);
	free(prog);
}

int main(int argc, char **argv)
{
	/* The helper mode of test_path_beside_program. */
	if (argc == 3 && strcmp(argv[1], "--print-kernel-path") == 0) {
		char err[1024];
		char *path = kernel_path(argv[2], err, sizeof err);
		printf("%s\n", path ? path : err);
		free(path);
		return path ? 0 : 1;
	}

	const char *root = getenv("SMTBENCH_ROOT");
	const char *build = getenv("SMTBENCH_BUILD");
	test_table_entries();
	test_table_matches_asm_dir(root ? root : ".");
	if (build)
		test_path_with_override(build);
	else
		test_skip("SMTBENCH_BUILD not set: run through tests/run.sh");
	test_path_search();
	test_path_beside_program();
	return test_done("test_kernels");
}
