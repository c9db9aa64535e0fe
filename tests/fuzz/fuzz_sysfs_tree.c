// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probes' walk of a sysfs tree (--sysfs-root) on a generated tree:
 * the input names the directories (RDMA device, port, netdev, counters,
 * GID index) and fills the attributes with arbitrary bytes.
 *
 * Input: records separated by NUL. A record's first byte picks a slot;
 * the rest is a name (slots 0-5, used by the attributes that follow) or
 * the bytes of an attribute file (slot 6 on).
 *
 * Properties: probing never crashes; `snapshot` text (with -v) and
 * `check` text print no control byte; the snapshot and the results are
 * valid JSON, and the snapshot loads again to the same JSON.
 */
#include "config.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/snapshot.h"
#include "probes/probe.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { N_DEV, N_PORT, N_ND, N_CNT, N_HWC, N_GID, N_NAMES };

static const char *const defaults[N_NAMES] = { "mlx5_0", "1", "eth0",
					       "port_rcv_data",
					       "rx_write_requests", "0" };

/* %D device, %P port, %N netdev, %C counter, %H hw counter, %G GID index. */
static const char *const attrs[] = {
	"class/infiniband/%D/fw_ver",
	"class/infiniband/%D/node_type",
	"class/infiniband/%D/node_guid",
	"class/infiniband/%D/sys_image_guid",
	"class/infiniband/%D/hca_type",
	"class/infiniband/%D/board_id",
	"class/infiniband/%D/node_desc",
	"class/infiniband/%D/ports/%P/state",
	"class/infiniband/%D/ports/%P/phys_state",
	"class/infiniband/%D/ports/%P/rate",
	"class/infiniband/%D/ports/%P/link_layer",
	"class/infiniband/%D/ports/%P/lid",
	"class/infiniband/%D/ports/%P/sm_lid",
	"class/infiniband/%D/ports/%P/cap_mask",
	"class/infiniband/%D/ports/%P/gids/%G",
	"class/infiniband/%D/ports/%P/gid_attrs/types/%G",
	"class/infiniband/%D/ports/%P/gid_attrs/ndevs/%G",
	"class/infiniband/%D/ports/%P/pkeys/0",
	"class/infiniband/%D/ports/%P/counters/%C",
	"class/infiniband/%D/ports/%P/hw_counters/%H",
	"class/infiniband/%D/hw_counters/%H",
	"class/net/%N/mtu",
	"class/net/%N/operstate",
	"class/net/%N/address",
	"class/net/%N/carrier",
	"class/net/%N/flags",
	"class/net/%N/ifindex",
	"class/net/%N/speed",
	"class/net/%N/ecn/roce_np/enable/3",
	"class/net/%N/qos/trust",
	"module/ib_core/version",
};
#define N_ATTRS (sizeof(attrs) / sizeof(attrs[0]))

static int rm_cb(const char *p, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* mkdir -p of path's parents, then write the file. */
static void put(const char *root, const char *rel, const uint8_t *b,
		size_t n)
{
	char path[4096];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >=
	    sizeof(path))
		return;
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	if (write(fd, b, n) < 0)
		(void)0;
	close(fd);
}

/* A name the file system can hold as one path component. */
static void set_name(char *dst, size_t size, const uint8_t *b, size_t n,
		     const char *dflt)
{
	if (n == 0 || n >= size || memchr(b, '/', n) ||
	    (n == 1 && b[0] == '.') || (n == 2 && b[0] == '.' && b[1] == '.')) {
		snprintf(dst, size, "%s", dflt);
		return;
	}
	memcpy(dst, b, n);
	dst[n] = '\0';
}

static void expand(char *out, size_t size, const char *tmpl,
		   char names[N_NAMES][128])
{
	size_t o = 0;

	for (const char *t = tmpl; *t && o + 1 < size; t++) {
		const char *sub = NULL;

		if (*t == '%' && t[1]) {
			switch (*++t) {
			case 'D': sub = names[N_DEV]; break;
			case 'P': sub = names[N_PORT]; break;
			case 'N': sub = names[N_ND]; break;
			case 'C': sub = names[N_CNT]; break;
			case 'H': sub = names[N_HWC]; break;
			case 'G': sub = names[N_GID]; break;
			default: sub = ""; break;
			}
			o += (size_t)snprintf(out + o, size - o, "%s", sub);
			if (o >= size)
				o = size - 1;
			continue;
		}
		out[o++] = *t;
	}
	out[o] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char root[] = "/dev/shm/rdmadiag-fuzz-sysfs-XXXXXX";
	char names[N_NAMES][128], rel[1024];
	struct rd_roots roots;
	struct rd_probe_ctx ctx = { .roots = &roots,
				    .flags = RD_PROBE_NO_NETLINK |
					     RD_PROBE_NO_VERBS };
	struct rd_snapshot s;
	size_t i = 0;

	if (!mkdtemp(root))
		return 0;
	for (int k = 0; k < N_NAMES; k++)
		snprintf(names[k], sizeof(names[k]), "%s", defaults[k]);
	/* Always one device with one port, so the walk goes deep. */
	expand(rel, sizeof(rel), "class/infiniband/%D/ports/%P/state", names);
	{
		char p[1100];

		snprintf(p, sizeof(p), "sys/%s", rel);
		put(root, p, (const uint8_t *)"4: ACTIVE\n", 10);
	}
	while (i < size) {
		const uint8_t *rec = data + i, *end = memchr(rec, 0, size - i);
		size_t n = end ? (size_t)(end - rec) : size - i;

		i += n + 1;
		if (n == 0)
			continue;
		if (rec[0] % (N_NAMES + N_ATTRS) < N_NAMES) {
			int k = rec[0] % (N_NAMES + N_ATTRS);

			set_name(names[k], sizeof(names[k]), rec + 1, n - 1,
				 defaults[k]);
		} else {
			char p[1100];

			expand(rel, sizeof(rel),
			       attrs[rec[0] % (N_NAMES + N_ATTRS) - N_NAMES], names);
			snprintf(p, sizeof(p), "sys/%s", rel);
			put(root, p, rec + 1, n - 1);
		}
	}
	rd_roots_init(&roots);
	if (rd_roots_under(&roots, root) == 0) {
		rd_snapshot_init(&s);
		if (rd_probe_all(&ctx, &s) == 0)
			fuzz_round_trip(&s);
		rd_snapshot_free(&s);
	}
	nftw(root, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
