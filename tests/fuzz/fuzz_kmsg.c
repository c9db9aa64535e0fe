// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log reader on arbitrary bytes. The first byte picks the way
 * in: 0 one record (rd_kmsg_parse), 1 a file of records
 * (rd_kmsg_read_text), 2 the live device, whose read() hands out the
 * rest piece by piece (pieces split at NUL bytes; a piece starting with
 * '!' is an error: EPIPE, EINVAL, EINTR or EIO by its second byte).
 *
 * Nothing may crash or leak, every string kept must be printable text,
 * and every kept record must be tied to one of the snapshot's devices.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/data.h"
#include "probes/kmsg.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct pieces {
	const char *p, *end;
};

static ssize_t piece_read(void *arg, char *buf, size_t size)
{
	struct pieces *pc = arg;
	const char *e;
	size_t n;

	if (pc->p >= pc->end) {
		errno = EAGAIN;
		return -1;
	}
	e = memchr(pc->p, '\0', (size_t)(pc->end - pc->p));
	if (!e)
		e = pc->end;
	n = (size_t)(e - pc->p);
	if (n >= 1 && pc->p[0] == '!') {
		static const int errs[] = { EPIPE, EINVAL, EINTR, EIO };

		errno = errs[(n > 1 ? (unsigned char)pc->p[1] : 0) % 4];
		pc->p = e + 1;
		return -1;
	}
	if (n > size) {
		errno = EINVAL; /* the record stays until the buffer fits */
		return -1;
	}
	memcpy(buf, pc->p, n);
	pc->p = e + 1;
	return (ssize_t)n;
}

static void snapshot(struct rd_snapshot *s)
{
	struct rd_device *d;
	struct rd_port *p;
	struct rd_netdev *n;

	rd_snapshot_init(s);
	d = RD_PUSH_NAMED(s->devices, s->n_devices, name, "mlx5_1");
	if (!d)
		abort();
	d->pci_bdf = rd_strdup("0000:3b:00.1");
	p = RD_PUSH(d->ports, d->n_ports);
	if (!p)
		abort();
	p->port = 1;
	p->netdev = rd_strdup("eth3");
	p->netdev_ifindex = rd_u64(5);
	n = RD_PUSH_NAMED(s->netdevs, s->n_netdevs, name, "eth3");
	if (!n)
		abort();
	n->ifindex = rd_u64(5);
	n->rdma_device = rd_strdup("mlx5_1");
}

static void check_rec(const struct rd_kmsg_rec *k)
{
	const char *const strs[] = { k->flags,	 k->message, k->subsystem,
				     k->device,	 k->dict,    k->netdev,
				     k->pci_bdf, k->tied_by };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i] && !rd_text_clean(strs[i], strlen(strs[i])))
			abort();
	rd_kmsg_classify(rd_data_kmsg(), k->message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_kmsg_reader rd;
	struct rd_kmsg_rec rec;
	struct rd_snapshot s;
	const char *text = (const char *)data + 1;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		if (rd_kmsg_parse(text, size - 1, &rec) == 0) {
			check_rec(&rec);
			rd_model_free(rd_kmsg_rec_fields, &rec);
		}
		return 0;
	case 1:
	case 2:
		snapshot(&s);
		rd_kmsg_reader_init(&rd);
		if (data[0] % 3 == 1) {
			rd_kmsg_read_text(&rd, text, size - 1, &s);
		} else {
			struct pieces pc = { text, text + size - 1 };

			rd_kmsg_read_live(&rd, piece_read, &pc, &s, 1.7e9,
					  1000000000u);
		}
		for (size_t i = 0; i < rd.log.n_records; i++) {
			check_rec(&rd.log.records[i]);
			if (!rd.log.records[i].rdma_device ||
			    strcmp(rd.log.records[i].rdma_device, "mlx5_1") !=
				    0)
				abort();
		}
		if (rd.log.n_records > RD_KMSG_KEEP)
			abort();
		rd_kmsg_reader_clear(&rd);
		rd_snapshot_free(&s);
		return 0;
	}
	return 0;
}
