#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make campaign`: a property run, fault matrix, mutant sweep or sim A/B
# split into shards that GNU parallel runs on this machine's cores, on the
# machines of an sshloginfile (HOSTS=), or that a Slurm array runs
# (SLURM=1 writes the script). Each shard leaves one file under the
# campaign dir's out/, written whole or not at all; the merge turns them
# into the report one machine running the whole campaign prints, byte for
# byte, by the kind's own printing code (tests/fault/matrix.sh,
# sched_fair/mutate.sh, sim/ab.sh) or, for property, campaign_merge.py.
# parallel's joblog records every shard: a failed or killed shard is
# retried (--retries) and a rerun of the same campaign skips the finished
# ones (--resume-failed). Remote shards get the build as a bundle
# (--basefile) and their files back (--return); see docs/campaign.md.
#
# usage: campaign.sh run OBJ KSRC PROFILE_FILE   (knobs in the environment)
#        campaign.sh shard ID                    (in a campaign dir: one shard)
set -u
die() { echo "fairtest: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

# ---- one shard, run in a campaign dir (local) or its copy (remote) ----
shard() {
	id=$1
	# shellcheck disable=SC1091
	. bundle/plan.env
	line=$(grep "^$id " bundle/shards) || die "no shard $id in bundle/shards"
	# shellcheck disable=SC2086
	set -- $line
	mkdir -p out
	echo "$id $(hostname) $$" >>attempts	# a retried shard shows twice
	tmp=out/.$id.$$
	trap 'rm -rf "$tmp" "$tmp.d" "$tmp.x"' EXIT
	case $KIND in
	property)	# ID START COUNT
		FAIRTEST_SEQUENCES=$3 bundle/fairtest --seed "$2" --timeout 0 --jobs 1 \
			$CAMPAIGN_FILTER >"$tmp"
		rc=$?
		[ "$rc" -le 1 ] || exit "$rc" ;;
	fault)		# ID ROW
		mkdir -p "$tmp.d"
		FAIRTEST_FAULT_ROW=$2 FAIRTEST_FAULT_SAVE=$tmp.d bundle/tests/fault/matrix.sh \
			bundle/fairtest "$FAULTS" "$P" "$SEED" "$TIMEOUT" $CAMPAIGN_FILTER >/dev/null
		[ $? -le 1 ] && [ -f "$tmp.d/$2" ] || exit 3
		mv "$tmp.d/$2" "$tmp" ;;
	mutate)		# ID NAME: rebuilt here, from the same tree at the same path
		sum=$(sha256sum <"$KSRC/kernel/sched/fair.c") ||
			die "no $KSRC/kernel/sched/fair.c on $(hostname): a mutate shard needs the tree and build at the same paths"
		[ "${sum%% *}" = "$FAIR_SHA" ] ||
			die "$KSRC/kernel/sched/fair.c on $(hostname) is not the campaign's (sha256 $FAIR_SHA)"
		MUTATE_ONLY=$2 "$TOP/sched_fair/mutate.sh" "$OBJ" "$KSRC" "$PROFILE_FILE" \
			--seed "$SEED" --timeout 30 $CAMPAIGN_FILTER >"$tmp" && [ -s "$tmp" ] || exit 3 ;;
	sim)		# ID SEED SIDE
		mkdir -p "$tmp.d"
		if [ "$3" = base ]; then feat=$FEATURES; else feat=$FEATURES_B; fi
		# shellcheck disable=SC2086
		# in bundle/, the workload by the path it has in the source tree
		(cd bundle && ./fairsim --quiet --seed "$2" ${feat:+--features "$feat"} --json "../$tmp.d/json" \
			$SIM_ARGS "$WORKLOAD") 2>"$tmp.d/err"
		echo $? >"$tmp.d/rc"
		tar -cf "$tmp" -C "$tmp.d" json err rc 2>/dev/null || tar -cf "$tmp" -C "$tmp.d" err rc ;;
	esac
	# The build that ran, hashed here, so the merge can refuse a stranger's
	# results: the bundle's copy, or for mutate the build at OBJ this host has.
	if [ "$KIND" = mutate ]; then b=$OBJ; else b=bundle; fi
	sha=$(cat "$b/fairtest" "$b/fairsim" | sha256sum) || exit 3
	{ echo "fairtest-campaign shard $id ${sha%% *}"; cat "$tmp"; } >"$tmp.x" && mv "$tmp.x" "out/$id"
}

