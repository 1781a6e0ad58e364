// SPDX-License-Identifier: GPL-2.0
/*
 * What core.c's tracepoints report (the engine's observer hands it to the
 * analysis, analysis.c, that makes every table), when asked, written as
 * the kernel's own ftrace text lines for sched_switch, sched_waking,
 * sched_wakeup, sched_wakeup_new and sched_migrate_task, which the
 * Perfetto UI and trace-cmd's tools read as they read a real trace. The
 * formats are the tree's own TP_printk() strings (sched_fair/trace_formats.sh
 * reads them from its include/trace/events/sched.h); one whose fields are
 * not the ones we fill falls back to 6.12's, and the trace's header says so.
 */
#include <string.h>
#include "sim.h"
#include "trace_formats.h"

/* 6.12's, and the conversions our arguments fill, in order */
static const struct trace_fmt {
	const char *event, *known, *args;
	const char *tree;
} fmts[] = {
#ifndef FT_TRACE_FMT_SWITCH
#define FT_TRACE_FMT_SWITCH NULL
#endif
#ifndef FT_TRACE_FMT_WAKEUP
#define FT_TRACE_FMT_WAKEUP NULL
#endif
#ifndef FT_TRACE_FMT_MIGRATE
#define FT_TRACE_FMT_MIGRATE NULL
#endif
	{ "sched_switch", "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
	  "next_comm=%s next_pid=%d next_prio=%d", "sddsssdd", FT_TRACE_FMT_SWITCH },
	{ "sched_wakeup", "comm=%s pid=%d prio=%d target_cpu=%03d", "sddd", FT_TRACE_FMT_WAKEUP },
	{ "sched_migrate_task", "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", "sdddd",
	  FT_TRACE_FMT_MIGRATE },
};
enum { FMT_SWITCH, FMT_WAKEUP, FMT_MIGRATE };

/* Does @fmt take exactly the conversions @args (one letter each)? */
static bool fills(const char *fmt, const char *args)
{
	for (const char *p = fmt; (p = strchr(p, '%')); p++) {
		if (p[1] == '%') {
			p++;
			continue;
		}
		p += strspn(p + 1, "0123456789-+ #.") + 1;
		if (*args++ != *p)
			return false;
	}
	return !*args;
}

/* The tree's format where it takes our arguments, else 6.12's: once a run. */
static const char *fmt_of(int which)
{
	static const char *chosen[sizeof(fmts) / sizeof(fmts[0])];
	const struct trace_fmt *f = &fmts[which];

	if (!chosen[which])
		chosen[which] = f->tree && fills(f->tree, f->args) ? f->tree : f->known;
	return chosen[which];
}

static void comm(struct sim_run *run, int pid, int cpu, char out[16])
{
	struct sim_task *t = pid ? sim_task_of(run, pid) : NULL;
	char full[SIM_NAME_LEN + 16];

	if (!pid)
		snprintf(out, 16, "swapper/%d", cpu);
	else if (t)
		/* TASK_COMM_LEN: the kernel keeps 15 characters */
		snprintf(full, sizeof(full), "%s-%d", run->w->defs[t->def].name, t->inst),
		snprintf(out, 16, "%.15s", full);
	else
		snprintf(out, 16, "task%d", pid);
}

/*
 * The kernel's header, and one line of ours that --from-trace reads: the
 * CPU count in the kernel's "#P:" form, that every CPU starts idle, and
 * where the run ends when that is known (the last event may be earlier).
 */
void sim_trace_header(FILE *f, const char *workload, int cpus, ft_u64 end_ns)
{
	fprintf(f, "# tracer: nop\n#\n# fairsim: %s #P:%d, every CPU idle at 0", workload, cpus);
	if (end_ns)
		fprintf(f, ", end %llu ns", end_ns);
	fprintf(f, "\n#\n");
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (fmt_of(i) != fmts[i].tree)
			fprintf(f, "# fairsim: %s: %s; written in 6.12's format\n", fmts[i].event,
				fmts[i].tree ? "this tree's format has other fields" :
				"not found in this tree's include/trace/events/sched.h");
	fprintf(f, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n");
}

/*
 * The flags field: a wake-up's carries the need_resched letter it found,
 * and 'h' when a timer's handler makes it, as the kernel's hardirq.
 */
static void line(struct sim_run *run, const struct ft_obs *o, int cpu, const char *event)
{
	char c[16];
	int pid = run->an.curr[cpu];

	comm(run, pid, cpu, c);
	fprintf(run->trace, "%16s-%-7d [%03d] d%c%c2. %5llu.%06llu: %s: ", pid ? c : "<idle>", pid,
		cpu, o->resched ? o->resched : '.', o->irq ? 'h' : '.', o->now / 1000000000ULL,
		o->now % 1000000000ULL / 1000, event);
}

void sim_trace(struct sim_run *run, const struct ft_obs *o)
{
	char c[16], n[16];

	switch (o->kind) {
	case FT_OBS_SWITCH:
		line(run, o, o->cpu, "sched_switch");
		comm(run, o->prev_pid, o->cpu, c);
		comm(run, o->pid, o->cpu, n);
		fprintf(run->trace, fmt_of(FMT_SWITCH), c, o->prev_pid, o->prev_prio,
			(char[2]){ o->prev_state }, o->preempt ? "+" : "", n, o->pid, o->prio);
		fputc('\n', run->trace);
		break;
	case FT_OBS_WAKING:
	case FT_OBS_WAKEUP:
	case FT_OBS_WAKEUP_NEW:
		line(run, o, o->cpu, o->kind == FT_OBS_WAKING ? "sched_waking" :
		     o->kind == FT_OBS_WAKEUP ? "sched_wakeup" : "sched_wakeup_new");
		comm(run, o->pid, o->cpu, c);
		fprintf(run->trace, fmt_of(FMT_WAKEUP), c, o->pid, o->prio, o->cpu);
		fputc('\n', run->trace);
		break;
	case FT_OBS_PROBE:
		/* as an fprobe event's line: "name: (function) fields" */
		line(run, o, o->cpu, o->probe);
		fprintf(run->trace, "(fairsim) %s\n", o->text);
		break;
	case FT_OBS_MIGRATE:
		line(run, o, o->cpu, "sched_migrate_task");
		comm(run, o->pid, o->cpu, c);
		fprintf(run->trace, fmt_of(FMT_MIGRATE), c, o->pid, o->prio, o->orig_cpu,
			o->dest_cpu);
		fputc('\n', run->trace);
		break;
	}
}

/*
 * An engine event as a guest fprobe's line on @cpu, now (FAIRSIM_FUTEX=1:
 * glibc's futex calls, as twin/events/futex.events records them).
 */
void sim_trace_event(struct sim_run *run, int cpu, const char *event, const char *text)
{
	struct ft_obs o = { .now = ft_now(), .cpu = cpu };

	line(run, &o, cpu, event);
	fprintf(run->trace, "(fairsim) %s\n", text);
}
