// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Journal semantics: undo of any journal, against the in-memory host of
 * the unit tests (tests/unit/test_fix_mock.h), so nothing on the machine
 * changes. The first byte picks the host's current values; the rest is
 * the journal file.
 *
 * Property: whatever the journal says, every change undo makes is one a
 * check could have made (the allowlist below, written independently of
 * the fix kinds' own checks), no module is ever touched, messages carry
 * no control bytes, the journal stays readable, and nothing crashes.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "../unit/test_fix_mock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static bool dec_in(const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	return rd_fix_parse_dec(s, &v) == 0 && v >= lo && v <= hi;
}

static bool allowed(const struct mock_change *c)
{
	const char *v = c->value;

	if (strcmp(c->kind, "link_up") == 0)
		return strcmp(c->arg, MOCK_RDMA_NETDEV) == 0 &&
		       (strcmp(v, "up") == 0 || strcmp(v, "down") == 0);
	if (strcmp(c->kind, "link_mtu") == 0)
		return strcmp(c->arg, MOCK_RDMA_NETDEV) == 0 &&
		       dec_in(v, 68, MOCK_MTU_MAX);
	if (strcmp(c->kind, "sysctl") == 0)
		return strcmp(c->arg, "/proc/sys/vm/nr_hugepages") == 0 &&
		       dec_in(v, 0, MOCK_HUGE_MAX);
	if (strcmp(c->kind, "pfc") == 0)
		return strcmp(c->arg, MOCK_RDMA_NETDEV) == 0 && strlen(v) == 4 &&
		       v[0] == '0' && v[1] == 'x' && strspn(v + 2, "0123456789abcdef") == 2;
	if (strcmp(c->kind, "rxe_add") == 0)
		return strncmp(c->arg, "rxe", 3) == 0 &&
		       strcmp(c->arg2, MOCK_RDMA_NETDEV) == 0 &&
		       (strcmp(v, "present") == 0 || strcmp(v, "absent") == 0);
	return false;	/* modprobe and anything else: never */
}

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "property broken: %s: %s\n", what, detail);
	abort();
}

static void check_msg(const char *msg)
{
	if (!rd_text_clean(msg, strlen(msg)))
		fail("control bytes in a message", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const mtu[] = { "1500", "9000", "1400", "68" };
	char path[128], msg[1024], err[512] = "";
	struct rd_journal j;
	struct mock_host mh;
	uint8_t pick;
	FILE *f;

	if (size < 1)
		return 0;
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/fuzz-undo-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		rd_journal_lock_wait_ms = 0;
	}
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	pick = data[0];
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	chmod(path, 0600);

	mock_init(&mh);
	mock_set(&mh, "link_mtu", "veth0", mtu[pick & 3]);
	mock_set(&mh, "link_up", "veth0", pick & 4 ? "up" : "down");
	mock_set(&mh, "sysctl", "/proc/sys/vm/nr_hugepages", pick & 8 ? "512" : "0");
	mock_set(&mh, "pfc", "veth0", pick & 16 ? "0x08" : "0x00");
	mock_set(&mh, "rxe_add", "rxe0", pick & 32 ? "present" : "absent");

	/* The last change, a few times over, then each entry by name. */
	for (int i = 0; i < 4; i++) {
		msg[0] = '\0';
		rd_fix_engine_undo(&mh.host, path, NULL, pick & 64, msg,
				   sizeof(msg));
		check_msg(msg);
	}
	if (rd_journal_read(path, &j, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < j.n && i < 16; i++) {
			char *id = strdup(j.v[i].id);

			msg[0] = '\0';
			if (id)
				rd_fix_engine_undo(&mh.host, path, id, pick & 128,
						   msg, sizeof(msg));
			free(id);
			check_msg(msg);
		}
		rd_journal_free(&j);
		/* What undo appended keeps the journal readable. */
		if (rd_journal_read(path, &j, err, sizeof(err)) < 0)
			fail("journal unreadable after undo", err);
		rd_journal_free(&j);
	} else {
		check_msg(err);
	}
	for (size_t i = 0; i < mh.n_log; i++)
		if (!allowed(&mh.log[i]))
			fail("change outside the allowlist", mh.log[i].arg);
	return 0;
}
