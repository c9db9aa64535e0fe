// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host text parsers (/proc/meminfo, limits.conf lines, the cpulist
 * writer, cgroup and mountinfo sniffing, the libibverbs file name) and the
 * PCI value parsers (address, link speed, VPD image) on arbitrary bytes.
 * One byte picks the parser; the rest is the file or value.
 *
 * What lands in a snapshot must serialise and load again unchanged (a
 * capture that cannot be replayed is lost evidence); what is printed must
 * read back to the same values.
 */
#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/json.h"
#include "core/snapshot.h"
#include "probes/ecn.h"
#include "probes/host.h"
#include "probes/pci.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void meminfo(const char *text)
{
	struct rd_snapshot s;

	rd_snapshot_init(&s);
	rd_host_parse_meminfo(text, "/proc/meminfo", &s);
	fuzz_round_trip(&s);
	rd_snapshot_free(&s);
}

static void limits(const uint8_t *data, size_t size)
{
	char path[] = "/dev/shm/fuzz-limits-XXXXXX";
	struct rd_snapshot s;
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return;
	}
	close(fd);
	rd_snapshot_init(&s);
	if (rd_host_parse_limits(path, &s) < 0)
		abort();
	for (size_t i = 0; i < s.host.n_limits; i++)
		if (!s.host.limits[i].value ||
		    strcmp(s.host.limits[i].item, "memlock") != 0)
			abort();
	unlink(path);
	fuzz_round_trip(&s);
	rd_snapshot_free(&s);
}

/* The bytes are a CPU mask; its cpulist must read back to the same mask. */
static void cpulist(const uint8_t *data, size_t size)
{
	size_t setsize = CPU_ALLOC_SIZE(1024);
	cpu_set_t *set = CPU_ALLOC(1024), *back = CPU_ALLOC(1024);
	char buf[8192];
	const char *p = buf;

	if (!set || !back)
		goto out;
	CPU_ZERO_S(setsize, set);
	CPU_ZERO_S(setsize, back);
	memcpy(set, data, size < setsize ? size : setsize);
	if (rd_cpulist_format(set, setsize, buf, sizeof(buf)) < 0)
		abort(); /* 1024 CPUs always fit in 8 KiB */
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			abort();
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (b < a || b >= 1024)
			abort();
		for (unsigned long c = a; c <= b; c++)
			CPU_SET_S(c, setsize, back);
		if (*end == ',')
			end++;
		else if (*end)
			abort();
		p = end;
	}
	if (!CPU_EQUAL_S(setsize, set, back))
		abort();
out:
	CPU_FREE(set);
	CPU_FREE(back);
}

static void bdf(const char *text)
{
	unsigned d, b, v, f;
	const char *colon = strchr(text, ':');
	char buf[32];

	if (rd_pci_parse_bdf(text, &d, &b, &v, &f) < 0)
		return;
	/* Only the canonical lower-case form is accepted. */
	snprintf(buf, sizeof(buf), "%0*x:%02x:%02x.%u", (int)(colon - text), d,
		 b, v, f);
	if (strcmp(buf, text) != 0)
		abort();
}

static void vpd(const uint8_t *data, size_t size)
{
	struct rd_snapshot s;
	struct rd_pci *p;
	char pn[64], sn[64];

	if (rd_pci_parse_vpd(data, size, pn, sizeof(pn), sn, sizeof(sn)) < 0)
		return;
	rd_snapshot_init(&s);
	p = RD_PUSH(s.pci, s.n_pci);
	if (p) {
		p->bdf = strdup("0000:00:00.0");
		if (pn[0])
			p->vpd_part_number = strdup(pn);
		if (sn[0])
			p->vpd_serial = strdup(sn);
	}
	fuzz_round_trip(&s);
	rd_snapshot_free(&s);
}

static void words(const char *text)
{
	char buf[64];
	double gts;

	if (rd_pci_parse_link_speed(text, &gts) == 0 &&
	    !(gts > 0 && gts <= 128))
		abort();
	if (rd_rdma_core_version_from_path(text, buf, sizeof(buf)) == 0 &&
	    rd_text_check(buf, strlen(buf)) < 0)
		abort();
	(void)rd_container_from_cgroup(text);
	(void)rd_mountinfo_overlay_root(text);
	if (rd_netdev_name_ok(text) &&
	    (strchr(text, '/') || strlen(text) >= 16))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % 6;
	data++;
	size--;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	switch (which) {
	case 0:
		meminfo(text);
		break;
	case 1:
		limits(data, size);
		break;
	case 2:
		cpulist(data, size);
		break;
	case 3:
		bdf(text);
		break;
	case 4:
		vpd(data, size);
		break;
	default:
		words(text);
		break;
	}
	free(text);
	return 0;
}
