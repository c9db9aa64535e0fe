// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module memory of the netdevs behind RDMA ports. Reads are few and
 * cached: an empty mlx5 cage logs a kernel error on every attempt on
 * older kernels, so a cage the driver reports empty (link-down reason "no
 * cable") is not read at all; the identification pages are read once per
 * insertion (and again every RD_PROBE_STATIC_EVERY refreshes); the live
 * diagnostics at most once a second.
 */
#include "config.h"
#include "probes/xcvr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/genl/genl.h>

#include "probes/ethtool.h"

#define SRC "transceiver"
#define MAX_CAGES 32
#define PLAN_MAX 24
#define DIAG_EVERY_S 1.0

/* What is kept of one cage between refreshes. */
struct cage {
	char name[IF_NAMESIZE];
	uint64_t ifindex;
	bool ident_ok;			/* ident holds a whole identification */
	uint64_t ident_tick;
	struct rd_xcvr_mem ident;	/* pages that do not change while plugged */
	double diag_at;			/* CLOCK_MONOTONIC seconds, 0 never */
	struct rd_xcvr_mem last;	/* the memory decoded last time */
	const char *source;
	int err;			/* the last read's error, 0 none */
};

struct xcvr_cache {
	struct rd_ethtool_io io;
	struct cage cages[MAX_CAGES];
	size_t n_cages;
	unsigned long reads;		/* EEPROM reads made, for the benchmark */
};

static struct nla_policy eeprom_policy[ETHTOOL_A_MODULE_EEPROM_MAX + 1] = {
	[ETHTOOL_A_MODULE_EEPROM_HEADER] = { .type = NLA_NESTED },
	[ETHTOOL_A_MODULE_EEPROM_DATA] = { .type = NLA_UNSPEC },
};

int rd_xcvr_parse_eeprom(const void *bytes, size_t len, uint8_t out[128])
{
	struct nlattr *tb[ETHTOOL_A_MODULE_EEPROM_MAX + 1];
	struct rd_nl_iter it;
	const struct rd_nl_reply want = {
		.type = 0,
		.hdrlen = GENL_HDRLEN,
		.cmd_off = offsetof(struct genlmsghdr, cmd),
		.maxtype = ETHTOOL_A_MODULE_EEPROM_MAX,
		.policy = eeprom_policy,
	};
	int r = rd_nl_one_reply(&it, bytes, len, &want,
				ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, tb);

	if (r > 0) {
		struct nlattr *d = tb[ETHTOOL_A_MODULE_EEPROM_DATA];

		r = d && nla_len(d) == 128 ? 0 : -EBADMSG;
		if (r == 0)
			memcpy(out, nla_data(d), 128);
	} else if (r == 0) {
		r = -EBADMSG;	/* an answer with no reply message */
	}
	rd_nl_iter_end(&it);
	return r;
}

const char *rd_xcvr_errno_text(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return NULL;
	case EPERM:
	case EACCES:
		return "module data needs root (CAP_NET_ADMIN)";
	case EIO:
	case EREMOTEIO:
		return "module memory did not answer (I/O error): an empty "
		       "cage, or a module that does not respond";
	case EOPNOTSUPP:
	case ENODATA:
		return "the driver cannot read module memory";
	case ENODEV:
		return "the netdev went away while it was read";
	default:
		return "module memory could not be read";
	}
}

static double mono_now(void)
{
#ifdef RD_XCVR_FAKE_READER
	return rd_xcvr_fake_now();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
#endif
}

/* Is there a netlink socket to read halves through (the fake reader's is always up)? */
static bool nl_up(const struct xcvr_cache *c)
{
#ifdef RD_XCVR_FAKE_READER
	(void)c;
	return true;
#else
	return c->io.nl.sk != NULL;
#endif
}

static int nl_read_half(struct xcvr_cache *c, const char *ifname,
			const struct rd_xcvr_req *q, uint8_t out[128])
{
#ifdef RD_XCVR_FAKE_READER
	c->reads++;
	return rd_xcvr_fake_read(ifname, q, out);
#else
	struct nl_msg *m = nlmsg_alloc();
	struct rd_nl_buf b = { 0 };
	struct nlattr *hdr;
	int r = -ENOMEM;

	if (!m)
		return r;
	if (!genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->io.nl.family, 0,
			 NLM_F_REQUEST, ETHTOOL_MSG_MODULE_EEPROM_GET,
			 ETHTOOL_GENL_VERSION))
		goto out;
	hdr = nla_nest_start(m, ETHTOOL_A_MODULE_EEPROM_HEADER | NLA_F_NESTED);
	if (!hdr || nla_put_string(m, ETHTOOL_A_HEADER_DEV_NAME, ifname) < 0)
		goto out;
	nla_nest_end(m, hdr);
	if (nla_put_u32(m, ETHTOOL_A_MODULE_EEPROM_OFFSET, q->offset) < 0 ||
	    nla_put_u32(m, ETHTOOL_A_MODULE_EEPROM_LENGTH, 128) < 0 ||
	    nla_put_u8(m, ETHTOOL_A_MODULE_EEPROM_PAGE, q->page) < 0 ||
	    nla_put_u8(m, ETHTOOL_A_MODULE_EEPROM_BANK, q->bank) < 0 ||
	    nla_put_u8(m, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, q->i2c) < 0)
		goto out;
	c->reads++;
	r = rd_nl_request(c->io.nl.sk, m, &b);
	if (r == 0)
		r = rd_xcvr_parse_eeprom(b.data, b.len, out);
