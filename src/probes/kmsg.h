/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log (/dev/kmsg) about this host's RDMA devices: every record
 * is read, and those that name one of the devices (by the dictionary's
 * DEVICE=, else by a device, netdev or PCI name in the text) are kept.
 */
#ifndef RD_PROBES_KMSG_H
#define RD_PROBES_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probes/probe.h"

extern const struct rd_probe probe_kmsg;

/*
 * The buffer one read() gets: at least the kernel's largest record with
 * its dictionary (CONSOLE_EXT_LOG_MAX, 8 KiB); a read that says EINVAL
 * (too small) doubles it, up to RD_KMSG_BUF_MAX.
 */
#define RD_KMSG_BUF_FIRST 16384
#define RD_KMSG_BUF_MAX (1u << 20)

/* Why the log could not be opened for lack of privilege, as the check says it. */
#define RD_KMSG_NO_PERMISSION                                                \
	"kernel log not readable: needs CAP_SYSLOG (journalctl -k works for " \
	"members of the adm/systemd-journal groups)"

/*
 * Parse one record: "<prio>,<seq>,<ts_usec>,<flags>[,...];<message>\n"
 * then dictionary lines " KEY=value\n" (SUBSYSTEM=, DEVICE= kept apart,
 * the others in rec->dict). Bytes that are not printable ASCII become '?'
 * (the kernel itself writes them as \xNN). rec is zeroed first; on error
 * it owns nothing. 0, -EINVAL (not a record), -ENOMEM.
 */
int rd_kmsg_parse(const char *buf, size_t len, struct rd_kmsg_rec *rec);

/*
 * Tie a parsed record to one of the snapshot's RDMA devices: by its
 * dictionary first (DEVICE=+pci:<bdf> of a device's function, DEVICE=n<N>
 * the ifindex of a netdev behind one of its ports), then by a netdev,
 * PCI or RDMA device name in the text, as a whole word (mlx5_1 is not
 * found in mlx5_10); a record printed on another netdev the snapshot has
 * is never tied by its text. Fills rdma_device, port, netdev, pci_bdf,
 * tied_by.
 * True when tied; -ENOMEM is reported as false with *err set.
 */
bool rd_kmsg_tie(const struct rd_snapshot *s, struct rd_kmsg_rec *rec,
		 int *err);

/* What the reader keeps between refreshes. */
struct rd_kmsg_reader {
	struct rd_kmsg log;	/* the records kept so far, and the counts */
	int fd;			/* the open /dev/kmsg; -1 */
	bool have_seq;
	uint64_t last_seq;	/* the newest record seen */
	char *buf;
	size_t cap;
};

void rd_kmsg_reader_init(struct rd_kmsg_reader *r);
void rd_kmsg_reader_clear(struct rd_kmsg_reader *r);

/*
 * read() of the live log, one record per call: bytes, or -1 with errno
 * (EAGAIN at the end, EPIPE when records were overwritten, EINVAL when
 * the buffer is too small for the next record).
 */
typedef ssize_t rd_kmsg_read_fn(void *arg, char *buf, size_t size);

/*
 * Read records from fn until it says EAGAIN (or returns 0), keep those
 * tied to a device of s, and count the rest. now_realtime (seconds since
 * the epoch) and now_mono_usec (CLOCK_MONOTONIC) give each record its
 * wall time; now_mono_usec 0: none. EPIPE counts a gap and reading goes
 * on; EINVAL grows the buffer (never taken for the end). Returns 0, or
 * -errno of a failed read (what was read before it is kept).
 */
int rd_kmsg_read_live(struct rd_kmsg_reader *r, rd_kmsg_read_fn *fn,
		      void *arg, const struct rd_snapshot *s,
		      double now_realtime, uint64_t now_mono_usec);

/*
 * The same for a file of records (a fixture's dev/kmsg, a saved log):
 * one record per line plus its continuation lines, which start with a
 * space. Records already seen (by sequence number) are skipped, so a
 * file read again adds only what is new. Returns 0 or -ENOMEM.
 */
int rd_kmsg_read_text(struct rd_kmsg_reader *r, const char *text, size_t len,
		      const struct rd_snapshot *s);

#endif
