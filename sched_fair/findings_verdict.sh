# SPDX-License-Identifier: GPL-2.0
#
# The verdict lines of make findings-real (sourced by findings_real.sh):
# one line per finding from the kernel's log. A case that was built but
# printed no "ok"/"not ok" line did not finish (a panic or hang mid-suite):
# that is a failure, not a finding this tree cannot show. A case compiled
# out names what was missing, as findings_kunit.c's #if has it.
#
# usage: findings_verdicts LOG DEFS KCONFIG; returns 1 if a case did not finish
findings_verdicts() {
	_log=$1 _defs=$2 _kconfig=$3 _rc=0
	for _f in vprot_reweight sds_double_claim min_slice_rotation; do
		_v=$(sed -n "s/.*fairtest-verdict $_f: //p" "$_log" | head -n 1)
		_skip=$(sed -n "s/.*ok [0-9]* fairtest_$_f # SKIP //p" "$_log" | head -n 1)
		# What the case is compiled under (findings_kunit.c's #if).
		_missing=
		case $_f in
		vprot_reweight)
			case $_defs in *FT_HAVE_VPROT*) ;; *) _missing="this tree has no se->vprot (the finding is 7.x's)" ;; esac ;;
		sds_double_claim)
			case $_defs in *FT_HAVE_SDS_ALLOC*) ;; *)
				_missing="this tree's topology.c has no __sds_alloc() (the per-build sched_domain_shared claims are 7.x's)" ;;
			esac
			case $_defs in *FT_HAVE_HYBRID_CAPACITY*) ;; *)
				_missing="${_missing:+$_missing; }no x86 arch_set_cpu_capacity() in this tree to give CPUs different capacities" ;;
			esac
			grep -q '^CONFIG_MEM_ALLOC_PROFILING=y$' "$_kconfig" 2>/dev/null ||
				_missing="${_missing:+$_missing; }CONFIG_MEM_ALLOC_PROFILING is not set in $_kconfig (kunit.py did not take it from tests/qemu/findings.kunitconfig), so the leak cannot be counted" ;;
		min_slice_rotation)
			case $_defs in *FT_HAVE_MIN_SLICE*) ;; *) _missing="this tree has no se->min_slice" ;; esac ;;
		esac
		if [ -n "$_v" ]; then
			:
		elif [ -n "$_skip" ]; then
			_v="cannot be shown here: $_skip"
		elif grep -q "ok [0-9]* fairtest_$_f" "$_log"; then
			_v="no verdict printed (see $_log)"
		elif [ -n "$_missing" ]; then
			_v="cannot be shown here: $_missing"
		else
			_v="did not finish (see $_log)"
			_rc=1
		fi
		echo "finding $_f: $_v"
	done
	return $_rc
}