[ "${1-}" = shard ] && { [ $# -eq 2 ] || die "usage: campaign.sh shard ID"; shard "$2"; exit 0; }

# ---- a property campaign's rate, from its joblog: done, and projected ----
if [ "${1-}" = rate ]; then
	[ $# -eq 2 ] && [ -f "$2/joblog" ] || die "usage: campaign.sh rate CAMPAIGN_DIR (a property campaign that ran)"
	awk -F'\t' -v shards="$2/bundle/shards" -v jobs="$(nproc)" '
	BEGIN { while ((getline l < shards) > 0) { split(l, f, " "); n[f[1] + 0] = f[3]; all += f[3]; k++ } }
	NR > 1 && $7 == 0 {
		split($9, c, " "); id = c[length(c)] + 0
		seeds += n[id]; done++
		if (!t0 || $3 < t0) t0 = $3
		if ($3 + $4 > t1) t1 = $3 + $4
		runtime += $4
	}
	END {
		if (!done) { print "no finished shard in the joblog"; exit 1 }
		rate = seeds / (t1 - t0)
		printf "%d of %d shards, %d of %d seeds (each seed: both property cases) in %.0f s wall: %.1f seeds/s\n", done, k, seeds, all, t1 - t0, rate
		printf "a shard of %d seeds: %.0f s on average\n", seeds / done, runtime / done
		printf "projected, the whole range at this rate: %.0f s (%.1f h)\n", all / rate, all / rate / 3600
		printf "projected, on 100 such machines: %.0f s when each has %d shards or more, plus ssh and rsync set-up\n", all / rate / 100, jobs
		rounds = int((k + 100 * jobs - 1) / (100 * jobs))
		printf "projected, these %d shards on 100 such machines, %d at once on each: %d round(s) of %.0f s\n", k, jobs, rounds, runtime / done
	}' "$2/joblog"
	exit $?
fi
[ "${1-}" = run ] && [ $# -eq 4 ] || die "usage: campaign.sh run OBJ KSRC PROFILE_FILE (make campaign)"
obj=$(readlink -f "$2") ksrc=$(readlink -f "$3") profile=$(readlink -f "$4")
top=$(cd "$here/.." && pwd)

# ---- bad input: one line, before anything is written ----
kind=${KIND-}
case $kind in
property|fault|mutate|sim) ;;
'') die "make campaign needs KIND=property|fault|mutate|sim" ;;
*) die "unknown KIND='$kind'; use KIND=property, fault, mutate or sim" ;;
esac
seed=${SEED:-1} seeds=${SEEDS:-}
case $seed in '' | *[!0-9]*) die "SEED='$seed' is not a decimal number; e.g. SEED=1" ;; esac
# SEEDS: A-B (seeds A..B) or N (N seeds from SEED); by default the suite's
# 400 for property, sim-ab's 5 for sim. fault and mutate take SEED alone.
case $kind in
property) seeds=${seeds:-400} ;;
sim) seeds=${seeds:-5} ;;
*) seeds=1 ;;
esac
first='' last=''
case $seeds in
*[!0-9-]* | -* | *- | *-*-*) ;;
*-*) first=${seeds%-*} last=${seeds#*-} ;;
?*) first=$seed last=$((seed + seeds - 1)) ;;
esac
{ [ -n "$first" ] && [ "$last" -ge "$first" ] 2>/dev/null && [ "${#last}" -le 15 ]; } ||
	die "SEEDS='$seeds' is not a range A-B (A <= B) or a count; e.g. SEEDS=1-1000000"
shard_size=${SHARD:-}
case $shard_size in '' | *[!0-9]*) shard_size=0 ;; esac
[ -n "${SHARD:-}" ] && { [ "$shard_size" -gt 0 ] 2>/dev/null && [ $((shard_size % 100)) -eq 0 ]; } ||
	[ -z "${SHARD:-}" ] || die "SHARD='$SHARD' is not a multiple of 100 seeds; e.g. SHARD=10000"
