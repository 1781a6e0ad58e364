// SPDX-License-Identifier: GPL-2.0
/*
 * The mm side of NUMA balancing (CONFIG_NUMA_BALANCING), by owner: mm's
 * address spaces and VMAs, the mmap lock, the VMA iterator's maple-tree
 * walk, the hinting-fault protection change (change_prot_numa), memory
 * policy and memory tiering. An address space here is an mm_struct with
 * a short sorted list of fake anonymous VMAs the test lays out, each with
 * its pages all on one node: no page tables, no maple tree. The VMA
 * iterator walks that list; change_prot_numa() marks the range's pages
 * for a hinting fault and counts them, and driver/numa.c turns marked
 * pages a task touches into task_numa_fault() calls, as the page-fault
 * path would. Memory tiering is off (every node is top tier), so its
 * helpers abort if reached. See docs/numa.md.
 */
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/maple_tree.h>
#include <linux/mempolicy.h>
#include <linux/memory-tiers.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include "seam.h"
#include "numa_mm.h"
#include "probes.h"	/* generated: what this tree has (sched_fair/probe.sh) */

#ifdef CONFIG_NUMA_BALANCING
static struct ft_numa_mm mms[FT_NUMA_MAX_MMS];
static int nr_mms;

struct ft_numa_mm *ft_numa_mm_of(struct mm_struct *mm)
{
	for (int i = 0; i < nr_mms; i++)
		if (mms[i].mm == mm)
			return &mms[i];
	return NULL;
}

struct ft_numa_mm *ft_numa_mm_get(int id)
{
	return id >= 1 && id <= nr_mms ? &mms[id - 1] : NULL;
}

/* A new, empty address space; its id (1..), or -errno. */
int ft_numa_mm_new(void)
{
	struct mm_struct *mm;

	if (nr_mms == FT_NUMA_MAX_MMS)
		return -EAGAIN;
	mm = kzalloc(sizeof(*mm) + cpumask_size(), GFP_KERNEL);
	if (!mm)
		return -ENOMEM;
	mms[nr_mms].signal = kzalloc(sizeof(struct signal_struct), GFP_KERNEL);
	if (!mms[nr_mms].signal) {
		kfree(mm);
		return -ENOMEM;
	}
	atomic_long_set(&mm->mmap_lock.count, 0);	/* unlocked; only our rwsem fakes read it */
	atomic_set(&mm->mm_users, 0);
	mms[nr_mms].mm = mm;
	return ++nr_mms;
}

/*
 * An anonymous read-write VMA of @pages pages on @node, after the last
 * one (a page's gap between them); its index in the mm, or -errno.
 */
int ft_numa_vma_new(int id, unsigned long pages, int node)
{
	struct ft_numa_mm *m = ft_numa_mm_get(id);
	unsigned long start = 1UL << 30;	/* clear of page 0, as mmap_min_addr is */
	struct vm_area_struct *vma;

	if (!m || !pages || node < 0 || node >= nr_node_ids)
		return -EINVAL;
	if (m->nr_vmas == FT_NUMA_MAX_VMAS)
		return -EAGAIN;
	if (m->nr_vmas)
		start = m->vmas[m->nr_vmas - 1].vma->vm_end + PAGE_SIZE;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	m->vmas[m->nr_vmas].folio = kzalloc(sizeof(struct folio), GFP_KERNEL);
	if (!m->vmas[m->nr_vmas].folio) {
		kfree(vma);
		return -ENOMEM;
	}
	/* page_cpupid_reset_last(): no fault yet */
	folio_xchg_last_cpupid(m->vmas[m->nr_vmas].folio, -1);
	vma->vm_mm = m->mm;
	vma->vm_start = start;
	vma->vm_end = start + pages * PAGE_SIZE;
	vm_flags_init(vma, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_ACCOUNT);
	m->vmas[m->nr_vmas].vma = vma;
	m->vmas[m->nr_vmas].node = node;
	m->vmas[m->nr_vmas].last_cpupid = -1 & LAST_CPUPID_MASK;
	return m->nr_vmas++;
}

/*
 * What kind of mapping VMA @vma of mm @id is: anonymous read-write (0),
 * an I/O mapping, a read-only file mapping (a shared library's text) or
 * an inaccessible one (PROT_NONE): the scanner skips the last three.
 */
