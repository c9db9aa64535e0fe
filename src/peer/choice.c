// SPDX-License-Identifier: GPL-2.0-or-later
/* The test's own choices on one side, and their comparison: see choice.h. */
#include "config.h"

#include "peer/choice.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"

static const char *const type_names[] = {
	[RD_TEST_GID_NONE] = "none",
	[RD_TEST_GID_IB] = "IB",
	[RD_TEST_GID_ROCE_V1] = "RoCE v1",
	[RD_TEST_GID_ROCE_V2] = "RoCE v2",
};

static bool is_v4mapped(const uint8_t *g)
{
	static const uint8_t pre[12] = { [10] = 0xff, [11] = 0xff };

	return memcmp(g, pre, sizeof(pre)) == 0;
}

enum rd_test_family rd_test_family(const struct rd_test_choice *t)
{
	if (!t->set || t->type == RD_TEST_GID_NONE || t->type == RD_TEST_GID_IB)
		return RD_TEST_FAM_NONE;
	if (is_v4mapped(t->gid))
		return RD_TEST_FAM_IPV4;
	if (t->gid[0] == 0xfe && (t->gid[1] & 0xc0) == 0x80)
		return RD_TEST_FAM_LINK_LOCAL;
	return RD_TEST_FAM_IPV6;
}

const char *rd_test_family_name(enum rd_test_family f)
{
	static const char *const names[] = {
		[RD_TEST_FAM_NONE] = "no IP address",
		[RD_TEST_FAM_IPV4] = "IPv4",
		[RD_TEST_FAM_IPV6] = "IPv6",
		[RD_TEST_FAM_LINK_LOCAL] = "IPv6 link-local",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0])
		       ? names[f]
		       : names[RD_TEST_FAM_NONE];
}

