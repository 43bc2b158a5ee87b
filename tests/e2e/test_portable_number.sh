#!/usr/bin/env bash
# test_portable_number.sh — common/number.c reads eight digits at once on little-endian machines
# and one at a time elsewhere. This machine is little-endian, so the other path is built here as
# a big-endian machine's compiler sees it (no __BYTE_ORDER__): it compiles without a warning at
# the project's warning flags, and test_number's known answers hold on it.
source "$(dirname "$0")/lib.sh"

root=$SMTBENCH_ROOT
cc=${CC:-cc}
flags=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Werror -O1 -I"$root" -U__BYTE_ORDER__)
command -v "$cc" >/dev/null || skip_all "no C compiler ($cc) to build number.c's portable path"
check "number.c's digit-at-a-time path compiles with no warning (-Wall -Wextra -Werror)" \
	"$cc" "${flags[@]}" -c "$root/common/number.c" -o "$t_tmp/number.o"
check "…and test_number links with it" "$cc" "${flags[@]}" -o "$t_tmp/test_number" \
	"$root/tests/unit/test_number.c" "$t_tmp/number.o" -lm
check "test_number's known answers hold on that path" eval '"$t_tmp/test_number" >"$t_tmp/out" 2>&1'
check "…all of them (no 'not ok' line)" eval '! grep -q "^not ok" "$t_tmp/out" && grep -q "^ok" "$t_tmp/out"'
done_testing