hosts=${HOSTS:-}
ssh_cmd=${PARALLEL_SSH:-ssh}
if [ -n "$hosts" ]; then
	[ -r "$hosts" ] || die "HOSTS=$hosts is not a readable sshloginfile; one ssh login per line (parallel --sshloginfile)"
	for login in $(sed 's/#.*//; s/^[0-9]*\///' "$hosts" | tr -s ' \t' '  ' | grep -v '^ *:* *$' | tr ' ' '\037'); do
		login=$(echo "$login" | tr '\037' ' ')
		# shellcheck disable=SC2086
		$ssh_cmd -o BatchMode=yes -o ConnectTimeout=10 $login true </dev/null 2>/dev/null ||
			die "cannot log in to '$login' (HOSTS=$hosts) with $ssh_cmd; fix its key or host, or remove it from the file"
	done
fi
filter=${FILTER:-}
case $kind in
property)
	[ -n "$filter" ] || filter='fair_property.*'
	case $filter in fair_property.*) ;; *) die "KIND=property runs fair_property cases, not FILTER='$filter'" ;; esac ;;
sim)
	[ -n "${WORKLOAD:-}" ] || die "KIND=sim needs WORKLOAD=<rt-app .json>; see fixtures/workloads/"
	[ -r "$WORKLOAD" ] || die "WORKLOAD=$WORKLOAD: no such file; see fixtures/workloads/"
	case $WORKLOAD in /*|*..*) die "KIND=sim takes WORKLOAD as a path under the source tree, not '$WORKLOAD'" ;; esac
	[ -n "${FEATURES_B:-}" ] || die "KIND=sim needs FEATURES_B=<the patched side's features>" ;;
esac

# ---- the plan: one line per shard, ID and its arguments ----
plan=$(mktemp) env=$(mktemp)
trap 'rm -f "$plan" "$env"' EXIT
case $kind in
property)
	size=${shard_size#0}
	[ -n "$size" ] || size=$(( (last - first + 1) / 100 ))
	size=$(( (size + 99) / 100 * 100 ))
	[ "$size" -ge 100 ] || size=100
	[ "$size" -le 100000 ] || size=100000
	s=$first i=1
	while [ "$s" -le "$last" ]; do
		n=$((last - s + 1)); [ "$n" -le "$size" ] || n=$size
		printf '%06d %s %s\n' $i "$s" "$n"
		s=$((s + n)) i=$((i + 1))
	done >"$plan" ;;
fault)
	rows=$(FAIRTEST_FAULT_ROW=count "$top/tests/fault/matrix.sh" "$obj/fairtest" "${FAULTS:-}" "${P:-0.05}" \
	       "$seed" "${TIMEOUT:-60}" $filter) || exit 2
	i=1
	while [ "$i" -le "$rows" ]; do printf '%06d %s\n' $i $i; i=$((i + 1)); done >"$plan" ;;
mutate)
	names=$(MUTATE_ONLY=list MUTANTS="${MUTANTS:-}" "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$profile") || exit 2
	printf '000000 base\n' >"$plan"
	i=1
	for n in $names; do printf '%06d %s\n' $i "$n"; i=$((i + 1)); done >>"$plan" ;;
sim)
	s=$first
	while [ "$s" -le "$last" ]; do
		printf '%s-base %s base\n%s-patched %s patched\n' "$s" "$s" "$s" "$s"
		s=$((s + 1))
	done >"$plan" ;;
esac
sim_args="${SIM_ARGS:-}"
bin_sha=$(cat "$obj/fairtest" "$obj/fairsim" | sha256sum) && bin_sha=${bin_sha%% *}
fair_sha=$(sha256sum <"$ksrc/kernel/sched/fair.c") && fair_sha=${fair_sha%% *}
q() { printf "%s='%s'\n" "$1" "$(printf '%s' "$2" | sed "s/'/'\\\\''/g")"; }
{
	q KIND "$kind"; q SEED "$seed"; q FIRST "$first"; q LAST "$last"
	q FAULTS "${FAULTS:-}"; q P "${P:-0.05}"; q TIMEOUT "${TIMEOUT:-60}"
	q CAMPAIGN_FILTER "$filter"; q MUTANTS "${MUTANTS:-}"
	q WORKLOAD "${WORKLOAD:-}"; q FEATURES "${FEATURES:-}"; q FEATURES_B "${FEATURES_B:-}"
	q SIM_ARGS "$sim_args"; q BIN_SHA "$bin_sha"; q FAIR_SHA "$fair_sha"
	q TOP "$top"; q OBJ "$obj"; q KSRC "$ksrc"; q PROFILE_FILE "$profile"
} >"$env"
key=$(cat "$env" "$plan" | md5sum) && key=$(printf '%.10s' "$key")
dir=${CAMPAIGN:-$obj/campaign/$kind-$key}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
if [ -d "$dir" ]; then
	cmp -s "$env" "$dir/bundle/plan.env" && cmp -s "$plan" "$dir/bundle/shards" ||
		die "CAMPAIGN=$dir holds another campaign (other knobs or build); remove it or name another dir"
else
	# Built aside and renamed: a dir that exists is a whole plan.
	mkdir -p "$(dirname "$dir")" && rm -rf "$dir.new" && mkdir -p "$dir.new/bundle/tests/fault" "$dir.new/bundle/shim" \
		"$dir.new/bundle/sched_fair" "$dir.new/out" || die "cannot create $dir"
	cp "$env" "$dir.new/bundle/plan.env" && cp "$plan" "$dir.new/bundle/shards" &&
	cp "$0" "$dir.new/bundle/campaign.sh" && cp "$obj/fairtest" "$obj/fairsim" "$dir.new/bundle/" &&
	cp "$top/tests/fault/matrix.sh" "$top/tests/fault/findings" "$dir.new/bundle/tests/fault/" &&
	cp "$top/shim/faults.def" "$dir.new/bundle/shim/" &&
	{ [ "$kind" != sim ] || { mkdir -p "$dir.new/bundle/$(dirname "$WORKLOAD")" &&
				  cp "$WORKLOAD" "$dir.new/bundle/$WORKLOAD"; }; } &&
	tar -czf "$dir.new/bundle.tgz" -C "$dir.new" bundle && mv "$dir.new" "$dir" ||
		{ rm -rf "$dir.new"; die "cannot create $dir (disk full? permissions?)"; }
fi
nshards=$(wc -l <"$dir/bundle/shards")

# ---- Slurm: the array script, not a run ----
if [ "${SLURM:-}" = 1 ]; then
	cat >"$dir/campaign.sbatch.new" <<EOF
#!/bin/sh
# A Slurm array of the $nshards shards of this campaign ($kind, seeds $first-$last).
# The campaign dir must be on a filesystem the nodes share; submit with
#   sbatch $dir/campaign.sbatch
# and, when the array has ended (sbatch --dependency=afterany:JOBID), merge with
#   make campaign ... (the same knobs again: finished shards are skipped)
#SBATCH --job-name=fairtest-$kind
#SBATCH --array=1-$nshards
#SBATCH --cpus-per-task=1
#SBATCH --output=$dir/slurm-%a.log
cd '$dir' || exit 1
id=\$(sed -n "\${SLURM_ARRAY_TASK_ID}s/ .*//p" bundle/shards)
[ -f "out/\$id" ] || exec sh bundle/campaign.sh shard "\$id"
EOF
	mv "$dir/campaign.sbatch.new" "$dir/campaign.sbatch"
	echo "fairtest: wrote $dir/campaign.sbatch ($nshards shards); submit it with sbatch, then rerun this make campaign to merge" >&2
	exit 0
