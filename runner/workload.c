#include "runner/workload.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/kernels.h"
#include "runner/util.h"

/*
 * What execve would say of an executable file it found: ENOEXEC unless it starts as an ELF file
 * or a #! script whose interpreter can be executed. Checked before a run, so that a wrong file is
 * one line and exit 2, not a folder full of failed trials.
 */
static int exec_format_error(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno;
	char head[256] = "";
	size_t n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	if (n >= 4 && !memcmp(head, "\x7f" "ELF", 4))
		return 0;
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return ENOEXEC;
	char *interpreter = head + 2;
	interpreter += strspn(interpreter, " \t");
	interpreter[strcspn(interpreter, " \t\n")] = '\0';
	return *interpreter && access(interpreter, X_OK) == 0 ? 0 : ENOEXEC;
}

/* Finds an executable the way execvp would, so that a missing command is reported with its
 * name before any trial starts. Returns a new string, or NULL with errno set. */
static char *resolve_command(const char *name)
{
	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0)
			return NULL;
		struct stat st;
		if (stat(name, &st) == 0 && S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return NULL;
		}
		return xstrdup(name);
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int last_error = ENOENT;
	for (const char *p = path;; p = strchr(p, ':') + 1) {
		size_t len = strcspn(p, ":");
		char *candidate = xasprintf("%.*s/%s", (int)len, len ? p : ".", name);
		struct stat st;
		if (access(candidate, X_OK) == 0 && stat(candidate, &st) == 0 && S_ISREG(st.st_mode))
			return candidate;
		if (errno != ENOENT)
			last_error = errno;
		free(candidate);
		if (!p[len])
			break;
	}
	errno = last_error;
	return NULL;
}

static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return xstrdup(slash ? slash + 1 : path);
}

void xworkload_kernel(struct workload *w, const char *name, unsigned long iters)
{
	const struct kernel *k = kernel_find(name);
	if (!k)
		errx(EXIT_USAGE, "unknown kernel '%s'; `smtbench run --list-kernels` lists them", name);
	char err[512];
	char *path = kernel_path(name, err, sizeof err);
	if (!path)
		errx(EXIT_FAILURE_RUNTIME, "%s", err);
	w->name = xstrdup(name);
	w->path = path;
	w->argv = xcalloc(3, sizeof *w->argv);
	w->argv[0] = xstrdup(name);
	w->argv[1] = xasprintf("%lu", iters);
	w->is_kernel = true;
}

void xworkload_command(struct workload *w, char *const *argv, int argc)
{
	char *path = resolve_command(argv[0]);
	if (!path)
		errx(EXIT_USAGE, "cannot execute '%s': %s", argv[0], strerror(errno));
	int format_error = exec_format_error(path);
	if (format_error)
		errx(EXIT_USAGE, "cannot execute '%s' (%s): %s%s", argv[0], path,
		     strerror(format_error), format_error == ENOEXEC
		     ? " (neither an ELF executable nor a #! script with a usable interpreter)" : "");
	w->name = base_name(argv[0]);
	w->path = path;
	w->argv = xcalloc((size_t)argc + 1, sizeof *w->argv);
	for (int i = 0; i < argc; i++)
		w->argv[i] = xstrdup(argv[i]);
	w->is_kernel = false;
}

void xworkload_resolve(struct workload *w)
{
	char **argv = w->argv;
	int argc = 0;
	while (argv[argc])
		argc++;
	w->argv = NULL;
	xworkload_command(w, argv, argc);
	strings_free(argv);
}


void workload_free(struct workload *w)
{
	free(w->name);
	free(w->path);
	strings_free(w->argv);
	memset(w, 0, sizeof *w);
}
