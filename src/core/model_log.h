/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own words about this host's RDMA devices: the records of
 * the kernel log (/dev/kmsg) that name one of them, each tied to the
 * device (and, where known, its port and netdev) it was found to be about.
 * Read by src/probes/kmsg.c; what a record means (its class in
 * data/kmsg.tsv) is judged by the checks, so a recording is classified
 * with the table of the rdmadiag that reads it.
 *
 * Units are in the field names: ts_usec is microseconds of the kernel's
 * monotonic clock since boot, wall_time seconds since the epoch.
 */
#ifndef RD_CORE_MODEL_LOG_H
#define RD_CORE_MODEL_LOG_H

#include <stddef.h>

#include "core/clock.h"
#include "core/model.h"

/* How many matched records a snapshot keeps: the newest ones. */
#define RD_KMSG_KEEP 256

/* One record of the kernel log, as /dev/kmsg gave it. */
struct rd_kmsg_rec {
	uint64_t seq;		 /* the kernel's sequence number */
	struct rd_ou64 level;	 /* 0 emerg .. 7 debug */
	struct rd_ou64 facility; /* 0 kernel */
	struct rd_ou64 ts_usec;	 /* monotonic, microseconds since boot */
	/*
	 * When it was logged, seconds since the epoch: the time of the
	 * reading minus its age on the monotonic clock. Absent when the log
	 * was a file (a fixture, a copied log): no clock relates the two.
	 */
	struct rd_odbl wall_time;
	char *flags;	 /* "-", "c" (continued), "+" */
	char *message;	 /* as the kernel escaped it (\xNN) */
	char *subsystem; /* dictionary SUBSYSTEM=: "pci", "net" */
	char *device;	 /* dictionary DEVICE=: "+pci:0000:3b:00.0", "n5" */
	char *dict;	 /* other dictionary lines, one per line */
	/* What it is about on this host, and what tied it there. */
	char *rdma_device;
	struct rd_ou64 port;
	char *netdev;
	char *pci_bdf;
	char *tied_by; /* "dictionary" or "text" */
};

struct rd_kmsg {
	/*
	 * readable: the log could be read (false with error saying why,
	 * "needs CAP_SYSLOG"); absent when it was not tried (a recording
	 * made before the kernel log was read).
	 */
	struct rd_obool readable;
	char *error;
	struct rd_ou64 error_errno; /* positive */
	char *source;		    /* "/dev/kmsg" or the file read */
	/* the records carry a wall time (a live log); false for a file */
	struct rd_obool wall_clock;
	struct rd_ou64 records_read; /* every record read, ours or not */
	struct rd_ou64 first_seq; /* the oldest record the kernel still held */
	struct rd_ou64 last_seq;
	struct rd_ou64
		gaps; /* times records were overwritten before read (EPIPE) */
	struct rd_ou64
		dropped;    /* ours, but pushed out of the RD_KMSG_KEEP kept */
	struct rd_ou64 bad; /* records that did not parse */
	struct rd_kmsg_rec *records; /* oldest first */
	size_t n_records;
};

/*
 * When a record was logged, as a person reads it: its wall time in zone
 * with wall_fmt (strftime) when the record has one, else the seconds since
 * boot as dmesg prints them ("[ 1234.567890]"), else "[?]".
 */
void rd_kmsg_rec_when(const struct rd_kmsg_rec *k, enum rd_clock_zone zone,
		      const char *wall_fmt, char *buf, size_t size);

extern const struct rd_field rd_kmsg_rec_fields[];
extern const struct rd_field rd_kmsg_fields[];

#endif
