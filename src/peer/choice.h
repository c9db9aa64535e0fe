/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a bw/lat test chose on one side before its QPs connect: the GID
 * index it will use (given with -x or picked), that GID's type and
 * address, and the MTU it asks for. Two rdmadiag ends carry theirs in the
 * peer summary; the two are compared as the ports are. Pure: no I/O;
 * every string written is escaped.
 */
#ifndef RD_PEER_CHOICE_H
#define RD_PEER_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/snapshot.h"
#include "diag/compare.h"

enum rd_test_gid_type {
	RD_TEST_GID_NONE,	/* no GRH: InfiniBand without -x */
	RD_TEST_GID_IB,
	RD_TEST_GID_ROCE_V1,
	RD_TEST_GID_ROCE_V2,
};

enum rd_test_family {
	RD_TEST_FAM_NONE,	/* no GID, or an InfiniBand one */
	RD_TEST_FAM_IPV4,	/* an IPv4-mapped GID */
	RD_TEST_FAM_IPV6,
	RD_TEST_FAM_LINK_LOCAL,	/* fe80::/10 */
};

struct rd_test_choice {
	bool set;		/* false: not known (older peer, no test) */
	bool by_cm;		/* rdma_cm picks the GID after the exchange */
	int gid_index;		/* -1: none */
	enum rd_test_gid_type type;
	uint8_t gid[16];
	unsigned mtu;		/* bytes the test asks for: 256 .. 4096 */
};

/* The most mismatches two choices can have. */
#define RD_TEST_ITEMS_MAX 4

enum rd_test_family rd_test_family(const struct rd_test_choice *t);
const char *rd_test_family_name(enum rd_test_family f);

/* "index 0, RoCE v2 fe80::1 (IPv6 link-local)", or why there is none. */
void rd_test_choice_text(const struct rd_test_choice *t, char *buf,
			 size_t len);

/* The JSON object carried in a summary; NULL on no memory. */
struct json_object *rd_test_choice_to_json(const struct rd_test_choice *t);

/*
 * Read a peer's object into t: every value checked against its range, the
 * GID parsed as an address (its family is derived here, never taken from
 * the peer). 0, or -EPROTO with t->set false and one escaped line in err.
 */
int rd_test_choice_from_json(struct json_object *j, struct rd_test_choice *t,
			     char *err, size_t errlen);

/*
 * The mismatches of the two tests' choices (a here, b the peer), at most
 * RD_TEST_ITEMS_MAX, into items. pa/pb: the two ports (NULL: not known),
 * for the GID index that would fix a family mismatch. Returns the count.
 */
size_t rd_test_choice_compare(const struct rd_test_choice *a,
			      const struct rd_test_choice *b,
			      const struct rd_port *pa, const struct rd_port *pb,
			      struct rd_cmp_item *items);

#endif
