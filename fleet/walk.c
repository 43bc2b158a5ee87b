/*
 * walk.c — the results folders under the folders given (internal.h), found with fts(3).
 *
 * The real folders are walked first (FTS_PHYSICAL: a link is an entry, not a way in), each
 * searched once by its identity (device and inode), so that a folder given twice, or given
 * inside another, is listed once. The links to folders found on the way are followed after
 * (in the order found, their own links after them), so that the nodes are read and named
 * through the paths without a link: a link is followed only when its target lies inside the
 * folders given (`ln -s /usr x` is not walked), is not a folder the link is in (`ln -s . again`
 * is a loop), and was not searched already; else it is listed once, with why. Two paths to one
 * results folder are told apart at the end (mark_duplicates). Hidden folders (a fleet report's
 * temporary files, .git) are not searched; folders more than FLEET_MAX_DEPTH levels down are
 * not either, and the folder whose subfolders they are is listed, as is a folder that cannot be
 * listed or searched, and one whose name is not printable text.
 */
#include <dirent.h>
#include <errno.h>
#include <fts.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/text.h"
#include "fleet/fleet.h"
#include "fleet/internal.h"

/* Folders nested deeper than this under a given folder are not searched (a path given by
 * mistake): the folder at this depth that has subfolders is listed as skipped. */
enum { FLEET_MAX_DEPTH = 8 };

struct walk {
	struct found_list *out;
	char **roots;              /* realpath() of each folder given */
	size_t root_count;
	struct searched { dev_t dev; ino_t ino; char *path; } *searched; /* every folder searched */
	size_t searched_count, searched_cap;
	struct link { char *path; int depth; } *links; /* links to folders, to follow after */
	size_t link_count, link_cap;
};

/* Adds a folder found (path copied) with the reason it is skipped (taken; NULL: to be read). A
 * path that is not printable text is skipped: the reports could not name it, and must not drop
 * it. */
static void found(struct walk *w, const char *path, char *reason)
{
	if (!strncmp(path, "./", 2) && path[2])
		path += 2; /* "./x" is shown as "x", the way a person would type it */
	if (reason) { /* it may quote a link's target or another path: escaped, as every path */
		char *clean = xescaped(reason);
		free(reason);
		reason = clean;
	} else if (!text_is_printable(path)) {
		reason = xstrdup("its name is not printable UTF-8 text (shown here with \\xNN escapes): "
		                 "rename it to be reported");
	}
	struct stat st;
	bool known = stat(path, &st) == 0;
	w->out->items = xreallocarray(w->out->items, w->out->count + 1, sizeof *w->out->items);
	w->out->items[w->out->count++] = (struct found){ xstrdup(path), xescaped(path), reason,
	                                                 known ? st.st_dev : 0, known ? st.st_ino : 0 };
}

bool fleet_has_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	bool yes = access(path, F_OK) == 0;
	free(path);
	return yes;
}

bool fleet_is_results_folder(const char *dir)
{
	return fleet_has_file(dir, "meta.json") || fleet_has_file(dir, "samples.csv");
}

/* The path a folder st was searched through, or NULL when it has not been. */
static const char *searched_as(const struct walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->searched_count; i++)
		if (w->searched[i].dev == st->st_dev && w->searched[i].ino == st->st_ino)
			return w->searched[i].path;
	return NULL;
}

/* Whether the real path path is the real folder dir or lies in it. */
static bool path_within(const char *path, const char *dir)
{
	size_t len = strlen(dir);
	return !strncmp(path, dir, len)
	       && (path[len] == '/' || path[len] == '\0' || !strcmp(dir, "/"));
}

/* Whether the real path real lies in one of the folders given. */
static bool inside_roots(const struct walk *w, const char *real)
{
	for (size_t i = 0; i < w->root_count; i++)
		if (path_within(real, w->roots[i]))
			return true;
	return false;
}

/* Whether the real path real is the folder the link at path lies in, or one above it. */
static bool link_is_loop(const char *path, const char *real)
{
	/* The folder the link is in, cut from its path: "path/.." would go through the link. */
	char *parent = xstrdup(path), *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	char *parent_real = realpath(slash ? (*parent ? parent : "/") : ".", NULL);
	bool loop = parent_real && path_within(parent_real, real);
	free(parent);
	free(parent_real);
	return loop;
}