fi

# ---- run the shards not yet finished ----
cd "$dir" || exit 2
echo "fairtest: campaign $kind in $dir: $nshards shards, $(find out -type f ! -name ".*" | wc -l) finished before" >&2
remote= logins=
if [ -n "$hosts" ]; then
	hosts=$(cd "$OLDPWD" && readlink -f "$hosts")
	wd=.fairtest-campaign/$(basename "$dir")-$key
	remote="--sshloginfile $hosts --wd $wd --basefile bundle.tgz --return out/{} --cleanup"
	logins=$(sed 's/#.*//; s/^[0-9]*\///' "$hosts" | tr -s ' \t' '  ' | grep -v '^ *:* *$' | tr ' ' '\037')
fi
# A remote shard unpacks the bundle once per login dir (flock: two jobs at once).
# shellcheck disable=SC2016,SC2086
sed 's/ .*//' bundle/shards | parallel ${CAMPAIGN_JOBS:+-j "$CAMPAIGN_JOBS"} --joblog "$dir/joblog" --resume-failed \
	--retries "${RETRIES:-3}" $remote \
	'[ -d bundle ] || flock bundle.tgz sh -c "[ -d bundle ] || tar -xzf bundle.tgz"; sh bundle/campaign.sh shard {}' \
	>"$dir/parallel.log" 2>&1
