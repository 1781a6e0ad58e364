# SPDX-License-Identifier: GPL-2.0
#
# Reading a kernel config, shared by the programs that turn a profile's
# "#take CONFIG_X [max=N]" lines into values (prepare.sh for the user-space
# build, twin/kernel.sh for the twin's kernel). Pasted in front of each
# program's own text, so any POSIX awk runs it (mawk has no -e). Given
# -v kconfig=FILE, BEGIN fills kernel[CONFIG_X] with its value, "n" for
# "# CONFIG_X is not set"; an option absent from the file is not set, as
# kconfig would have it (its dependencies unmet, or not in that tree).
function opt_of(line,   o) {
	o = line
	sub(/^# /, "", o)
	sub(/[= ].*/, "", o)
	return o
}
function kconfig_value(opt) {
	return (opt in kernel) ? kernel[opt] : "n"
}
BEGIN {
	if (kconfig != "")
		while ((getline l < kconfig) > 0)
			if (l ~ /^CONFIG_[A-Z0-9_]+=/)
				kernel[opt_of(l)] = substr(l, index(l, "=") + 1)
			else if (l ~ /^# CONFIG_[A-Z0-9_]+ is not set$/)
				kernel[opt_of(l)] = "n"
}