/* The reason of a folder that cannot be listed, errno's error as why. */
static char *unlistable(int error)
{
	return xasprintf("cannot be listed (%s): not searched for results folders; make it readable",
	                 strerror(error));
}

/* A folder entered: a results folder (listed, not entered), one that cannot be searched, one
 * searched already, one too deep, or one to search. Whether fts should enter it. */
static bool enter(struct walk *w, FTSENT *e, int depth)
{
	const char *path = e->fts_path;
	if (e->fts_level > 0 && e->fts_name[0] == '.')
		return false;
	if (depth > FLEET_MAX_DEPTH) { /* its parent is listed once: its subfolders are too deep */
		/* fts's entries share one path buffer: the parent's path is its first fts_pathlen. */
		char *parent = strndup(e->fts_parent->fts_path, e->fts_parent->fts_pathlen);
		if (parent && e->fts_parent->fts_number++ == 0)
			found(w, parent, xasprintf("its subfolders are deeper than %d levels below the "
			                           "folder given: not searched; give a folder nearer to "
			                           "them", FLEET_MAX_DEPTH));
		free(parent);
		return false;
	}
	if (access(path, X_OK) != 0) { /* no search permission: not even meta.json can be seen */
		found(w, path, access(path, R_OK) != 0 ? unlistable(errno)
		      : xstrdup("cannot be searched (it is readable but has no search permission): "
		                "make it searchable (chmod +x)"));
		return false;
	}
	if (fleet_is_results_folder(path)) {
		found(w, path, NULL);
		return false;
	}
	const char *as = searched_as(w, e->fts_statp);
	if (as) { /* given twice, or one given inside another */
		found(w, path, xasprintf("the same folder as %s, searched there: counted once", as));
		return false;
	}
	if (access(path, R_OK) != 0) {
		found(w, path, unlistable(errno));
		return false;
	}
	xgrow(&w->searched, &w->searched_cap, w->searched_count + 1, sizeof *w->searched);
	w->searched[w->searched_count++] = (struct searched){ e->fts_statp->st_dev,
	                                                      e->fts_statp->st_ino, xstrdup(path) };
	return true;
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/* Walks the real folders under root (root itself may be a link: it is followed), root being
 * depth levels below the folder given; the links to folders on the way are kept for later. */
static void walk_tree(struct walk *w, const char *root, int depth)
{
	char *paths[] = { (char *)root, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_COMFOLLOW | FTS_NOCHDIR, by_name);
	FTSENT *e;
	struct stat st;
	while (fts && (e = fts_read(fts))) {
		int at = depth + (int)e->fts_level;
		if (e->fts_info == FTS_D && !enter(w, e, at))
			fts_set(fts, e, FTS_SKIP);
		else if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR)
			found(w, e->fts_path, unlistable(e->fts_errno));
		else if (e->fts_info == FTS_DC) /* a folder inside itself (a bind mount) */
			found(w, e->fts_path, xstrdup("a folder inside itself (a loop): not searched "
			                              "again"));
		else if ((e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE) && e->fts_name[0] != '.'
		         && stat(e->fts_accpath, &st) == 0 && S_ISDIR(st.st_mode)) {
			xgrow(&w->links, &w->link_cap, w->link_count + 1, sizeof *w->links);
			w->links[w->link_count++] = (struct link){ xstrdup(e->fts_path), at };
		}
	}
	if (fts)
		fts_close(fts);
}

/* Follows the links found, after the real folders (the links found on the way are appended and
 * followed in turn): each is searched only when its target lies inside the folders given, is not
 * a folder the link is in, and has not been searched already; else it is listed once with why. */
