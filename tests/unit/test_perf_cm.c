// SPDX-License-Identifier: GPL-2.0-or-later
/* perftest -R's binary QP keys and what a failed rdma_cm event means. */
#include "config.h"

#include <errno.h>
#include <rdma/rdma_cma.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perf/cm.h"

static const struct perf_oob_keys sample = {
	.lid = 0x12,
	.out_reads = 16,
	.qpn = 0xabcdef,
	.psn = 0x123456,
	.rkey = 0xdeadbeef,
	.vaddr = 0x00007f0011223344ull,
	.srqn = 7,
	.gid = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 51, 100, 2 },
};

/* The bytes of perftest's struct pingpong_dest as its rdma_write_keys
 * sends it: 32-bit fields big-endian, 4 bytes of padding before vaddr. */
static void keys_layout(void **state)
{
	uint8_t b[PERF_CM_KEYS_LEN + 8];
	static const uint8_t want[PERF_CM_KEYS_LEN] = {
		0, 0, 0, 0x12,	0, 0, 0, 16, 0, 0xab, 0xcd, 0xef,
		0, 0x12, 0x34, 0x56, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0,
		0, 0, 0x7f, 0, 0x11, 0x22, 0x33, 0x44,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 51, 100, 2,
		0, 0, 0, 7, 0, 0, 0, 0,
	};

	(void)state;
	assert_int_equal(perf_cm_keys_encode(&sample, b, sizeof(b)),
			 PERF_CM_KEYS_LEN);
	assert_memory_equal(b, want, PERF_CM_KEYS_LEN);
	assert_int_equal(perf_cm_keys_encode(&sample, b, PERF_CM_KEYS_LEN - 1),
			 -ENOSPC);
}

static void keys_round_trip(void **state)
{
	uint8_t b[PERF_CM_KEYS_LEN];
	struct perf_oob_keys k;
	char err[200] = "";

	(void)state;
	perf_cm_keys_encode(&sample, b, sizeof(b));
	assert_int_equal(perf_cm_keys_decode(b, sizeof(b), &k, err,
					     sizeof(err)),
			 0);
	assert_int_equal(k.lid, sample.lid);
	assert_int_equal(k.out_reads, sample.out_reads);
	assert_int_equal(k.qpn, sample.qpn);
	assert_int_equal(k.psn, sample.psn);
	assert_int_equal(k.rkey, sample.rkey);
	assert_true(k.vaddr == sample.vaddr);
	assert_int_equal(k.srqn, sample.srqn);
	assert_memory_equal(k.gid, sample.gid, 16);
}

/* A TCP-mode text message, a short one, fields too wide: refused. */
static void keys_refused(void **state)
{
	uint8_t b[PERF_CM_KEYS_LEN + 8] = { 0 };
	struct perf_oob_keys k;
	char err[200] = "";

	(void)state;
	assert_int_equal(perf_cm_keys_decode(b, 59, &k, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "59 bytes"));
	assert_int_equal(perf_cm_keys_decode(b, 10, &k, err, sizeof(err)),
			 -EPROTO);
	memcpy(b, "0012:000010:abcdef:123456:deadbeef:00007f00112233", 50);
	assert_int_equal(perf_cm_keys_decode(b, PERF_CM_KEYS_LEN, &k, err,
					     sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "out of range"));
}

static void event_hints(void **state)
{
	(void)state;
	assert_non_null(strstr(perf_cm_event_hint(RDMA_CM_EVENT_REJECTED, 8),
			       "nothing listens"));
	assert_non_null(strstr(perf_cm_event_hint(RDMA_CM_EVENT_REJECTED, 28),
			       "refused"));
	assert_non_null(strstr(perf_cm_event_hint(RDMA_CM_EVENT_UNREACHABLE,
						  -110),
			       "default_roce_mode"));
	assert_non_null(strstr(perf_cm_event_hint(RDMA_CM_EVENT_ADDR_ERROR,
						  -19),
			       "address"));
	assert_non_null(perf_cm_event_hint(12345, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_layout),
		cmocka_unit_test(keys_round_trip),
		cmocka_unit_test(keys_refused),
		cmocka_unit_test(event_hints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