/* The GID as an address: dotted IPv4 when it is IPv4-mapped. */
static void gid_addr(const uint8_t *g, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (is_v4mapped(g) ? !inet_ntop(AF_INET, g + 12, a, sizeof(a))
			   : !inet_ntop(AF_INET6, g, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	snprintf(buf, len, "%s", a);
}

void rd_test_choice_text(const struct rd_test_choice *t, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (!t->set)
		snprintf(buf, len, "not known");
	else if (t->by_cm && t->gid_index < 0)
		snprintf(buf, len, "chosen by rdma_cm when it connects");
	else if (t->type == RD_TEST_GID_NONE)
		snprintf(buf, len, "no GID (no GRH)");
	else if (t->type == RD_TEST_GID_IB) {
		gid_addr(t->gid, a, sizeof(a));
		snprintf(buf, len, "index %d, IB %s", t->gid_index, a);
	} else {
		gid_addr(t->gid, a, sizeof(a));
		snprintf(buf, len, "index %d, %s %s (%s)", t->gid_index,
			 type_names[t->type], a,
			 rd_test_family_name(rd_test_family(t)));
	}
}

struct json_object *rd_test_choice_to_json(const struct rd_test_choice *t)
{
	struct json_object *j = json_object_new_object();
	char a[INET6_ADDRSTRLEN];

	if (!j)
		return NULL;
	if (json_object_object_add(j, "gid_index",
				   json_object_new_int(t->gid_index)) ||
	    json_object_object_add(j, "gid_type",
				   json_object_new_string(type_names[t->type])) ||
	    json_object_object_add(j, "mtu", json_object_new_int((int)t->mtu)) ||
	    json_object_object_add(j, "by_cm", json_object_new_boolean(t->by_cm)))
		goto fail;
	if (t->type != RD_TEST_GID_NONE) {
		if (!inet_ntop(AF_INET6, t->gid, a, sizeof(a)) ||
		    json_object_object_add(j, "gid", json_object_new_string(a)))
			goto fail;
	}
	return j;
fail:
	json_object_put(j);
	return NULL;
}

/* Refuse the peer's object: msg is this file's text, already clean. */
static int bad(struct rd_test_choice *t, char *err, size_t errlen,
	       const char *msg)
{
	if (errlen)
		snprintf(err, errlen, "%s", msg);
	memset(t, 0, sizeof(*t));
	return -EPROTO;
}

static bool get_int(struct json_object *j, const char *key, int64_t lo,
		    int64_t hi, int64_t *v)
{
	struct json_object *m;

	if (!json_object_object_get_ex(j, key, &m) ||
	    !json_object_is_type(m, json_type_int))
		return false;
	*v = json_object_get_int64(m);
	return *v >= lo && *v <= hi;
}

int rd_test_choice_from_json(struct json_object *j, struct rd_test_choice *t,
			     char *err, size_t errlen)
{
	struct json_object *m;
	const char *s;
	int64_t idx, mtu;
	size_t k;

	memset(t, 0, sizeof(*t));
	if (!json_object_is_type(j, json_type_object))
		return bad(t, err, errlen, "the test's choices are not an object");
	if (!get_int(j, "gid_index", -1, 65535, &idx))
		return bad(t, err, errlen, "no GID index in -1 .. 65535");
	if (!get_int(j, "mtu", 256, 4096, &mtu) || (mtu & (mtu - 1)))
		return bad(t, err, errlen, "no MTU of 256, 512, 1024, 2048 or 4096 bytes");
	if (!json_object_object_get_ex(j, "gid_type", &m) ||
	    !json_object_is_type(m, json_type_string))
		return bad(t, err, errlen, "no GID type");
	s = json_object_get_string(m);
	for (k = 0; k < sizeof(type_names) / sizeof(type_names[0]); k++)
		if (strcmp(s, type_names[k]) == 0)
			break;
	if (k == sizeof(type_names) / sizeof(type_names[0])) {
		char why[120];

		snprintf(why, sizeof(why), "an unknown GID type \"%s\"",
			 rd_esc_tmp(s));
		rd_utf8_trim_cut(why);
		return bad(t, err, errlen, why);
	}
	t->type = (enum rd_test_gid_type)k;
	t->gid_index = (int)idx;
	t->mtu = (unsigned)mtu;
	if (json_object_object_get_ex(j, "by_cm", &m)) {
		if (!json_object_is_type(m, json_type_boolean))
			return bad(t, err, errlen, "by_cm is not true or false");
		t->by_cm = json_object_get_boolean(m);
	}
	if ((t->type == RD_TEST_GID_NONE) != (t->gid_index < 0))
		return bad(t, err, errlen,
			   t->gid_index < 0 ? "GID index -1 does not go with a GID"
					    : "a GID index does not go with GID type none");
	if (t->type != RD_TEST_GID_NONE) {
		if (!json_object_object_get_ex(j, "gid", &m) ||
		    !json_object_is_type(m, json_type_string) ||
		    json_object_get_string_len(m) >= INET6_ADDRSTRLEN ||
		    inet_pton(AF_INET6, json_object_get_string(m), t->gid) != 1)
			return bad(t, err, errlen, "no GID address");
	}
	t->set = true;
	return 0;
}

static void item(struct rd_cmp_item *it, const char *what,
		 const struct rd_test_choice *a, const struct rd_test_choice *b,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void item(struct rd_cmp_item *it, const char *what,
		 const struct rd_test_choice *a, const struct rd_test_choice *b,
		 const char *fmt, ...)
{
	va_list ap;

	snprintf(it->what, sizeof(it->what), "%s", what);
	rd_test_choice_text(a, it->a, sizeof(it->a));
	rd_test_choice_text(b, it->b, sizeof(it->b));
	va_start(ap, fmt);
	vsnprintf(it->breaks, sizeof(it->breaks), fmt, ap);
	va_end(ap);
}

/* What to give -x so both ends speak IPv4 RoCE v2, if a port allows it. */
static void family_fix(const struct rd_test_choice *a,
		       const struct rd_test_choice *b, const struct rd_port *pa,
		       const struct rd_port *pb, char *buf, size_t len)
{
	char addr[64];
	int64_t ia = pa ? rd_cmp_gid_v2_ipv4(pa, addr, sizeof(addr)) : -1;
	int64_t ib = pb ? rd_cmp_gid_v2_ipv4(pb, addr, sizeof(addr)) : -1;

	if (rd_test_family(b) == RD_TEST_FAM_IPV4 && ia >= 0)
		snprintf(buf, len, "use -x %" PRId64 " here", ia);
	else if (rd_test_family(a) == RD_TEST_FAM_IPV4 && ib >= 0)
		snprintf(buf, len, "use -x %" PRId64 " on the peer", ib);
	else if (ia >= 0 && ib >= 0)
		snprintf(buf, len, "use -x %" PRId64 " here and -x %" PRId64
			 " on the peer (their IPv4 RoCE v2 GIDs)", ia, ib);
	else
		snprintf(buf, len, "give both ends GIDs of one address family");
}

/* The test asks for its port's active MTU (no -m): the ports' own
 * comparison names that mismatch already. */
static bool at_active(const struct rd_test_choice *t, const struct rd_port *p)
{
	return p && p->verbs.active_mtu.ok && p->verbs.active_mtu.v == t->mtu;
}

size_t rd_test_choice_compare(const struct rd_test_choice *a,
			      const struct rd_test_choice *b,
			      const struct rd_port *pa, const struct rd_port *pb,
			      struct rd_cmp_item *items)
{
	enum rd_test_family fa = rd_test_family(a), fb = rd_test_family(b);
	size_t n = 0;
	char fix[120];

	if (!a->set || !b->set)
		return 0;
	if (!(a->by_cm && a->gid_index < 0) && !(b->by_cm && b->gid_index < 0)) {
		if ((a->type == RD_TEST_GID_NONE) != (b->type == RD_TEST_GID_NONE))
			item(&items[n++], "the test's GRH", a, b,
			     "one end sends a global route header and the other "
			     "does not: the end without one drops the other's "
			     "packets, and RoCE cannot work without it");
		else if (a->type != b->type)
			item(&items[n++], "the test's GID type", a, b,
			     "the two ends put different headers on the wire "
			     "(RoCE v1: Ethernet type 0x8915; RoCE v2: UDP port "
			     "4791; IB: no Ethernet): neither accepts the "
			     "other's packets");
		else if (a->type == RD_TEST_GID_ROCE_V2 && fa != fb) {
			family_fix(a, b, pa, pb, fix, sizeof(fix));
			item(&items[n++], "the test's GID", a, b,
			     "the two ends speak different address families; "
			     "RoCE v2 packets between them cannot be routed: %s",
			     fix);
		}
	}
	if (a->mtu != b->mtu && !(at_active(a, pa) && at_active(b, pb)))
		item(&items[n++], "the test's MTU", a, b,
		     "both ends use the lower, %u bytes: larger messages "
		     "are cut into more packets, nothing fails",
		     a->mtu < b->mtu ? a->mtu : b->mtu);
	if (n && strcmp(items[n - 1].what, "the test's MTU") == 0) {
		snprintf(items[n - 1].a, sizeof(items[n - 1].a), "%u bytes", a->mtu);
		snprintf(items[n - 1].b, sizeof(items[n - 1].b), "%u bytes", b->mtu);
	}
	return n;
}
