# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by the Makefile's targets that start python3 over and over
# (PY_FIRST) before their work, with ft_pydir set to a directory of ours
# (the build dir's .python3): when python3 on PATH is only a version
# manager's shim, a python3 there that is the interpreter the shim runs
# goes first on PATH, and nothing else changes. pyenv's shim is a bash
# script that runs about thirty processes each time python3 starts
# (0.3-0.4 s of a 2-core VM), and the tests start python3 hundreds of times:
# tests/sim/run.sh takes 26 s through the shim, 10 s without. A virtual
# environment's interpreter is left to the shim: a link to it would start
# outside the environment (its pyvenv.cfg is found beside the link).
: "${ft_pydir:?}"
ft_py=$(python3 -c 'import sys; print(sys.executable if sys.prefix == sys.base_prefix else "")' \
	2>/dev/null) || ft_py=
if [ -n "$ft_py" ] && [ "$(dirname "$ft_py")" != "$(dirname "$(command -v python3)")" ] &&
   mkdir -p "$ft_pydir" && ln -sfn "$ft_py" "$ft_pydir/python3"; then
	PATH=$ft_pydir:$PATH
	export PATH
fi
unset ft_py ft_pydir