out:
	rd_nl_buf_free(&b);
	nlmsg_free(m);
	return r;
#endif
}

/* Read every half the plan asks for, a few rounds (the plan grows as it learns). */
static int nl_read_plan(struct xcvr_cache *c, const char *ifname,
			struct rd_xcvr_mem *mem, unsigned kinds)
{
	for (int round = 0; round < 4; round++) {
		struct rd_xcvr_req q[PLAN_MAX];
		size_t n = rd_xcvr_plan(mem, kinds, q, PLAN_MAX);

		if (n == 0)
			return 0;
		for (size_t i = 0; i < n; i++) {
			uint8_t half[128];
			int r = nl_read_half(c, ifname, &q[i], half);

			/* A lower page is a must; an upper one may be absent. */
			if (r < 0 && (i == 0 && q[i].offset == 0))
				return r;
			if (r == -EPERM || r == -ENODEV)
				return r;
			if (r < 0)
				continue;
			r = rd_xcvr_mem_put(mem, q[i].i2c, q[i].bank, q[i].page,
					    q[i].offset, half);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* The legacy ioctl: the whole memory in ethtool's linear layout. */
static int ioctl_read_all(struct xcvr_cache *c, const char *ifname,
			  struct rd_xcvr_mem *mem)
{
	struct ethtool_modinfo mi = { .cmd = ETHTOOL_GMODULEINFO };
	struct ethtool_eeprom *ee;
	struct ifreq ifr;
	int r;

	if (c->io.ioctl_fd < 0)
		return -EOPNOTSUPP;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&mi;
	if (ioctl(c->io.ioctl_fd, SIOCETHTOOL, &ifr) < 0)
		return -errno;
	if (mi.eeprom_len == 0 || mi.eeprom_len > 4096)
		return -EBADMSG;
	ee = calloc(1, sizeof(*ee) + mi.eeprom_len);
	if (!ee)
		return -ENOMEM;
	ee->cmd = ETHTOOL_GMODULEEEPROM;
	ee->offset = 0;
	ee->len = mi.eeprom_len;
	ifr.ifr_data = (void *)ee;
	c->reads++;
	r = ioctl(c->io.ioctl_fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
	if (r == 0)
		r = rd_xcvr_mem_from_raw(ee->data, ee->len, mem);
	free(ee);
	return r;
}

static struct cage *cage_of(struct xcvr_cache *c, const struct rd_netdev *d)
{
	for (size_t i = 0; i < c->n_cages; i++)
		if (!strcmp(c->cages[i].name, d->name) &&
		    c->cages[i].ifindex == d->ifindex.v)
			return &c->cages[i];
	if (c->n_cages == MAX_CAGES)
		return NULL;
	memset(&c->cages[c->n_cages], 0, sizeof(c->cages[0]));
	snprintf(c->cages[c->n_cages].name, IF_NAMESIZE, "%s", d->name);
	c->cages[c->n_cages].ifindex = d->ifindex.v;
	return &c->cages[c->n_cages++];
}

/* Read what is due into k->last; 0, or -errno with k->last untouched. */
static int read_cage(struct xcvr_cache *c, const struct rd_probe_ctx *ctx,
		     struct cage *k)
{
	bool ident_due = !rd_probe_cache_fresh(ctx, k->ident_tick, k->ident_ok,
					       RD_PROBE_STATIC_EVERY);
	double now = mono_now();
	struct rd_xcvr_mem *mem;
	int r;

	if (!ident_due && k->diag_at > 0 && now - k->diag_at < DIAG_EVERY_S)
		return 0;	/* served from k->last */
	mem = calloc(1, sizeof(*mem));
	if (!mem)
		return -ENOMEM;
	if (nl_up(c)) {
		if (!ident_due)
			*mem = k->ident;
		r = nl_read_plan(c, k->name, mem,
				 ident_due ? RD_XCVR_IDENT | RD_XCVR_DIAG :
					     RD_XCVR_DIAG);
		k->source = "ethtool netlink";
		if (r == -EOPNOTSUPP) {
			/* A kernel before MODULE_EEPROM_GET: the ioctl. */
			memset(mem, 0, sizeof(*mem));
			r = ioctl_read_all(c, k->name, mem);
			k->source = "ethtool ioctl";
		}
	} else {
		r = ioctl_read_all(c, k->name, mem);
		k->source = "ethtool ioctl";
	}
	if (r == 0 && ident_due) {
		/* Keep the halves of the identification for the next reads. */
		struct rd_xcvr_req q[PLAN_MAX];
		size_t n = rd_xcvr_live(mem, q, PLAN_MAX);

		k->ident = *mem;
		k->ident_ok = true;
		k->ident_tick = ctx->tick;
		/*
		 * Keep what does not change while the module stays plugged;
		 * drop the halves holding live values, which every
		 * diagnostics read takes again.
		 */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < k->ident.n; j++) {
				struct rd_xcvr_half *h = &k->ident.half[j];

				if (h->i2c == q[i].i2c && h->bank == q[i].bank &&
				    h->page == q[i].page &&
				    h->offset == q[i].offset) {
					*h = k->ident.half[--k->ident.n];
					break;
				}
			}
	}
	if (r == 0) {
		k->last = *mem;
		k->diag_at = now;
	}
	free(mem);
	return r;
}

static void fill(struct rd_snapshot *s, struct rd_netdev *d,
		 const struct cage *k, int r)
{
	struct rd_xcvr *x = &d->xcvr;
	char where[64];

	if (r < 0) {
		(void)rd_str_set(&x->error, rd_xcvr_errno_text(r));
		x->error_errno = rd_u64((uint64_t)-r);
		if (r != -EPERM && r != -EOPNOTSUPP && r != -EIO) {
			snprintf(where, sizeof(where), "%s module memory",
				 d->name);
			rd_snapshot_error(s, SRC, where, r, NULL);
		}
		return;
	}
	if (rd_xcvr_decode(&k->last, x) < 0) {
		(void)rd_str_set(&x->error,
				 "module memory read, but its identifier was "
				 "not (lower page 00h missing)");
		return;
	}
	x->present = rd_bool(true);
	(void)rd_str_set(&x->source, k->source);
	(void)rd_xcvr_pages_save(&k->last, x);
	x->read_at = rd_dbl(k->diag_at);
}

static bool has_cage(const struct rd_netdev *d)
{
	/*
	 * The netdev an RDMA port sits on. Stacked devices have no cage of
	 * their own (a bond's modules are its members'); a veth or dummy is
	 * asked, and says it cannot read one.
	 */
	static const char *const stacked[] = { "bond", "team", "vlan",
					       "macvlan", "ipvlan", "bridge" };

	if (!d->name || !d->rdma_device || d->lower)
		return false;
	for (size_t i = 0; d->kind && i < sizeof(stacked) / sizeof(*stacked);
	     i++)
		if (!strcmp(d->kind, stacked[i]))
			return false;
	return true;
}

static void xcvr_state_init(void *state)
{
	rd_ethtool_io_init(&((struct xcvr_cache *)state)->io);
}

static void xcvr_state_clear(void *state)
{
	struct xcvr_cache *c = state;

	rd_ethtool_io_close(&c->io);
	c->n_cages = 0;
}

static int probe_xcvr_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	struct xcvr_cache *c = state;
	int r;

#ifndef RD_XCVR_FAKE_READER
	rd_ethtool_io_open(&c->io, s, SRC);
#endif
	for (size_t i = 0; i < s->n_netdevs; i++) {
		struct rd_netdev *d = &s->netdevs[i];
		struct cage *k;

		if (!has_cage(d))
			continue;
		if (d->ethtool.ext_state_num.ok &&
		    d->ethtool.ext_state_num.v == RD_EXT_NO_CABLE) {
			/* The driver says the cage is empty: do not touch it. */
			d->xcvr.present = rd_bool(false);
			(void)rd_str_set(&d->xcvr.error,
					 "no module in the cage (the driver's "
					 "link-down reason: no cable)");
			k = cage_of(c, d);
			if (k)
				k->ident_ok = false;	/* re-read when one is in */
			continue;
		}
		k = cage_of(c, d);
		if (!k)
			continue;
		r = read_cage(c, ctx, k);
		if (r == -ETIMEDOUT || r == -EBADMSG) {
			rd_ethtool_nl_close(&c->io.nl);
			c->io.nl.sk = NULL;
		}
		if (r < 0)
			k->ident_ok = false;
		fill(s, d, k, r);
	}
	return 0;
}

const struct rd_probe probe_xcvr = RD_PROBE_ROW(
	"transceiver", RD_NEEDS_NETLINK | RD_NEEDS_NETDEVS, probe_xcvr_collect,
	struct xcvr_cache, xcvr_state_init, xcvr_state_clear);
