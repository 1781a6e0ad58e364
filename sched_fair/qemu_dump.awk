# SPDX-License-Identifier: GPL-2.0
#
# A real kernel's domain dump (fixtures/topologies/qemu/SERIES/SHAPE.dump,
# written by domains_xcheck.sh) in the form of ft_domain_dump(), so that a
# test compares it with ours line for line: one line per CPU and level,
#   cpuN LEVEL span=... groups=...|... pct=P flags=A,B
# CPUs renumbered by the file's "fairtest-map:" line (QEMU CPU i is CPU
# map[i] of the .topo), lowest CPU first. Levels, spans and groups come
# from sched_verbose's boot dump; imbalance_pct and flags from the
# fairtest_domains KUnit case, whose level names and spans must agree
# with the boot dump. A kernel "ERROR:" line, a CPU missing from either
# dump or a disagreement fails with one line naming file and line.
#
# usage: awk [-v c_lines=1] -f qemu_dump.awk FILE.dump   (c_lines: each line
# as a C string literal, as topologies.sh compiles it in)
function fail(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	err = 1
	exit 1
}

# The CPUs of a kernel cpu list ("0-1,4") renumbered by map, as a list
# again: ascending, runs of two or more as a-b (ft_span_str()'s form).
function relabel(list,   parts, n, i, r, a, b, c, set, s, last) {
	split("", set)
	n = split(list, parts, ",")
	for (i = 1; i <= n; i++) {
		if (split(parts[i], r, "-") == 2) {
			a = r[1]; b = r[2]
		} else {
			a = b = parts[i]
		}
		if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/)
			fail("not a cpu list: " list)
		for (c = a + 0; c <= b + 0; c++) {
			if (!(c in map))
				fail("cpu " c " is not in the fairtest-map line")
			set[map[c]] = 1
		}
	}
	s = ""
	for (c = 0; c < 64; c++) {
		if (!(c in set))
			continue
		for (last = c; (last + 1) in set; last++)
			;
		s = s (s == "" ? "" : ",") c (last > c ? "-" last : "")
		c = last
	}
	return s
}

/^fairtest-map:/ {
	for (i = 2; i <= NF; i++)
		map[i - 2] = $i + 0
	ncpus = NF - 1
	next
}
/^#/ { next }
/^ERROR: / { fail("the kernel reported: " $0) }
match($0, /CPU[0-9]+ attaching/) {
	cpu = substr($0, RSTART + 3, RLENGTH - 13) + 0
	attached[cpu] = 1
	levels[cpu] = 0
	next
}
match($0, /^ *domain-[0-9]+: span=[0-9,-]+ level=[A-Z]+/) {
	line = substr($0, RSTART, RLENGTH)
	sub(/^ *domain-/, "", line)
	lvl = line + 0
	sub(/^[0-9]+: span=/, "", line)
	span[cpu, lvl] = substr(line, 1, index(line, " ") - 1)
	name[cpu, lvl] = substr(line, index(line, "level=") + 6)
	if (lvl != levels[cpu])
		fail("domain-" lvl " out of order for CPU" cpu)
	levels[cpu] = lvl + 1
	next
}
/^ *groups:/ {
	g = ""
	rest = $0
	while (match(rest, /span=[0-9,-]+/)) {
		g = g (g == "" ? "" : "|") relabel(substr(rest, RSTART + 5, RLENGTH - 5))
		rest = substr(rest, RSTART + RLENGTH)
	}
	groups[cpu, levels[cpu] - 1] = g
	next
}
/fairtest-domain cpu[0-9]+ domain-[0-9]+ / {
	sub(/.*fairtest-domain cpu/, "")
	c = $1 + 0
	sub(/^domain-/, "", $2)
	l = $2 + 0
	if ($3 != name[c, l] || $4 != "span=" span[c, l])
		fail("CPU" c " domain-" l ": " $3 " " $4 " here, " name[c, l] " span=" span[c, l] " in the boot dump")
	pct[c, l] = substr($5, length("imbalance_pct=") + 1)
	flags[c, l] = substr($6, length("flags=") + 1)
	gsub(/SD_/, "", flags[c, l])
	seen[c] = l + 1
	next
}
END {
	if (err)
		exit 1
	if (!ncpus)
		fail("no fairtest-map line")
	for (q = 0; q < ncpus; q++) {
		if (!attached[q])
			fail("no boot dump (sched_verbose) for CPU" q)
		if (seen[q] + 0 != levels[q])
			fail("CPU" q ": " levels[q] " levels in the boot dump, " seen[q] + 0 " from fairtest_domains")
		out[map[q]] = ""
		for (l = 0; l < levels[q]; l++)
			out[map[q]] = out[map[q]] "cpu" map[q] " " name[q, l] " span=" relabel(span[q, l]) \
				" groups=" groups[q, l] " pct=" pct[q, l] " flags=" flags[q, l] "\n"
	}
	for (f = 0; f < ncpus; f++) {
		if (!(f in out))
			fail("the fairtest-map line is not a permutation of 0-" ncpus - 1)
		if (!c_lines) {
			printf "%s", out[f]
			continue
		}
		n = split(out[f], lines, "\n")
		for (l = 1; l < n; l++)
			printf "\t  \"%s\\n\"\n", lines[l]
	}
}
