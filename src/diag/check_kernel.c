// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kernel itself logged about the RDMA devices (src/probes/kmsg.c
 * keeps the records tied to each), judged with data/kmsg.tsv: module
 * events, link changes, firmware health, PCIe errors, transmit timeouts.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "diag/data.h"
#include "core/clock.h"

#define KMSG_SOURCE "/dev/kmsg"
/* Evidence lines a result lists at most: the newest records. */
#define KMSG_EVIDENCE_MAX 16
/* Correctable PCIe errors in the log that make a storm worth a WARN. */
#define AER_STORM 10
/* Module and link records port.state shows at most. */
#define PORT_EVIDENCE_MAX 3

/*
 * When a record was logged: the local wall-clock time (the date too when
 * it is more than a day before the reading), else the seconds since boot
 * as dmesg prints them.
 */
static void rec_when(const struct rd_snapshot *s, const struct rd_kmsg_rec *k,
		     char *buf, size_t size)
{
	bool today = k->wall_time.ok && s->time.ok &&
		     fabs(s->time.v - k->wall_time.v) < 86400;

	rd_kmsg_rec_when(k, RD_CLOCK_LOCAL,
			 today ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S", buf, size);
}

static bool rec_of(const struct rd_kmsg_rec *k, const struct rd_device *d)
{
	return k->rdma_device && d->name &&
	       strcmp(k->rdma_device, d->name) == 0;
}

static void rec_ev(struct diag_ctx *x, struct rd_result *r,
		   const struct rd_kmsg_rec *k, const struct rd_kmsg_class *c)
{
	char when[40], what[64], src[64];

	rec_when(x->s, k, when, sizeof(when));
	snprintf(what, sizeof(what), "kernel log: %s, %s",
		 rd_kmsg_kind_name(c ? c->kind : RD_KMSG_OTHER),
		 rd_kmsg_severity_name(c ? c->severity : RD_KMSG_INFO));
	snprintf(src, sizeof(src), KMSG_SOURCE " seq %" PRIu64, k->seq);
	diag_ev(x, r, what, src, "%s %s", when, rd_esc_tmp(k->message));
}

/* "mlx5_0 (0000:3b:00.0, ens1f0np0)": what the device is known by. */
static void device_names(const struct rd_device *d, char *buf, size_t size)
{
	size_t off = (size_t)snprintf(buf, size, "%s", d->name);
	const char *sep = " (";

	if (d->pci_bdf && off < size) {
		off += (size_t)snprintf(buf + off, size - off, "%s%s", sep,
					d->pci_bdf);
		sep = ", ";
	}
	for (size_t i = 0; i < d->n_ports && off < size; i++)
		if (d->ports[i].netdev) {
			off += (size_t)snprintf(buf + off, size - off, "%s%s",
						sep, d->ports[i].netdev);
			sep = ", ";
		}
	if (strcmp(sep, ", ") == 0 && off < size)
		snprintf(buf + off, size - off, ")");
}

void check_kernel_events(struct diag_ctx *x, const struct diag_target *t,
			 struct rd_result *r)
{
	const struct rd_kmsg *k = &x->s->kmsg;
	const struct rd_kmsg_table *tab = rd_data_kmsg();
	const struct rd_kmsg_class *worst_c = NULL;
	const struct rd_kmsg_rec *worst = NULL;
	size_t ours = 0, bad = 0, corr = 0, shown = 0;
	enum rd_kmsg_severity top = RD_KMSG_INFO;
	char names[512], when[40], since[96];
	uint64_t read = k->records_read.ok ? k->records_read.v : 0;

	if (!diag_have(x, r, k->readable.ok,
		       "%s: kernel log not read (no RDMA device when the "
		       "snapshot was taken, or a recording made before it was "
		       "kept)",
		       t->d->name))
		return;
	if (!k->readable.v) {
		diag_step(x, r, RD_UNKNOWN, "the kernel log could not be read");
		diag_verdict(x, r, RD_UNKNOWN, "kmsg_unreadable", "%s: %s",
			     t->d->name,
			     k->error ? k->error : "kernel log not readable");
		diag_next(x, r,
			  "run rdmadiag with CAP_SYSLOG (as root), or read the "
			  "log with journalctl -k");
		return;
	}
	if (!diag_have(x, r, tab != NULL, "%s: data/kmsg.tsv not loaded: %s",
		       t->d->name,
		       rd_data_error() ? rd_data_error() : "not found"))
		return;
	device_names(t->d, names, sizeof(names));
	if (k->first_seq.ok && k->first_seq.v > 0)
		snprintf(since, sizeof(since),
			 "since the oldest record the kernel still holds (seq "
			 "%" PRIu64 ")",
			 k->first_seq.v);
	else
		snprintf(since, sizeof(since), "since boot");
	for (size_t i = 0; i < k->n_records; i++) {
		const struct rd_kmsg_rec *rec = &k->records[i];
		const struct rd_kmsg_class *c;

		if (!rec_of(rec, t->d))
			continue;
		ours++;
		c = rd_kmsg_classify(tab, rec->message);
		if (c && c->kind == RD_KMSG_AER &&
		    c->severity == RD_KMSG_INFO &&
		    strstr(rec->message, "severity=Correct"))
			corr++;
		if (c && c->severity > RD_KMSG_INFO) {
			bad++;
			if (c->severity >= top) {
				top = c->severity;
				worst = rec;
				worst_c = c;
			}
		}
	}
	/* The newest records, oldest first. */
	for (size_t i = k->n_records; i-- > 0 && shown < KMSG_EVIDENCE_MAX;)
		shown += rec_of(&k->records[i], t->d);
	for (size_t i = 0, skip = ours - shown; i < k->n_records; i++) {
		if (!rec_of(&k->records[i], t->d))
			continue;
		if (skip) {
			/* The worst line is shown even when it is older. */
			if (&k->records[i] == worst)
				rec_ev(x, r, worst, worst_c);
			skip--;
			continue;
		}
		rec_ev(x, r, &k->records[i],
		       rd_kmsg_classify(tab, k->records[i].message));
	}
	diag_ev(x, r, "records read", KMSG_SOURCE, "%" PRIu64 " (%zu about %s)",
		read, ours, t->d->name);
	if (k->gaps.ok && k->gaps.v)
		diag_ev(x, r, "records lost", KMSG_SOURCE,
			"%" PRIu64 " times the kernel overwrote records before "
			"they were read",
			k->gaps.v);
	if (k->dropped.ok && k->dropped.v)
		diag_ev(x, r, "older records not kept", KMSG_SOURCE,
			"%" PRIu64
			" records about this host's devices (only the "
			"newest %d are kept)",
			k->dropped.v, RD_KMSG_KEEP);
	if (!worst && corr >= AER_STORM) {
		diag_step(x, r, RD_WARN, "%zu correctable PCIe errors", corr);
		diag_verdict(
			x, r, RD_WARN, "aer_correctable_storm",
			"%s: %zu correctable PCIe errors in the kernel log %s",
			t->d->name, corr, since);
		diag_next(x, r,
			  "reseat the card or move it to another slot; check "
			  "hw.pcie_link and the AER counters in sysfs "
			  "(aer_dev_correctable)");
		return;
	}
	if (!worst) {
		/* Records pushed out of those kept were never classified. */
		const char *older = k->dropped.ok && k->dropped.v
					    ? "; older ones past the newest "
					      "kept were not judged"
					    : "";

		diag_step(x, r, RD_PASS,
			  "no kernel log line about %s needs attention",
			  t->d->name);
		if (ours)
			diag_verdict(x, r, RD_PASS, "ok",
				     "%zu kernel message%s about %s %s, none a "
				     "problem (%" PRIu64 " records read%s)",
				     ours, ours == 1 ? "" : "s", names, since,
				     read, older);
		else
			diag_verdict(x, r, RD_PASS, "ok",
				     "no kernel messages about %s %s (%" PRIu64
				     " records read%s)",
				     names, since, read, older);
		return;
	}
	rec_when(x->s, worst, when, sizeof(when));
	diag_step(x, r, top >= RD_KMSG_ERROR ? RD_FAIL : RD_WARN,
		  "%zu kernel log lines about %s need attention, the worst %s",
		  bad, t->d->name, rd_kmsg_severity_name(top));
	diag_verdict(x, r, top >= RD_KMSG_ERROR ? RD_FAIL : RD_WARN,
		     top == RD_KMSG_FATAL   ? "kernel_fatal"
		     : top == RD_KMSG_ERROR ? "kernel_error"
					    : "kernel_warning",
		     "%s: %s (%s, %s at %s)%s", t->d->name, worst_c->meaning,
		     rd_kmsg_kind_name(worst_c->kind),
		     rd_kmsg_severity_name(top), when,
		     bad > 1 ? "; more lines need attention" : "");
	diag_next(x, r, "%s", worst_c->next_step);
}

void diag_kmsg_port_evidence(struct diag_ctx *x, struct rd_result *r,
			     const struct diag_target *t)
{
	const struct rd_kmsg *k = &x->s->kmsg;
	const struct rd_kmsg_table *tab = rd_data_kmsg();
	const struct rd_kmsg_rec *pick[PORT_EVIDENCE_MAX];
	const struct rd_kmsg_class *cls[PORT_EVIDENCE_MAX];
	size_t n = 0;

	if (!tab || !t->d || !t->p)
		return;
	/* The newest module and link records of this port, newest first. */
	for (size_t i = k->n_records; i-- > 0 && n < PORT_EVIDENCE_MAX;) {
		const struct rd_kmsg_rec *rec = &k->records[i];
		const struct rd_kmsg_class *c;

		if (!rec_of(rec, t->d))
			continue;
		if (rec->port.ok ? rec->port.v != t->p->port
				 : rec->netdev && t->netdev &&
					   strcmp(rec->netdev, t->netdev) != 0)
			continue;
		c = rd_kmsg_classify(tab, rec->message);
		if (!c ||
		    (c->kind != RD_KMSG_MODULE && c->kind != RD_KMSG_LINK))
			continue;
		pick[n] = rec;
		cls[n++] = c;
	}
	while (n-- > 0)
		rec_ev(x, r, pick[n], cls[n]);
}
