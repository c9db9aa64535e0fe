// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NIC's own health, as devlink reports it: health reporters in error,
 * firmware resets the driver recovered from, and firmware stored but not
 * yet running.
 */
#include "config.h"
#include "core/clock.h"
#include "core/escape.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* A wall-clock time in ns since the epoch as UTC; "" for none. */
static void wall(uint64_t real_ns, char *buf, size_t size)
{
	buf[0] = '\0';
	if (real_ns)
		rd_clock_fmt((double)real_ns / 1e9, RD_CLOCK_UTC,
			     RD_CLOCK_UTC_LINE, "", buf, size);
}

static void devlink_handle(const struct rd_devlink *dl, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", dl->bus, dl->dev);
}

/*
 * What the flight recorder kept of this device's health reporters in the
 * span asked for (check --since, the console): when each changed.
 */
static void recorded(struct diag_ctx *x, const struct rd_device *d,
		     struct rd_result *r)
{
	const struct rd_events *ev = x->o->past;
	size_t said = 0;

	for (size_t i = ev ? ev->n : 0; i-- > 0 && said < 10;) {
		const struct rd_event *e = &ev->v[i];
		char at[32];

		if (e->time < ev->since || !e->kind ||
		    strcmp(e->kind, "health") || !e->device ||
		    strcmp(e->device, d->name))
			continue;
		rd_clock_fmt(e->time, RD_CLOCK_UTC, RD_CLOCK_UTC_LINE, "?", at,
			     sizeof(at));
		diag_ev(x, r, "recorded health change",
			ev->from ? "flight recorder" : "watched live", "%s %s",
			at, rd_esc_tmp(e->text ? e->text : ""));
		said++;
	}
}

void check_hw_health(struct diag_ctx *x, const struct diag_target *t,
		     struct rd_result *r)
{
	const struct rd_device *d = t->d;
	const struct rd_devlink *dl =
		d->pci_bdf ? rd_snapshot_devlink(x->s, d->pci_bdf) : NULL;
	const struct rd_devlink_reporter *bad = NULL, *reset = NULL,
					 *errors = NULL;
	const char *run, *stored;
	char h[160], when[48], names[256] = "";

	recorded(x, d, r);
	if (!diag_have(x, r, dl != NULL, "%s: devlink not read%s", d->name,
		       x->s->n_devlinks
			       ? " for its PCI function"
			       : " (no devlink data in this snapshot)"))
		return;
	devlink_handle(dl, h, sizeof(h));
	run = rd_devlink_version(dl, "running", "fw.version");
	stored = rd_devlink_version(dl, "stored", "fw.version");
	if (run)
		diag_ev(x, r, "firmware running", "devlink dev info", "%s",
			run);
	if (stored)
		diag_ev(x, r, "firmware stored", "devlink dev info", "%s",
			stored);
	if (!diag_have(x, r, dl->reporters_read.ok && dl->reporters_read.v,
		       "%s: health reporters not read", d->name))
		return;
	for (size_t i = 0; i < dl->n_reporters; i++) {
		const struct rd_devlink_reporter *p = &dl->reporters[i];
		size_t l = strlen(names);

		snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "",
			 p->name);
		diag_ev(x, r, "health reporter", "devlink health show",
			"%s: %s, %" PRIu64 " errors, %" PRIu64 " recovered",
			p->name, p->state ? p->state : "state ?",
			p->error_count.ok ? p->error_count.v : 0,
			p->recover_count.ok ? p->recover_count.v : 0);
		if (rd_devlink_reporter_failed(p) && !bad)
			bad = p;
		if (!strcmp(p->name, "fw_fatal") && p->recover_count.ok &&
		    p->recover_count.v)
			reset = p;
		if (p->error_count.ok && p->error_count.v && !errors)
			errors = p;
	}
	if (bad) {
		diag_verdict(x, r, RD_FAIL, "health_error",
			     "%s: devlink health reporter %s is in error "
			     "(%" PRIu64 " errors, %" PRIu64 " recovered)",
			     d->name, bad->name,
			     bad->error_count.ok ? bad->error_count.v : 0,
			     bad->recover_count.ok ? bad->recover_count.v : 0);
		diag_next(x, r,
			  "see what it found: devlink health diagnose %s "
			  "reporter %s (as root); the driver recovers it with "
			  "devlink health recover %s reporter %s",
			  rd_shquote_tmp(h), bad->name, rd_shquote_tmp(h),
			  bad->name);
		return;
	}
	if (reset) {
		/* No dump kept (auto-dump off, or cleared): no time. */
		wall(reset->last_dump_ns.ok ? reset->last_dump_ns.v : 0, when,
		     sizeof(when));
		diag_verdict(x, r, RD_WARN, "nic_reset",
			     "%s: the NIC reset itself %" PRIu64
			     " time%s since "
			     "the driver loaded%s%s: every QP was torn down",
			     d->name, reset->recover_count.v,
			     reset->recover_count.v == 1 ? "" : "s",
			     when[0] ? ", last at " : "", when);
		diag_next(
			x, r,
			"read the firmware's dump (devlink health dump show %s "
			"reporter fw_fatal, as root) and the kernel log around "
			"that time; a reset that repeats needs the vendor",
			rd_shquote_tmp(h));
		return;
	}
	if (run && stored && strcmp(run, stored) != 0) {
		diag_verdict(x, r, RD_WARN, "fw_update_pending",
			     "%s: firmware %s is stored but %s still runs: the "
			     "update waits for a reset",
			     d->name, stored, run);
		diag_next(
			x, r,
			"reset the NIC when traffic can stop (reboot, or the "
			"vendor's firmware reset tool), then check fw.version");
		return;
	}
	if (errors) {
		diag_verdict(x, r, RD_WARN, "health_errors",
			     "%s: devlink health reporter %s counted %" PRIu64
			     " errors (recovered %" PRIu64 ")",
			     d->name, errors->name, errors->error_count.v,
			     errors->recover_count.ok ? errors->recover_count.v
						      : 0);
		diag_next(
			x, r,
			"devlink health diagnose %s reporter %s shows the last "
			"one (as root); tx and rx errors are timeouts or error "
			"completions the driver recovered",
			rd_shquote_tmp(h), errors->name);
		return;
	}
	if (!dl->n_reporters) {
		diag_verdict(x, r, RD_UNKNOWN, "no_reporters",
			     "%s: the driver registers no devlink health "
			     "reporters",
			     d->name);
		return;
	}
	diag_verdict(x, r, RD_PASS, "ok", "%s: healthy (%s)%s%s", d->name,
		     names, run ? ", firmware " : "", run ? run : "");
}
