# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the Makefile's targets before their work: the directory of the
# interpreter python3 runs goes first on PATH when python3 there is only a
# version manager's shim. pyenv's is a bash script that runs a dozen more
# each time python3 starts (about 0.1 s of a 2-core VM), and the tests
# start python3 some hundreds of times: tests/sim/run.sh alone went from
# 26 s to 10 s. The interpreter is the one the shim would run here.
ft_py=$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null) || ft_py=
if [ -n "$ft_py" ] && [ "$ft_py" != "$(dirname "$(command -v python3)")" ]; then
	PATH=$ft_py:$PATH
	export PATH
fi
unset ft_py