static void follow_links(struct walk *w)
{
	for (size_t i = 0; i < w->link_count; i++) {
		struct link l = w->links[i];
		char *real = realpath(l.path, NULL);
		struct stat st;
		const char *as;
		if (!real)
			found(w, l.path, xasprintf("a link whose target cannot be resolved (%s): not "
			                           "followed", strerror(errno)));
		else if (!inside_roots(w, real))
			found(w, l.path, xasprintf("a link to %s, outside the folders given: not followed; "
			                           "give that folder itself to include it", real));
		else if (link_is_loop(l.path, real))
			found(w, l.path, xstrdup("a link back to a folder it is in (a loop): not followed"));
		else if (stat(real, &st) == 0 && !fleet_is_results_folder(real)
		         && (as = searched_as(w, &st)))
			found(w, l.path, xasprintf("a link to the same folder as %s, searched there: "
			                           "counted once", as));
		else if (l.depth > FLEET_MAX_DEPTH)
			found(w, l.path, xasprintf("a link deeper than %d levels below the folder given: "
			                           "not followed; give a folder nearer to it",
			                           FLEET_MAX_DEPTH));
		else
			walk_tree(w, l.path, l.depth);
		free(real);
	}
}

/* How many of the path's components are symbolic links. */
static size_t links_in(const char *path)
{
	char *prefix = xstrdup(path);
	size_t links = 0;
	for (char *cut = prefix; *cut;) {
		char *slash = strchr(cut + (*cut == '/'), '/');
		if (slash)
			*slash = '\0';
		struct stat st;
		links += lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode);
		if (!slash)
			break;
		*slash = '/';
		cut = slash;
	}
	free(prefix);
	return links;
}

/* The same folder found twice (through a link, or given twice) is read once: through the path
 * with the fewest links (the first of those, in path order); each other path to it is skipped,
 * naming that one. */
static void mark_duplicates(struct found_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		struct found *it = &l->items[i];
		if (it->reason || !it->ino)
			continue;
		size_t keep = i, fewest = links_in(it->path), links;
		for (size_t k = i + 1; k < l->count; k++)
			if (!l->items[k].reason && l->items[k].dev == it->dev && l->items[k].ino == it->ino
			    && (links = links_in(l->items[k].path)) < fewest) {
				keep = k;
				fewest = links;
			}
		for (size_t k = i; k < l->count; k++) {
			struct found *other = &l->items[k];
			if (k != keep && !other->reason && other->dev == it->dev && other->ino == it->ino)
				other->reason = xasprintf("same folder as %s (a link, or given twice): "
				                          "counted once", l->items[keep].shown);
		}
	}
}

static int by_path(const void *pa, const void *pb)
{
	return strcmp(((const struct found *)pa)->path, ((const struct found *)pb)->path);
}

int fleet_find(char *const *dirs, size_t count, struct found_list *out, char *err,
               size_t err_size)
{
	*out = (struct found_list){ NULL, 0 };
	struct walk w = { .out = out, .roots = xcalloc(count, sizeof *w.roots) };
	int rc = 0;
	for (size_t i = 0; i < count; i++)
		if ((w.roots[w.root_count] = realpath(dirs[i], NULL)))
			w.root_count++;
	for (size_t i = 0; i < count && rc == 0; i++) {
		struct stat st;
		DIR *readable = NULL;
		if (stat(dirs[i], &st) != 0 || !S_ISDIR(st.st_mode))
			set_error(err, err_size, "%s is not a directory; give the folder the runs wrote "
			          "into (FLEET_DIR)", dirs[i]);
		else if (!(readable = opendir(dirs[i])))
			set_error(err, err_size, "%s cannot be read (%s); give a folder you can read",
			          dirs[i], strerror(errno));
		if (!readable) {
			rc = -1;
			break;
		}
		closedir(readable);
		char *trimmed = xstrdup(dirs[i]);
		for (size_t len = strlen(trimmed); len > 1 && trimmed[len - 1] == '/'; len--)
			trimmed[len - 1] = '\0';
		walk_tree(&w, trimmed, 0);
		free(trimmed);
	}
	if (rc == 0) {
		follow_links(&w);
		if (out->count) /* none found: items is NULL, which qsort may not be given */
			qsort(out->items, out->count, sizeof *out->items, by_path);
		mark_duplicates(out);
	}
	strings_release(&w.roots, &w.root_count);
	for (size_t i = 0; i < w.searched_count; i++)
		free(w.searched[i].path);
	for (size_t i = 0; i < w.link_count; i++)
		free(w.links[i].path);
	free(w.searched);
	free(w.links);
	if (rc < 0)
		found_list_release(out);
	return rc;
}

void found_list_release(struct found_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->items[i].path);
		free(l->items[i].shown);
		free(l->items[i].reason);
	}
	free(l->items);
	*l = (struct found_list){ NULL, 0 };
}
