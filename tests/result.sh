# SPDX-License-Identifier: GPL-2.0
#
# The result line of the test scripts that print one line a check and a
# tally (tests/checker/modes.sh, tests/sim/mutants.sh), sourced by them:
# "ok - WHAT" or "not ok - WHAT", counted in passed / failed.

passed=0 failed=0
result() {	# ok|fail, what
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
	fi
}
