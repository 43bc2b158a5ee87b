/*
 * workload.h — what a process of a trial runs: one of the kernels with its iteration count, or
 * a user's command, resolved to an executable before any trial starts.
 *
 * Error policy: the x… functions exit with a one-line message (status 2 for the user's mistake,
 * 1 for a build problem), as xmalloc does; they are for the command line's set-up only.
 */
#ifndef SMTBENCH_RUNNER_WORKLOAD_H
#define SMTBENCH_RUNNER_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* What one role runs: a kernel with its iteration count, or a user's command. */
struct workload {
	char *name;   /* kernel name or the command's file name (for samples.csv) */
	char *path;   /* resolved executable, an absolute path */
	char sha256[65]; /* its content's SHA-256 in hex, when it was read ("" before) */
	char **argv;  /* NULL-terminated, owned */
	bool is_kernel;
	bool named;   /* name was given (run --name), not taken from the kernel or argv[0] */
};

/* A name given with run --name: 1 to WORKLOAD_NAME_MAX bytes of WORKLOAD_NAME_CHARS, so that it
 * goes into samples.csv's workload column, the reports and fleet's groups as it is. */
#define WORKLOAD_NAME_MAX 64
#define WORKLOAD_NAME_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-"
#define WORKLOAD_NAME_RULE "1 to 64 bytes of A-Z, a-z, 0-9, '.', '_', '+' and '-'"

/* Whether name follows the rule above. */
bool workload_name_valid(const char *name);

/* Gives w the name (copied) in place of its kernel's or argv[0]'s, marked as given. */
void workload_set_name(struct workload *w, const char *name);

/* w's name and argv for kernel `name` with `iters` iterations (its file is the caller's). */
void workload_set_kernel(struct workload *w, const char *name, unsigned long iters);

/* Fills w to run kernel `name` with `iters` iterations. Exits 2 on an unknown kernel, 1 when
 * its executable is missing (a build problem, not the user's). */
void xworkload_kernel(struct workload *w, const char *name, unsigned long iters);

/* Fills w to run argv[0..argc) (copied), found on PATH the way execvp would. Exits 2 when it
 * cannot be executed: not found, not executable, a directory, or neither an ELF file nor a #!
 * script with a usable interpreter. */
void xworkload_command(struct workload *w, char *const *argv, int argc);

/* Whether xworkload_command would accept a command named name (found on PATH as execvp finds
 * it, executable, an ELF file or a #! script with a usable interpreter): 0, or -1 with err the
 * reason alone (the caller names the command). */
int workload_command_check(const char *name, char *err, size_t err_size);

/* Whether execve could take argv (NULL-terminated) with this process's environment: each word
 * within the kernel's limit for one argument (32 pages, MAX_ARG_STRLEN) and the words, the
 * environment and their pointers together within sysconf(_SC_ARG_MAX). 0, or -1 with err
 * saying which limit and by how much (the caller names the command). Checked up front, so a
 * command that could never start is refused before a folder is written, not as E2BIG in every
 * trial. */
int workload_argv_fits(char *const *argv, char *err, size_t err_size);

/* For --resume of a folder that recorded no path: w->argv came from meta.json alone; resolves
 * it as xworkload_command does. */
void xworkload_resolve(struct workload *w);

/*
 * For --resume: w->path and w->sha256 came from meta.json (and w->argv too for a command). The
 * run continues with exactly that file: exits 2, naming it and the folder `dir`, when it is
 * gone, cannot be executed, or its content is no longer what was recorded. With `kernel` set,
 * w becomes that kernel with `iters` iterations; else w keeps its name (a matrix's, loaded with
 * it), or a command is named by its file.
 */
void xworkload_recorded(struct workload *w, const char *kernel, unsigned long iters,
                        const char *dir);

/* A command's words in meta.json, exactly (text_to_json; null for NULL), and back: NULL for
 * anything but a non-empty array of such words. */
json_t *workload_argv_json(char *const *argv);
char **workload_argv_from_json(const json_t *a);
/* A workload's recorded file, w's absolute "path" and "sha256", into out; false if not so. */
bool workload_file_from_json(const json_t *w, struct workload *out);

/* Frees what w owns and zeroes it. */
void workload_release(struct workload *w);

/* The two variables every workload finds in its environment, so that a program can size its
 * thread pool: the CPUs it is bound to, in Linux's list form ("2,3", ascending), and its
 * placement's name ("sibling"). */
#define WORKLOAD_ENV_CPUS "SMTBENCH_CPUS"
#define WORKLOAD_ENV_PLACEMENT "SMTBENCH_PLACEMENT"

/* An environment for one process of a trial: the runner's, without any SMTBENCH_CPUS or
 * SMTBENCH_PLACEMENT it had, plus those two. Owns envp's array and the two strings it adds (the
 * others are the runner's environ's). */
struct workload_env {
	char **envp;       /* NULL-terminated, for execve */
	char *cpus_var, *placement_var;
};

/* Fills env for a process bound to cpus[0..ncpus) in placement placement_name. */
void workload_env_init(struct workload_env *env, const int *cpus, int ncpus,
                       const char *placement_name);
/* Frees what env owns and zeroes it. */
void workload_env_release(struct workload_env *env);

#endif
