/*
 * test_verdict — the unsettled sentence names the quantity the answer rested on: the paired
 * blocks for a paired comparison (30 trials a side can be a handful of pairs), each side's count
 * for an unpaired one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/words.h"
#include "tests/harness.h"

static struct analysis_comparison unsettled(enum analysis_design design)
{
	struct analysis_comparison c;
	memset(&c, 0, sizeof c);
	c.design = design;
	c.a.name = "sibling";
	c.b.name = "non-sibling";
	c.a.n = 30;
	c.b.n = 30;
	c.blocks_paired = 6;
	c.blocks_dropped = 24;
	c.paired_grid.at_bound = design == ANALYSIS_DESIGN_PAIRED;
	c.grid.at_bound = design == ANALYSIS_DESIGN_UNPAIRED;
	c.p_a_gt_b = 0.7;
	c.p_rope = NAN;
	c.verdict = ANALYSIS_VERDICT_UNDECIDED;
	return c;
}

static const struct analysis_dataset folder = { .from_folder = true, .unit = ANALYSIS_UNIT_TRIAL };
static const struct verdict_words words = {
	.where = "", .a = "sibling", .subject = NULL, .note = "", .capitalise = true, .data = &folder,
};

int main(void)
{
	struct analysis_comparison paired = unsettled(ANALYSIS_DESIGN_PAIRED);
	CHECK(!analysis_comparison_settled(&paired), "a paired comparison at its grid's bound is unsettled");
	char *s = verdict_sentence(&paired, NAN, &words);
	CHECK(s && strstr(s, "with these paired blocks (6 paired, 24 dropped)"),
	      "paired: the sentence counts the paired and dropped blocks the answer rests on: %s", s ? s : "");
	CHECK(s && !strstr(s, "n = 30"), "paired: it does not quote each side's 30 trials as the sample size");
	CHECK(s && strstr(s, "run more blocks (10 or more paired)"), "paired: more blocks is what it asks for");
	CHECK(s && strstr(s, "P(slower) = 0.70"), "paired: P(slower) is kept");
	free(s);

	paired.blocks_paired = 3;
	s = verdict_sentence(&paired, NAN, &words);
	CHECK(s && strstr(s, "with so few paired blocks (3 paired, 24 dropped): the interval is "
	                      "unbounded at this number of blocks"),
	      "paired, 3 blocks: so few, said in blocks: %s", s ? s : "");
	free(s);

	struct analysis_comparison unpaired = unsettled(ANALYSIS_DESIGN_UNPAIRED);
	s = verdict_sentence(&unpaired, NAN, &words);
	CHECK(s && strstr(s, "Not enough data to say: sibling cannot be told apart from non-sibling "
	                      "with these trials (n = 30 and 30)"),
	      "unpaired: each side's count, as before: %s", s ? s : "");
	CHECK(s && strstr(s, "run more trials (10 or more per placement)"), "unpaired: more trials");
	free(s);
	return test_done("test_verdict");
}
