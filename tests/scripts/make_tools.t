#!/usr/bin/env bash
# make_tools.t (issue 29 item 9): `make tools` builds the host programs of tools/*.mk and
# nothing else: no unit test under build/host/tests/, no kernel object. Checked on make's
# dry run into an empty build directory, so nothing is compiled.
set -u
cd "$(dirname "$0")/../.." || exit 1
t=$(mktemp -d "${TMPDIR:-/tmp}/make-tools.XXXXXX")
trap 'rm -rf "$t"' EXIT
echo "1..3"
make -n --no-print-directory tools BUILD="$t/b" >"$t/out" 2>&1
rc=$?
[ $rc = 0 ] && echo "ok 1 - make -n tools: exit 0" || { echo "not ok 1 - make -n tools: exit $rc"; sed 's/^/# /' "$t/out"; }
missing=""
for mk in tools/*.mk; do
	for tool in $(sed -n 's/^HOST_TOOLS *+= *//p' "$mk"); do
		grep -q -- "-o $t/b/host/$tool " "$t/out" || missing="$missing $tool"
	done
done
[ -z "$missing" ] && echo "ok 2 - every HOST_TOOLS program is built" || echo "not ok 2 - not built:$missing"
if grep -qE -- "-o $t/b/(host/tests/|kernel/)" "$t/out"; then
	echo "not ok 3 - builds unit tests or kernel objects:"; grep -oE -- "-o $t/b/(host/tests|kernel)/[^ ]*" "$t/out" | head -5 | sed 's/^/# /'
else
	echo "ok 3 - no unit test, no kernel object"
fi
