# SPDX-License-Identifier: GPL-2.0
#
# The result lines the twin's test scripts share, sourced by them: one
# "ok" / "not ok" line per check, named "<tap_name>: <what>", counted in
# passed / failed for the script's own tally.

passed=0 failed=0
ok() { echo "ok - $tap_name: $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $tap_name: $1"; failed=$((failed + 1)); }
# check WHAT EXPR: ok when the shell expression EXPR holds
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
