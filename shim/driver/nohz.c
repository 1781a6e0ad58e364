// SPDX-License-Identifier: GPL-2.0
/*
 * Idle CPUs that stop their tick (the nohz profile, CONFIG_NO_HZ_IDLE),
 * and the IPIs that wake them: what the idle loop, the tick code and
 * kernel/smp.c do around fair.c's nohz balancing. A CPU that switches to
 * idle runs nohz_run_idle_balance() and enters nohz.idle_cpus_mask
 * (nohz_balance_enter_idle()) with its tick stopped; its first task
 * restarts the tick on the global tick grid. A busy tick may kick an idle
 * CPU (kick_ilb()) with smp_call_function_single_async(): the call is
 * delivered by the event loop a fixed latency later (ft_set_ipi_latency()),
 * runs the rq's nohz_csd handler (core.c's nohz_csd_func(), written here)
 * in interrupt context, and the SCHED_SOFTIRQ it raises balances for all
 * idle CPUs at that interrupt's exit. Without NO_HZ_IDLE every CPU keeps
 * ticking and nothing here happens, but for the reschedule IPI, which
 * travels the same queue with the same latency (smp_send_reschedule()).
 */
#include "driver.h"

#define FT_MAX_IPIS	NR_CPUS

/* An entry without csd is a reschedule IPI. */
static struct { call_single_data_t *csd; int cpu; u64 at; } ipis[FT_MAX_IPIS];
static int nr_ipis;
static u64 ipi_latency = NSEC_PER_USEC;
static u64 idle_exit, wake_preempt, idle_exit_at[NR_CPUS];	/* ft_idle_exit_delay() */
static u64 tick_preempt, hrtick_preempt;	/* ft_preempt_delay() */
/* The earliest idle_exit_at[] set, kept: the loop asks at every event. */
static u64 idle_exit_next;
static bool idle_exit_known;
static u64 ipis_delivered, resched_ipis;
static bool resched_in_flight[NR_CPUS];

u64 ft_ipis_delivered(void)
{
	return ipis_delivered;
}

void ft_set_ipi_latency(u64 ns)
{
	ipi_latency = ns;
}

void ft_set_idle_exit(u64 ns)
{
	idle_exit = ns;
	memset(idle_exit_at, 0, sizeof(idle_exit_at));
	idle_exit_known = false;
	ft_events_changed();
}

void ft_set_wake_preempt(u64 ns)
{
	wake_preempt = ns;
	memset(idle_exit_at, 0, sizeof(idle_exit_at));
	idle_exit_known = false;
	ft_events_changed();
}

void ft_set_tick_preempt(u64 tick_ns, u64 hrtick_ns)
{
	tick_preempt = tick_ns;
	hrtick_preempt = hrtick_ns;
	memset(idle_exit_at, 0, sizeof(idle_exit_at));
	idle_exit_known = false;
	ft_events_changed();
}

u64 ft_resched_ipis(void)
{
	return resched_ipis;
}

static void queue_ipi(call_single_data_t *csd, int cpu)
{
	if (nr_ipis == FT_MAX_IPIS)
		ft_host_abort("IPI queue full: calls queued faster than delivered");
	ipis[nr_ipis++] = (typeof(ipis[0])){ csd, cpu, ft_m.now + ipi_latency };
	ft_events_changed();
}

int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	if (csd->node.u_flags & CSD_FLAG_LOCK)
		return -EBUSY;
	csd->node.u_flags |= CSD_FLAG_LOCK;
	queue_ipi(csd, cpu);
	return 0;
}

/*
 * smp_send_reschedule(): @cpu will notice its need_resched flag when the
 * IPI arrives. false when it arrives at once (latency 0): nothing queued.
 * One in flight per CPU is enough, as the flag is set until it schedules.
 */
bool ft_send_reschedule(int cpu)
{
	if (!ipi_latency)
		return false;
	if (!resched_in_flight[cpu]) {
		resched_in_flight[cpu] = true;
		queue_ipi(NULL, cpu);
	}
	return true;
}

static void set_idle_exit_at(int cpu, u64 at)
{
	idle_exit_at[cpu] = at;
	idle_exit_next = min(idle_exit_next, at);	/* known or not */
	ft_events_changed();
}

static noinline void idle_exit_find(void)
{
	idle_exit_next = U64_MAX;
	for (int cpu = 0; (idle_exit || wake_preempt || tick_preempt || hrtick_preempt) &&
	     cpu < ft_m.nr_cpus; cpu++)
		if (idle_exit_at[cpu])
			idle_exit_next = min(idle_exit_next, idle_exit_at[cpu]);
	idle_exit_known = true;
}

/* inline: asked twice per event, it is known almost always */
static inline u64 next_idle_exit(void)
{
	if (!idle_exit_known)
		idle_exit_find();
	return idle_exit_next;
}

/*
 * resched_curr() of an idle CPU: with an idle-exit cost set (the
 * simulator's: on a real kernel, the idle loop's exit and the switch that
 * follow a wake-up on an idle CPU), the CPU schedules that much later,
 * even when an interrupt (its tick) ends meanwhile: the idle loop's exit
 * follows the interrupt anyway. false when there is no cost: the
 * polling idle loop schedules at once.
 */
bool ft_idle_exit_delay(int cpu)
{
	if (!idle_exit)
		return false;
	if (!idle_exit_at[cpu])
		set_idle_exit_at(cpu, ft_m.now + idle_exit);
	return true;
}