# parallel's --cleanup takes back what it sent, not the unpacked bundle.
for login in $logins; do
	# shellcheck disable=SC2086
	$ssh_cmd -o BatchMode=yes $(echo "$login" | tr '\037' ' ') "rm -rf '$wd'; rmdir .fairtest-campaign 2>/dev/null" \
		</dev/null >/dev/null 2>&1
done
missing=0
for id in $(sed 's/ .*//' bundle/shards); do
	[ -f "out/$id" ] || missing=$((missing + 1))
done
[ "$missing" -eq 0 ] || {
	echo "fairtest: $missing of $nshards shards did not finish after ${RETRIES:-3} retries (see $dir/joblog, $dir/parallel.log); run the same make campaign again to resume" >&2
	exit 1
}
for id in $(sed 's/ .*//' bundle/shards); do
	sha=$(sed -n '1s/^fairtest-campaign shard [^ ]* //p' "out/$id")
	[ "$sha" = "$bin_sha" ] || die "out/$id in $dir came from another build (sha256 $sha); remove it and run again"
done

# ---- merge: the kind's own report ----
body() { tail -n +2 "out/$1"; }
case $kind in
property)
	mkdir -p merge
	for id in $(sed 's/ .*//' bundle/shards); do body "$id" >"merge/$id.ktap"; done
	# shellcheck disable=SC2046
	exec python3 "$here/campaign_merge.py" "$first" $(sed 's/ .*/.ktap/; s/^/merge\//' bundle/shards) ;;
fault)
	rm -rf merge && mkdir -p merge
	while read -r id row; do body "$id" >"merge/$row"; done <bundle/shards
	FAIRTEST_FAULT_FROM=$dir/merge exec "$top/tests/fault/matrix.sh" "$obj/fairtest" "${FAULTS:-}" "${P:-0.05}" \
		"$seed" "${TIMEOUT:-60}" $filter ;;
mutate)
	rm -rf merge && mkdir -p merge
	while read -r id name; do body "$id" >"merge/$name"; done <bundle/shards
	MUTATE_FROM=$dir/merge exec "$top/sched_fair/mutate.sh" "$obj" "$ksrc" "$profile" ;;
sim)
	rm -rf merge && mkdir -p merge/res merge/logs
	while read -r id s side; do
		mkdir -p "merge/$id" && body "$id" | tar -xf - -C "merge/$id" || exit 2
		[ ! -f "merge/$id/json" ] || mv "merge/$id/json" "merge/res/$side-seed$s.json"
		mv "merge/$id/err" "merge/logs/$s-$side.err" && mv "merge/$id/rc" "merge/logs/$s-$side.rc"
	done <bundle/shards
	# shellcheck disable=SC2086
	AB_FROM=$dir/merge/logs exec "$top/sim/ab.sh" "$WORKLOAD" "${AB_OUT:-$dir/merge/res}" $((last - first + 1)) "$first" \
		"$obj/fairsim" "${FEATURES:-}" "$obj/fairsim" "$FEATURES_B" $sim_args ;;
esac
