/*
 * internal.h — what fleet.c takes from walk.c and nothing outside fleet/ sees: the folders
 * found under the folders given.
 */
#ifndef SMTBENCH_FLEET_INTERNAL_H
#define SMTBENCH_FLEET_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A folder found: a results folder to read, or one that cannot be read (reason set). */
struct found {
	char *path;                /* as found: what is opened */
	char *shown;               /* as reported (escaped) */
	char *reason;              /* why it is skipped without reading it, or NULL */
	dev_t dev;                 /* the folder's identity: two paths to one folder (a link, */
	ino_t ino;                 /* the same folder given twice) are one node */
};

struct found_list {
	struct found *items;       /* in path order */
	size_t count;
};

/* Every results folder (a folder holding meta.json or samples.csv) under the folders given (a
 * given folder may itself be one), and every folder that cannot be searched, with why (walk.c
 * says what is searched, and how links are followed). 0, or -1 with err for a given path that
 * is not a folder that can be read. The list is the caller's (found_list_release). */
int fleet_find(char *const *dirs, size_t count, struct found_list *out, char *err,
               size_t err_size);
void found_list_release(struct found_list *l);

/* Whether dir holds a file (of any kind) named name. */
bool fleet_has_file(const char *dir, const char *name);

#endif
