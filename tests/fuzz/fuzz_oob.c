// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perftest out-of-band messages as a peer would send them: the version
 * string, the system data, the MTU, the QP keys with and without a GID and
 * the fields of the bandwidth report. One byte picks the message, the rest
 * is what arrived.
 *
 * What decodes must encode back to the same bytes (hex digits compared
 * without case), the version must agree with perftest's own reading of it
 * (atof), and an error message, which goes to the terminal, must be plain
 * text whatever the peer sent.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/attr.h"
#include "perf/oob.h"

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(int r, const char *err)
{
	if (r == 0)
		return;
	if (r != -EPROTO || !memchr(err, '\0', 256) || !err[0] ||
	    rd_text_check(err, strlen(err)) < 0)
		abort();
	fuzz_assert_text(err, strlen(err));
}

static void keys(const uint8_t *data, size_t size, bool gid)
{
	struct perf_oob_keys k;
	char err[256] = "", out[PERF_OOB_KEYS_GID_LEN];
	int r;

	r = perf_oob_keys_decode((const char *)data, size, gid, &k, err,
				 sizeof(err));
	check_err(r, err);
	if (r < 0)
		return;
	r = perf_oob_keys_encode(&k, gid, out, sizeof(out));
	if (r < 0 || (size_t)r != size)
		abort();
	/* strncasecmp stops at the NUL that ends both. */
	if (strncasecmp(out, (const char *)data, size) != 0)
		abort();
}

static void version(const uint8_t *data, size_t size)
{
	char err[256] = "", buf[PERF_OOB_VERSION_LEN];
	unsigned h;
	int r;

	r = perf_oob_version_decode((const char *)data, size, &h, err,
				    sizeof(err));
	check_err(r, err);
	if (r < 0)
		return;
	/* perftest compares atof() results; two decimals are what count. */
	if (h != (unsigned)floor(strtod((const char *)data, NULL) * 100 + 1e-6))
		abort();
	if (perf_oob_version_encode((const char *)data, buf, sizeof(buf)) !=
	    PERF_OOB_VERSION_LEN)
		abort();
}

static void sysdata(const uint8_t *data, size_t size)
{
	char err[256] = "";
	uint8_t out[PERF_OOB_SYSDATA_LEN];
	uint32_t cb, cl;
	int r;

	r = perf_oob_sysdata_decode(data, size, &cb, &cl, err, sizeof(err));
	check_err(r, err);
	if (r < 0)
		return;
	perf_oob_sysdata_encode(cb, cl, out);
	if (memcmp(out, data, sizeof(out)))
		abort();
}

static void mtu(const uint8_t *data, size_t size)
{
	char err[256] = "", out[PERF_OOB_MTU_LEN];
	int m, r;

	r = perf_oob_mtu_decode((const char *)data, size, &m, err, sizeof(err));
	check_err(r, err);
	if (r < 0)
		return;
	if (perf_oob_mtu_encode(m, out, sizeof(out)) != PERF_OOB_MTU_LEN ||
	    memcmp(out, data, sizeof(out)))
		abort();
}

static void report(const uint8_t *data, size_t size)
{
	struct perf_oob_report rep = { 0 };
	uint8_t out[PERF_OOB_FIELD_LEN];

	for (int i = 0; i < PERF_OOB_REPORT_FIELDS; i++) {
		const uint8_t *f = data + (size_t)i * PERF_OOB_FIELD_LEN;
		char err[256] = "";
		int r;

		if (size < (size_t)(i + 1) * PERF_OOB_FIELD_LEN)
			return;
		r = perf_oob_report_field_decode(f, i, &rep, err, sizeof(err));
		check_err(r, err);
		if (r < 0)
			continue;
		perf_oob_report_field_encode(&rep, i, out);
		if (memcmp(out, f, sizeof(out)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *msg;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % 6;
	/* An exact-size heap copy, so a read past the message is caught. */
	msg = malloc(size - 1 ? size - 1 : 1);
	if (!msg)
		return 0;
	memcpy(msg, data + 1, size - 1);
	size--;
	switch (which) {
	case 0:
		version(msg, size);
		break;
	case 1:
		sysdata(msg, size);
		break;
	case 2:
		mtu(msg, size);
		break;
	case 3:
		keys(msg, size, false);
		break;
	case 4:
		keys(msg, size, true);
		break;
	default:
		report(msg, size);
		break;
	}
	free(msg);
	return 0;
}
