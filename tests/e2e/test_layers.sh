#!/usr/bin/env bash
# The layers (docs/DESIGN.md, "Layers"): every #include in common/ topology/ runner/ analysis/ report/
# fleet/ cli/ goes one way, and a folder's internal.h stays inside it (tests/tools/check_layers.py,
# where the rules are written). The checker is also shown to catch each kind of break, naming
# the file and line, on a copy of the tree with one bad include planted.
source "$(dirname "$0")/lib.sh"
checker=$SMTBENCH_ROOT/tests/tools/check_layers.py

check_status 0 "every include of the source tree follows the layers" python3 "$checker" "$SMTBENCH_ROOT"
check "... and it counted them (more than 100)" python3 -c '
import sys; n = int(sys.argv[1].split()[0]); assert n > 100, n' "$t_out"

copy=$t_tmp/tree
for layer in common topology runner analysis report fleet cli; do
	mkdir -p "$copy/$layer"
	cp "$SMTBENCH_ROOT/$layer"/*.[ch] "$copy/$layer/"
done
plant() { # plant FILE 'LINE': one more include at the end of FILE in the copy
	cp "$SMTBENCH_ROOT/$1" "$copy/$1"
	printf '%s\n' "$2" >>"$copy/$1"
}
line_of() { wc -l <"$copy/$1" | tr -d ' '; }

plant runner/trial.c '#include "analysis/analysis.h"'
check_status 1 "the runner including the analysis is caught" python3 "$checker" "$copy"
check "... naming the file and line and the rule" \
	contains "$t_out" "runner/trial.c:$(line_of runner/trial.c): \"analysis/analysis.h\": runner/ may not include analysis/"
cp "$SMTBENCH_ROOT/runner/trial.c" "$copy/runner/trial.c"

plant common/fileio.c '#include "topology/topology.h"'
check_status 1 "common including a layer above it is caught" python3 "$checker" "$copy"
check "... naming it" contains "$t_out" "common/fileio.c:$(line_of common/fileio.c): \"topology/topology.h\": common/ may not include topology/"
cp "$SMTBENCH_ROOT/common/fileio.c" "$copy/common/fileio.c"

plant fleet/fleet.c '#include "report/internal.h"'
check_status 1 "another layer's private internal.h is caught" python3 "$checker" "$copy"
check "... naming it" contains "$t_out" "\"report/internal.h\": report/internal.h is private to report/"
cp "$SMTBENCH_ROOT/fleet/fleet.c" "$copy/fleet/fleet.c"

plant report/svg.c '#include "svg.h"'
check_status 1 "an include without its layer's folder is caught" python3 "$checker" "$copy"
check "... naming it" contains "$t_out" "report/svg.c:$(line_of report/svg.c): \"svg.h\": include a layer's header as \"LAYER/NAME.h\""
cp "$SMTBENCH_ROOT/report/svg.c" "$copy/report/svg.c"

check_status 0 "the copy with every plant removed passes again" python3 "$checker" "$copy"
done_testing