int ft_numa_vma_kind(int id, int vma, int kind)
{
	static struct file ft_file;	/* any file: only its presence is read */
	struct ft_numa_mm *m = ft_numa_mm_get(id);
	struct vm_area_struct *v;

	if (!m || vma < 0 || vma >= m->nr_vmas)
		return -EINVAL;
	v = m->vmas[vma].vma;
	v->vm_file = NULL;
	switch (kind) {
	case 0:
		vm_flags_init(v, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_ACCOUNT);
		break;
	case 1:
		vm_flags_init(v, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_IO | VM_PFNMAP);
		break;
	case 2:
		vm_flags_init(v, VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC);
		v->vm_file = &ft_file;
		break;
	case 3:
		vm_flags_init(v, VM_MAYREAD | VM_MAYWRITE);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* Every address space and VMA of the last machine goes. */
void ft_numa_mm_reset(void)
{
	for (int i = 0; i < nr_mms; i++) {
		for (int v = 0; v < mms[i].nr_vmas; v++) {
			kfree(mms[i].vmas[v].vma->numab_state);
			kfree(mms[i].vmas[v].vma);
			kfree(mms[i].vmas[v].folio);
		}
		kfree(mms[i].mm);
		kfree(mms[i].signal);
	}
	memset(mms, 0, sizeof(mms));
	nr_mms = 0;
}

/* ---- mm/mmap: the VMA iterator's walk of mm->mm_mt (vma_next, vma_find) ---- */
/*
 * The first VMA ending above the search point and starting at or below
 * @max. The search point is mas->index on a fresh or reset state, just
 * past the last entry found otherwise, as the maple tree's walk goes.
 */
void *mas_find(struct ma_state *mas, unsigned long max)
{
	struct ft_numa_mm *m = ft_numa_mm_of(container_of(mas->tree, struct mm_struct, mm_mt));
	unsigned long from = mas->status == ma_start ? mas->index : mas->last + 1;

	if (!m)
		SEAM_ABORT();
	if (mas->status != ma_start && mas->last == ULONG_MAX)
		goto none;
	for (int v = 0; v < m->nr_vmas; v++) {
		struct vm_area_struct *vma = m->vmas[v].vma;

		if (vma->vm_end <= from)
			continue;
		if (vma->vm_start > max)
			break;
		mas->index = vma->vm_start;
		mas->last = vma->vm_end - 1;
		mas->status = ma_active;
		return vma;
	}
none:
	mas->status = ma_overflow;
	return NULL;
}

/* A writer (mmap, munmap) holds @id's mmap lock, or lets it go. */
int ft_numa_mm_lock(int id, bool held)
{
	struct ft_numa_mm *m = ft_numa_mm_get(id);

	if (!m || atomic_long_read(&m->mm->mmap_lock.count) > 0)
		return -EINVAL;
	atomic_long_set(&m->mm->mmap_lock.count, held ? -1 : 0);
	return 0;
}

/* ---- kernel/locking/rwsem: the mmap lock; a test may hold it for writing ---- */
static struct ft_numa_mm *mm_of_lock(struct rw_semaphore *sem)
{
	return ft_numa_mm_of(container_of(sem, struct mm_struct, mmap_lock));
}

/*
 * seams/locking.c's read side of an rwsem calls this: a read of an mm's
 * mmap lock is a scan pass of task_numa_work(), counted when it ends.
 */
void ft_numa_mmap_read(struct rw_semaphore *sem, bool taken)
{
	struct ft_numa_mm *m = mm_of_lock(sem);

	if (!m)
		return;
	if (taken) {
		m->scan_pages = 0;
		return;
	}
	ft_numa_counts.scans++;
	ft_numa_counts.max_scan_pages = max(ft_numa_counts.max_scan_pages, m->scan_pages);
}

/* ---- mm/mprotect: PROT_NONE hinting ptes over [addr, end) ---- */
unsigned long change_prot_numa(struct vm_area_struct *vma, unsigned long addr,
			       unsigned long end)
{
	struct ft_numa_mm *m = ft_numa_mm_of(vma->vm_mm);
	unsigned long pages = (end - addr) >> PAGE_SHIFT, newly = 0;

	if (!m || addr < vma->vm_start || end > vma->vm_end || addr >= end)
		ft_fault_here("change_prot_numa outside its VMA", __builtin_return_address(0),
			      "[%lx, %lx) of [%lx, %lx)", addr, end, vma->vm_start, vma->vm_end);
	/* the pages not marked yet: those are the ptes updated */
	for (int v = 0; m && v < m->nr_vmas; v++)
		if (m->vmas[v].vma == vma) {
			newly = min(pages, vma_pages(vma) - m->vmas[v].armed);
			m->vmas[v].armed += newly;
			m->vmas[v].marked += newly;
			m->scan_pages += newly;
		}
	ft_numa_counts.prot_calls++;
	ft_numa_counts.prot_pages += newly;
	return newly;
}

/* ---- mm/mempolicy: the default policy, which is migrate-on-fault ---- */
bool vma_migratable(struct vm_area_struct *vma)
{
	return !(vma->vm_flags & (VM_IO | VM_PFNMAP));
}

bool vma_policy_mof(struct vm_area_struct *vma)
{
	return true;
}

/* ---- mm/memory-tiers: no tiers; every node is top tier ---- */
bool node_is_toptier(int node)
{
	return true;
}

/* Only a folio on a slow tier keeps access times: none here. */
bool folio_use_access_time(struct folio *folio)
{
	return (sysctl_numa_balancing_mode & NUMA_BALANCING_MEMORY_TIERING) &&
	       !node_is_toptier(folio_nid(folio));
}

/* Tiering's promotion rate limit and free-space checks: never reached. */
struct pglist_data *node_data[MAX_NUMNODES];

void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	SEAM_ABORT();
}

unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	SEAM_ABORT();
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	SEAM_ABORT();
}

/*
 * mm/mmzone: a folio's last-access cpupid, in the page-flags field the
 * inline folio_last_cpupid() reads back.
 */
int folio_xchg_last_cpupid(struct folio *folio, int cpupid)
{
	int old = folio_last_cpupid(folio);

#ifdef FT_FOLIO_MEMDESC_FLAGS
	unsigned long *flags = &folio->flags.f;
#else
	unsigned long *flags = &folio->flags;
#endif

	*flags &= ~((unsigned long)LAST_CPUPID_MASK << LAST_CPUPID_PGSHIFT);
	*flags |= (unsigned long)(cpupid & LAST_CPUPID_MASK) << LAST_CPUPID_PGSHIFT;
	return old;
}
#else
void ft_numa_mm_reset(void)
{
}
#endif /* CONFIG_NUMA_BALANCING */
