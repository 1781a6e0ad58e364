/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake address spaces of seams/numa_mm.c, shared with the driver's
 * page-fault feed (driver/numa.c): per mm, its VMAs, each with its pages'
 * node, how many of them change_prot_numa() marked for a hinting fault,
 * and the cpupid of the last task that faulted there.
 */
#ifndef FAIRTEST_NUMA_MM_H
#define FAIRTEST_NUMA_MM_H

#define FT_NUMA_MAX_MMS		16
#define FT_NUMA_MAX_VMAS	8

struct mm_struct;
struct signal_struct;
struct folio;
struct vm_area_struct;

struct ft_numa_vma {
	struct vm_area_struct *vma;
	int node;			/* where its pages are */
	unsigned long armed;		/* pages marked for a hinting fault */
	int last_cpupid;		/* of the last fault on it */
	bool migrate;			/* its pages follow the faults (migrate on fault) */
	struct folio *folio;		/* stands for all its pages: one last cpupid */
	unsigned long migrations;	/* times its pages moved */
	unsigned long marked;		/* pages change_prot_numa() marked, in all */
};

struct ft_numa_mm {
	struct mm_struct *mm;
	struct signal_struct *signal;	/* its threads' (nr_threads: the scan reads it) */
	struct task_struct *leader;	/* autogroup: whose process the threads join */
	int nr_vmas;
	struct ft_numa_vma vmas[FT_NUMA_MAX_VMAS];
	unsigned long scan_pages;	/* marked since the scanner took the lock */
};

/* What fair.c asked of mm and of the core, since boot. */
struct ft_numa_counts {
	unsigned long prot_calls, prot_pages;	/* change_prot_numa() */
	unsigned long faults, fault_pages;	/* task_numa_fault() fed */
	unsigned long moves, swaps;		/* migrate_task_to(), migrate_swap() done */
	unsigned long setnuma;			/* sched_setnuma() */
	unsigned long scans, max_scan_pages;	/* mmap lock taken by the scanner; most marked under one */
};
extern struct ft_numa_counts ft_numa_counts;

struct ft_numa_mm *ft_numa_mm_of(struct mm_struct *mm);
struct ft_numa_mm *ft_numa_mm_get(int id);
int ft_numa_mm_new(void);
int ft_numa_vma_new(int id, unsigned long pages, int node);
int ft_numa_vma_kind(int id, int vma, int kind);
void ft_numa_mm_reset(void);

/* seams/locking.c's rwsem read side: a read of an mm's mmap lock begins or ends. */
void ft_numa_mmap_read(struct rw_semaphore *sem, bool taken);

#endif /* FAIRTEST_NUMA_MM_H */
