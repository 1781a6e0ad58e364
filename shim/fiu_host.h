/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-level side of fault injection (shim/fiu_host.c), for the test
 * harness only: read FAIRTEST_FAULTS and FIU_PRNG_SEED once, print them in
 * the KTAP header, and reseed libfiu at the start of every case so each
 * case's failures depend on the seed and its name alone.
 */
#ifndef FAIRTEST_FIU_HOST_H
#define FAIRTEST_FIU_HOST_H

void ft_inject_setup(void);	/* exits 2 with one line on bad input */
void ft_inject_header(void);
void ft_inject_case_begin(const char *suite, const char *name);

#endif /* FAIRTEST_FIU_HOST_H */
