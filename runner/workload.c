#include "runner/workload.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sched.h>

#include <nettle/sha2.h>

#include "common/text.h"
#include "runner/kernels.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/fileio.h"

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
	if (!*name) { /* "" would find every PATH folder itself */
		errno = ENOENT;
		return NULL;
	}
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
		bool runnable = access(candidate, X_OK) == 0;
		if (runnable && stat(candidate, &st) == 0 && S_ISREG(st.st_mode))
			return candidate;
		/* A folder of that name is not a program (access succeeds on it, errno stays 0). */
		if (runnable)
			last_error = EACCES;
		else if (errno != ENOENT)
			last_error = errno;
		free(candidate);
		if (!p[len])
			break;
	}
	errno = last_error;
	return NULL;
}

/* The SHA-256 of the file at path into hex (64 digits and a NUL). 0, or -1 with err. */
static int workload_sha256(const char *path, char hex[65], char *err, size_t err_size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_error(err, err_size, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	unsigned char buf[65536];
	ssize_t n;
	while ((n = fileio_read_full(fd, buf, sizeof buf)) > 0)
		sha256_update(&ctx, (size_t)n, buf);
	int saved = errno;
	close(fd);
	if (n < 0) {
		set_error(err, err_size, "cannot read %s: %s", path, strerror(saved));
		return -1;
	}
	unsigned char digest[SHA256_DIGEST_SIZE];
	sha256_digest(&ctx, sizeof digest, digest);
	for (size_t i = 0; i < sizeof digest; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return 0;
}

/* path made absolute (symbolic links resolved: the file that runs) and hashed into w; exits 2
 * (EXIT_USAGE) when it cannot be resolved or read (it was just found executable). */
static void settle_file(struct workload *w, char *path)
{
	char *absolute = realpath(path, NULL);
	if (!absolute)
		text_err(EXIT_USAGE, "cannot execute '%s'", path);
	free(path);
	w->path = absolute;
	char err[ERR_LEN];
	if (workload_sha256(w->path, w->sha256, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "%s", err);
}

static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return xstrdup(slash ? slash + 1 : path);
}

void workload_set_kernel(struct workload *w, const char *name, unsigned long iters)
{
	w->name = xstrdup(name);
	w->argv = xcalloc(3, sizeof *w->argv);
	w->argv[0] = xstrdup(name);
	w->argv[1] = xasprintf("%lu", iters);
	w->is_kernel = true;
}

void xworkload_kernel(struct workload *w, const char *name, unsigned long iters)
{
	char message[512];
	if (!kernel_find(name))
		text_errx(EXIT_USAGE, "%s", kernel_unknown_message(name, message, sizeof message));
	char err[ERR_LEN];
	char *path = kernel_path(name, err, sizeof err);
	if (!path)
		text_errx(EXIT_FAILURE_RUNTIME, "%s", err);
	settle_file(w, path);
	workload_set_kernel(w, name, iters);
}

/* name found as execvp would find it, and something execve runs: a new string, or NULL with
 * the reason in err. */
static char *find_executable(const char *name, char *err, size_t err_size)
{
	char *path = resolve_command(name);
	int format_error = path ? exec_format_error(path) : errno;
	if (format_error == 0)
		return path;
	set_error(err, err_size, "%s%s", strerror(format_error), format_error == ENOEXEC
	          ? " (neither an ELF executable nor a #! script with a usable interpreter)" : "");
	free(path);
	return NULL;
}

int workload_command_check(const char *name, char *err, size_t err_size)
{
	char *path = find_executable(name, err, err_size);
	free(path);
	return path ? 0 : -1;
}

void xworkload_command(struct workload *w, char *const *argv, int argc)
{
	char why[ERR_LEN];
	char *path = find_executable(argv[0], why, sizeof why);
	/* "gzip -c f" quoted as one word: no shell splits it, execve looks for a file of that name. */
	bool one_word = argv[0][strcspn(argv[0], " \t")] != '\0';
	if (!path && one_word && !strchr(argv[0], '\''))
		text_errx(EXIT_USAGE, "cannot execute '%s': %s; it is one word holding blanks, and no "
		          "shell splits it here: write its words apart (%s, not quoted as one), or run a "
		          "shell (sh -c '%s')", argv[0], why, argv[0], argv[0]);
	if (!path && one_word)
		text_errx(EXIT_USAGE, "cannot execute '%s': %s; it is one word holding blanks, and no "
		          "shell splits it here: write its words apart (not quoted as one), or run a shell "
		          "(sh -c ...)",
		          argv[0], why);
	if (!path)
		text_errx(EXIT_USAGE, "cannot execute '%s': %s", argv[0], why);
	w->name = base_name(argv[0]);
	settle_file(w, path);
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

void xworkload_recorded(struct workload *w, const char *kernel, unsigned long iters,
                        const char *dir)
{
	char err[ERR_LEN], now[65];
	if (access(w->path, X_OK) != 0)
		text_errx(EXIT_USAGE, "cannot resume %s: its workload %s, recorded in meta.json, "
		          "is gone or cannot be executed (%s); restore that file, or start a new "
		          "run", dir, w->path, strerror(errno));
	if (workload_sha256(w->path, now, err, sizeof err) != 0)
		text_errx(EXIT_USAGE, "cannot resume %s: %s", dir, err);
	if (strcmp(now, w->sha256) != 0)
		text_errx(EXIT_USAGE, "cannot resume %s: its workload %s has changed since the "
		          "run started (SHA-256 %.12s... in meta.json, %.12s... now); restore "
		          "that file, or start a new run", dir, w->path, w->sha256, now);
	if (kernel) {
		strings_free(w->argv);
		workload_set_kernel(w, kernel, iters);
	} else if (!w->name) {
		w->name = base_name(w->argv[0]);
	}
}

json_t *workload_argv_json(char *const *argv)
{
	if (!argv)
		return json_null();
	json_t *a = json_array();
	for (; *argv; argv++)
		if (json_array_append_new(a, text_to_json(*argv)) != 0)
			text_errx(EXIT_FAILURE_RUNTIME, "out of memory building meta.json");
	return a;
}

char **workload_argv_from_json(const json_t *a)
{
	if (!json_is_array(a) || json_array_size(a) == 0)
		return NULL;
	size_t n = json_array_size(a);
	char **argv = xcalloc(n + 1, sizeof *argv);
	/* As workload_argv_json stored them: text, or {"hex": ...} for bytes that are not UTF-8. */
	for (size_t i = 0; i < n; i++) {
		argv[i] = text_from_json(json_array_get(a, i));
		if (!argv[i]) {
			strings_free(argv);
			return NULL;
		}
	}
	return argv;
}

bool workload_file_from_json(const json_t *w, struct workload *out)
{
	const char *sha = json_string_value(json_object_get(w, "sha256"));
	char *path = text_from_json(json_object_get(w, "path")); /* text or {"hex": ...} */
	if (!path || path[0] != '/' || !sha || strlen(sha) != 64
	    || strspn(sha, "0123456789abcdef") != 64) {
		free(path);
		return false;
	}
	out->path = path;
	snprintf(out->sha256, sizeof out->sha256, "%s", sha);
	return true;
}

bool workload_name_valid(const char *name)
{
	size_t len = strlen(name);
	return len >= 1 && len <= WORKLOAD_NAME_MAX && strspn(name, WORKLOAD_NAME_CHARS) == len;
}

void workload_set_name(struct workload *w, const char *name)
{
	free(w->name);
	w->name = xstrdup(name);
	w->named = true;
}

void workload_release(struct workload *w)
{
	free(w->name);
	free(w->path);
	strings_free(w->argv);
	memset(w, 0, sizeof *w);
}

/* Whether entry ("NAME=value") sets variable name. */
static bool sets_variable(const char *entry, const char *name)
{
	size_t len = strlen(name);
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

void workload_env_init(struct workload_env *env, const int *cpus, int ncpus,
                       const char *placement_name)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < ncpus; i++)
		CPU_SET(cpus[i], &set);
	char *list = text_cpu_list(&set, false);
	env->cpus_var = xasprintf("%s=%s", WORKLOAD_ENV_CPUS, list);
	free(list);
	env->placement_var = xasprintf("%s=%s", WORKLOAD_ENV_PLACEMENT, placement_name);
	size_t count = 0, k = 0;
	while (environ && environ[count])
		count++;
	env->envp = xcalloc(count + 3, sizeof *env->envp);
	for (size_t i = 0; i < count; i++)
		if (!sets_variable(environ[i], WORKLOAD_ENV_CPUS)
		    && !sets_variable(environ[i], WORKLOAD_ENV_PLACEMENT))
			env->envp[k++] = environ[i];
	env->envp[k++] = env->cpus_var;
	env->envp[k++] = env->placement_var;
	env->envp[k] = NULL;
}

void workload_env_release(struct workload_env *env)
{
	free(env->envp);
	free(env->cpus_var);
	free(env->placement_var);
	memset(env, 0, sizeof *env);
}

int workload_argv_fits(char *const *argv, char *err, size_t err_size)
{
	long page = sysconf(_SC_PAGESIZE), arg_max = sysconf(_SC_ARG_MAX);
	size_t word_max = (size_t)(page > 0 ? page : 4096) * 32, total = 0;
	size_t words = 0;
	for (char *const *a = argv; *a; a++, words++) {
		size_t len = strlen(*a) + 1;
		if (len > word_max) {
			set_error(err, err_size, "word %zu is %zu bytes long; the kernel takes at most %zu "
			          "bytes in one argument", words + 1, len - 1, word_max - 1);
			return -1;
		}
		total += len + sizeof(char *);
	}
	for (char **v = environ; v && *v; v++)
		total += strlen(*v) + 1 + sizeof(char *);
	/* the two NULLs, and the variables every workload gets (workload_env_init: its CPUs and
	 * placement), with room */
	total += 2 * sizeof(char *) + 4096;
	if (arg_max > 0 && total > (size_t)arg_max) {
		set_error(err, err_size, "its %zu words and the environment take %zu bytes; execve "
		          "takes at most %ld (ARG_MAX)", words, total, arg_max);
		return -1;
	}
	return 0;
}
