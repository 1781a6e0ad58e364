// SPDX-License-Identifier: GPL-2.0
/*
 * Seams owned by kernel/locking. The engine is single-threaded, so a lock
 * that is already held when taken can never be released: in the kernel that
 * is a self-deadlock, here it is reported as a rule break with the caller,
 * and so is releasing a lock nobody holds. The lock word of the real
 * spinlock type records the state, so any lock fair.c embeds just works.
 */
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include "seam.h"
#ifdef CONFIG_NUMA_BALANCING
#include "numa_mm.h"
#endif

static void take(atomic_t *word, void *caller)
{
	if (atomic_read(word))
		ft_fault_here("lock taken twice", caller, "lock %p already held", word);
	atomic_set(word, 1);
}

static void release(atomic_t *word, void *caller)
{
	if (!atomic_read(word))
		ft_fault_here("lock released unheld", caller, "lock %p not held", word);
	atomic_set(word, 0);
}

void ft_spin_take(raw_spinlock_t *lock, void *caller)
{
	ft_spin_taking(lock);
	take(&lock->raw_lock.val, caller);
}

void ft_spin_release(raw_spinlock_t *lock, void *caller)
{
	ft_spin_releasing(lock);
	release(&lock->raw_lock.val, caller);
}

/*
 * The profile sets CONFIG_DEBUG_SPINLOCK, which makes every spinlock
 * operation, inline wrappers included, end in these out-of-line calls:
 * the one place that sees each lock and unlock, on every tree (from 7.2
 * the rq unlock itself is inline in sched.h).
 */
void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  struct lock_class_key *key, short inner)
{
	lock->raw_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	lock->owner = SPINLOCK_OWNER_INIT;	/* no stale mark of an rq lock (driver/core.c) */
}

void do_raw_spin_lock(raw_spinlock_t *lock)
{
	ft_spin_take(lock, __builtin_return_address(0));
}

int do_raw_spin_trylock(raw_spinlock_t *lock)
{
	if (atomic_read(&lock->raw_lock.val))
		return 0;
	ft_spin_take(lock, __builtin_return_address(0));
	return 1;
}

void do_raw_spin_unlock(raw_spinlock_t *lock)
{
	ft_spin_release(lock, __builtin_return_address(0));
}

void __lockfunc _raw_spin_lock(raw_spinlock_t *lock)
{
	ft_spin_take(lock, __builtin_return_address(0));
}

void __lockfunc _raw_spin_unlock(raw_spinlock_t *lock)
{
	ft_spin_release(lock, __builtin_return_address(0));
}

int __lockfunc _raw_spin_trylock(raw_spinlock_t *lock)
{
	return do_raw_spin_trylock(lock);
}

unsigned long __lockfunc _raw_spin_lock_irqsave(raw_spinlock_t *lock)
{
	unsigned long flags = arch_local_irq_save();

	ft_spin_take(lock, __builtin_return_address(0));
	return flags;
}

void __lockfunc _raw_spin_unlock_irqrestore(raw_spinlock_t *lock,
					    unsigned long flags)
{
	ft_spin_release(lock, __builtin_return_address(0));
	arch_local_irq_restore(flags);
}

void __lockfunc _raw_spin_lock_irq(raw_spinlock_t *lock)
{
	arch_local_irq_disable();
	ft_spin_take(lock, __builtin_return_address(0));
}

void __lockfunc _raw_spin_unlock_irq(raw_spinlock_t *lock)
{
	ft_spin_release(lock, __builtin_return_address(0));
	arch_local_irq_enable();
}

/* Group shares changes hold shares_mutex; same self-deadlock rule. */
void mutex_lock(struct mutex *lock)
{
	if (atomic_long_read(&lock->owner))
		ft_fault_here("lock taken twice", __builtin_return_address(0),
			      "mutex %p already held", lock);
	atomic_long_set(&lock->owner, 1);
}

void mutex_unlock(struct mutex *lock)
{
	if (!atomic_long_read(&lock->owner))
		ft_fault_here("lock released unheld", __builtin_return_address(0),
			      "mutex %p not held", lock);
	atomic_long_set(&lock->owner, 0);
}

/*
 * autogroup.c's per-group rwsem (nice changes write, /proc reads read) and
 * an mm's mmap lock (task_numa_work() reads; seams/numa_mm.c counts scans):
 * the count is -1 with a writer, else the number of readers; taking it
 * against the other side can never be granted here, a self-deadlock.
 */
void __init_rwsem(struct rw_semaphore *sem, const char *name, struct lock_class_key *key)
{
	atomic_long_set(&sem->count, 0);
	atomic_long_set(&sem->owner, 0);
}

void down_write(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count))
		ft_fault_here("lock taken twice", __builtin_return_address(0),
			      "rwsem %p already held", sem);
	atomic_long_set(&sem->count, -1);
}

void up_write(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) != -1)
		ft_fault_here("lock released unheld", __builtin_return_address(0),
			      "rwsem %p not held for writing", sem);
	atomic_long_set(&sem->count, 0);
}

void down_read(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) < 0)
		ft_fault_here("lock taken twice", __builtin_return_address(0),
			      "rwsem %p held for writing", sem);
	atomic_long_inc(&sem->count);
}

/* task_numa_work() tries the mmap lock: refused while a writer holds it. */
int down_read_trylock(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) < 0)
		return 0;
	atomic_long_inc(&sem->count);
#ifdef CONFIG_NUMA_BALANCING
	ft_numa_mmap_read(sem, true);
#endif
	return 1;
}

void up_read(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) <= 0)
		ft_fault_here("lock released unheld", __builtin_return_address(0),
			      "rwsem %p not held for reading", sem);
	atomic_long_dec(&sem->count);
#ifdef CONFIG_NUMA_BALANCING
	ft_numa_mmap_read(sem, false);
#endif
}