/*
 * The same for a busy CPU that a wake-up, a tick or an hrtick preempts
 * (the simulator's preemption costs: from the handler to the switch, the
 * rest of the interrupt, its exit, schedule()): the running task goes on
 * that much longer. Each operation has its own, as each handler has its
 * own work before the switch; the unit tests keep all three 0, a switch
 * at the end of the operation.
 */
static u64 preempt_cost(void)
{
	const char *op = ft_m.op.name;

	if (!op)
		return 0;
	if (!strcmp(op, "wake"))
		return wake_preempt;
	if (!strcmp(op, "tick"))
		return tick_preempt;
	if (!strcmp(op, "hrtick"))
		return hrtick_preempt;
	return 0;
}

bool ft_preempt_delay(int cpu)
{
	u64 cost = preempt_cost();

	if (!cost)
		return false;
	if (!idle_exit_at[cpu])
		set_idle_exit_at(cpu, ft_m.now + cost);
	return true;
}

bool ft_idle_exit_pending(int cpu)
{
	return idle_exit_at[cpu];
}

/* The earliest IPI delivery, U64_MAX if none is in flight. */
u64 ft_next_ipi(void)
{
	u64 next = U64_MAX;

	for (int i = 0; i < nr_ipis; i++)
		next = min(next, ipis[i].at);
	return min(next, next_idle_exit());
}

/*
 * Each IPI due by now, in the order sent: the handler, then irq exit,
 * where a reschedule IPI's CPU schedules (scheduler_ipi() itself has
 * nothing to do for fair.c: the flag was set by the sender).
 */
void ft_deliver_ipis(void)
{
	if (!nr_ipis && next_idle_exit() > ft_m.now)
		return;	/* the common case: both loops below would find nothing */
	/* none due: nothing below changes, and what it sets is due later */
	for (int cpu = 0; next_idle_exit() <= ft_m.now && cpu < ft_m.nr_cpus; cpu++) {
		if (!idle_exit_at[cpu] || idle_exit_at[cpu] > ft_m.now)
			continue;
		idle_exit_at[cpu] = 0;
		idle_exit_known = false;
		ft_events_changed();
		ft_m.resched_unseen[cpu] = false;
		ft_resched_pending();
	}
	for (int i = 0; i < nr_ipis; ) {
		call_single_data_t *csd = ipis[i].csd;
		int cpu = ipis[i].cpu;

		if (ipis[i].at > ft_m.now) {
			i++;
			continue;
		}
		memmove(&ipis[i], &ipis[i + 1], (nr_ipis - i - 1) * sizeof(ipis[0]));
		nr_ipis--;
		ft_events_changed();
		ft_switch_cpu(cpu);
		local_irq_disable();
		if (csd) {
			csd->node.u_flags &= ~CSD_FLAG_LOCK;	/* async: unlocked first */
			csd->func(csd->info);
			ipis_delivered++;
		} else {
			resched_in_flight[cpu] = false;
			resched_ipis++;
		}
		local_irq_enable();
		ft_irq_exit(cpu);
		ft_resched_pending();
	}
}

bool ft_tick_stopped(int cpu)
{
	return cpu >= 0 && cpu < ft_m.nr_cpus && ft_m.tick_stopped[cpu];
}

void ft_nohz_reset(void)
{
	nr_ipis = 0;
	ipis_delivered = 0;
	resched_ipis = 0;
	memset(resched_in_flight, 0, sizeof(resched_in_flight));
	ipi_latency = NSEC_PER_USEC;
	idle_exit_known = false;	/* nr_cpus may change */
	ft_events_changed();
}

#ifdef CONFIG_NO_HZ_COMMON
/* core.c's nohz_csd_func(): the kicked CPU balances for the idle ones. */
static void ft_nohz_csd_func(void *info)
{
	struct rq *rq = info;
	int cpu = cpu_of(rq);
	unsigned int flags;

	flags = atomic_fetch_andnot(NOHZ_KICK_MASK | NOHZ_NEWILB_KICK, nohz_flags(cpu));
	WARN_ON(!(flags & NOHZ_KICK_MASK));
	rq->idle_balance = idle_cpu(cpu);
	if (rq->idle_balance) {
		rq->nohz_idle_balance = flags;
		raise_softirq(SCHED_SOFTIRQ);
	}
}

void ft_nohz_init_rq(struct rq *rq)
{
	INIT_CSD(&rq->nohz_csd, ft_nohz_csd_func, rq);
}

/* do_idle(): the pending new-idle ILB, then the tick stops. */
void ft_nohz_idle_enter(int cpu)
{
	ft_switch_cpu(cpu);
	nohz_run_idle_balance(cpu);
	if (cpu_rq(cpu)->curr != cpu_rq(cpu)->idle)
		return;
	nohz_balance_enter_idle(cpu);
	ft_m.tick_stopped[cpu] = true;
	ft_m.tick_known = false;
	ft_events_changed();
}

/* Leaving idle restarts the tick at the next period of the tick grid. */
void ft_nohz_idle_exit(int cpu)
{
	if (!ft_m.tick_stopped[cpu])
		return;
	ft_m.tick_stopped[cpu] = false;
	ft_m.next_tick[cpu] = (div64_u64(ft_m.now, TICK_NSEC) + 1) * TICK_NSEC;
	ft_m.tick_known = false;
	ft_events_changed();
}
#else
void ft_nohz_init_rq(struct rq *rq)
{
}

void ft_nohz_idle_enter(int cpu)
{
}

void ft_nohz_idle_exit(int cpu)
{
}
#endif
