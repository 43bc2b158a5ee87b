/*
 * placements.c — the registry's rows and what is derived from them (see placements.h).
 */
#include "common/placements.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"

const struct placement_info placement_table[PLACEMENT_COUNT] = {
#define PLACEMENT_ROW_(id, name_, nprocs_, shared_, role_, headline_)           \
	[PLACEMENT_##id] = { .name = name_, .nprocs = nprocs_, .time_shared = shared_, \
	                     .role = PLACEMENT_ROLE_##role_, .headline_vs = headline_ },
	PLACEMENT_TABLE(PLACEMENT_ROW_)
#undef PLACEMENT_ROW_
};

const struct placement_info *placement_info_find(const char *name)
{
	size_t rank = placement_info_rank(name);
	return rank < PLACEMENT_COUNT ? &placement_table[rank] : NULL;
}

bool placement_info_time_shared(const char *name)
{
	const struct placement_info *p = placement_info_find(name);
	return p && p->time_shared;
}

size_t placement_info_rank(const char *name)
{
	size_t i = 0;
	while (name && i < PLACEMENT_COUNT && strcmp(name, placement_table[i].name))
		i++;
	return name ? i : PLACEMENT_COUNT;
}

size_t placement_comparisons(struct placement_comparison *out, size_t max)
{
	const char *baseline = NULL; /* the one every other placement is compared with */
	for (size_t i = 0; i < PLACEMENT_COUNT && !baseline; i++)
		if (placement_table[i].role == PLACEMENT_ROLE_BASELINE)
			baseline = placement_table[i].name;
	/* The headlines, then contention against the baseline, then control, each in table order. */
	size_t n = 0;
	for (int kind = COMPARISON_HEADLINE; kind <= COMPARISON_CONTROL; kind++)
		for (size_t i = 0; i < PLACEMENT_COUNT; i++) {
			const struct placement_info *p = &placement_table[i];
			enum placement_role role = kind == COMPARISON_CONTENTION ? PLACEMENT_ROLE_CONTENTION
			                                                         : PLACEMENT_ROLE_CONTROL;
			const char *b = kind == COMPARISON_HEADLINE ? p->headline_vs
			                : p->role == role ? baseline : NULL;
			if (b && n < max)
				out[n] = (struct placement_comparison){ p->name, b, (enum comparison_kind)kind };
			n += b != NULL;
		}
	return n;
}

const char *comparison_kind_name(enum comparison_kind kind)
{
	static const char *const names[] = {
		[COMPARISON_HEADLINE] = "headline",
		[COMPARISON_CONTENTION] = "contention",
		[COMPARISON_CONTROL] = "control",
		[COMPARISON_FILES] = "files",
		[COMPARISON_COMMANDS] = "commands",
		[COMPARISON_UNPLANNED] = "unplanned",
	};
	return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

const char *placement_name(enum placement p)
{
	if ((int)p < 0 || p >= PLACEMENT_COUNT)
		return "unknown";
	return placement_table[p].name;
}

int placement_parse(const char *name, enum placement *out)
{
	size_t rank = placement_info_rank(name);
	if (rank >= PLACEMENT_COUNT)
		return -1;
	*out = (enum placement)rank;
	return 0;
}

int placement_nprocs(enum placement p)
{
	return (int)p >= 0 && p < PLACEMENT_COUNT ? placement_table[p].nprocs : 0;
}

const char *placement_suggest(const char *word, char *buf, size_t len)
{
	const char *names[PLACEMENT_COUNT];
	for (size_t i = 0; i < PLACEMENT_COUNT; i++)
		names[i] = placement_table[i].name;
	text_suggest(word, names, PLACEMENT_COUNT, "", buf, len);
	return buf;
}

const char *placement_names_list(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < PLACEMENT_COUNT && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == PLACEMENT_COUNT ? " and " : ", ";
		int n = snprintf(buf + used, len - used, "%s%s", sep, placement_table[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}
