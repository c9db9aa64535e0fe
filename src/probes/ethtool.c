// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool over genetlink (link modes, link state and its extended reason,
 * pause, FEC) and over SIOCETHTOOL (driver info and driver statistics,
 * which the netlink family does not carry). An operation the driver does
 * not implement is a note in rd_ethtool.unsupported, not an error.
 */
#include "config.h"
#include "probes/ethtool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "core/attr.h"

#define SRC "ethtool"
/* Newer than some UAPI headers we build against (kernel 6.7). */
#define RD_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT 7
#define RD_LINKSTATE_MAX 7
#define MAX_STATS 65536
#define MAX_BITS 1024

struct ethtool_cache {
	struct rd_ethtool_io io;
};

/* ---- names ---- */

static const char *const ext_states[] = {
	[ETHTOOL_LINK_EXT_STATE_AUTONEG] = "autoneg",
	[ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE] = "link training failure",
	[ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH] = "link logical mismatch",
	[ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY] = "bad signal integrity",
	[ETHTOOL_LINK_EXT_STATE_NO_CABLE] = "no cable",
	[ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE] = "cable issue",
	[ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE] = "EEPROM issue",
	[ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE] = "calibration failure",
	[ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED] = "power budget exceeded",
	[ETHTOOL_LINK_EXT_STATE_OVERHEAT] = "overheat",
	[ETHTOOL_LINK_EXT_STATE_MODULE] = "module",
	/* Newer than this system's UAPI header: by their numbers. */
	[11] = "OTP speed violation",	/* ..._OTP_SPEED_VIOLATION */
	[12] = "BMC request down",	/* ..._BMC_REQUEST_DOWN */
};

static const char *const sub_autoneg[] = {
	NULL,
	"no partner detected",
	"ack not received",
	"next page exchange failed",
	"no partner detected during force mode",
	"FEC mismatch during override",
	"no HCD",
};

static const char *const sub_training[] = {
	NULL,
	"KR frame lock not acquired",
	"KR link inhibit timeout",
	"KR link partner did not set receiver ready",
	"remote fault",
};

static const char *const sub_logical[] = {
	NULL,
	"PCS did not acquire block lock",
	"PCS did not acquire AM lock",
	"PCS did not get align status",
	"FC FEC is not locked",
	"RS FEC is not locked",
};

static const char *const sub_signal[] = {
	NULL,
	"large number of physical errors",
	"unsupported rate",
	"serdes reference clock lost",
	"serdes ALOS",
};

static const char *const sub_cable[] = {
	NULL,
	"unsupported cable",
	"cable test failure",
};

static const char *const sub_module[] = {
	NULL,
	"CMIS not ready",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *rd_ethtool_ext_state_name(unsigned state)
{
	return state < N(ext_states) ? ext_states[state] : NULL;
}

const char *rd_ethtool_ext_substate_name(unsigned state, unsigned sub)
{
	const char *const *t = NULL;
	size_t n = 0;

	switch (state) {
	case ETHTOOL_LINK_EXT_STATE_AUTONEG:
		t = sub_autoneg, n = N(sub_autoneg);
		break;
	case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
		t = sub_training, n = N(sub_training);
		break;
	case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
		t = sub_logical, n = N(sub_logical);
		break;
	case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
		t = sub_signal, n = N(sub_signal);
		break;
	case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
		t = sub_cable, n = N(sub_cable);
		break;
	case ETHTOOL_LINK_EXT_STATE_MODULE:
		t = sub_module, n = N(sub_module);
		break;
	default:
		return NULL;
	}
	return sub < n ? t[sub] : NULL;
}

/* FEC link-mode bits, named as the kernel's link_mode_names has them. */
static const char *fec_bit_name(unsigned bit)
{
	switch (bit) {
	case ETHTOOL_LINK_MODE_FEC_NONE_BIT:
		return "None";
	case ETHTOOL_LINK_MODE_FEC_RS_BIT:
		return "RS";
	case ETHTOOL_LINK_MODE_FEC_BASER_BIT:
		return "BASER";
	case ETHTOOL_LINK_MODE_FEC_LLRS_BIT:
		return "LLRS";
	default:
		return NULL;
	}
}

/* ---- policies ---- */

static struct nla_policy linkmodes_policy[ETHTOOL_A_LINKMODES_MAX + 1] = {
	[ETHTOOL_A_LINKMODES_HEADER] = { .type = NLA_NESTED },
	[ETHTOOL_A_LINKMODES_AUTONEG] = { .type = NLA_U8 },
	[ETHTOOL_A_LINKMODES_OURS] = { .type = NLA_NESTED },
	[ETHTOOL_A_LINKMODES_PEER] = { .type = NLA_NESTED },
	[ETHTOOL_A_LINKMODES_SPEED] = { .type = NLA_U32 },
	[ETHTOOL_A_LINKMODES_DUPLEX] = { .type = NLA_U8 },
	[ETHTOOL_A_LINKMODES_LANES] = { .type = NLA_U32 },
};

static struct nla_policy linkstate_policy[RD_LINKSTATE_MAX + 1] = {
	[ETHTOOL_A_LINKSTATE_HEADER] = { .type = NLA_NESTED },
	[ETHTOOL_A_LINKSTATE_LINK] = { .type = NLA_U8 },
	[ETHTOOL_A_LINKSTATE_SQI] = { .type = NLA_U32 },
	[ETHTOOL_A_LINKSTATE_SQI_MAX] = { .type = NLA_U32 },
	[ETHTOOL_A_LINKSTATE_EXT_STATE] = { .type = NLA_U8 },
	[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE] = { .type = NLA_U8 },
	[RD_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT] = { .type = NLA_U32 },
};

static struct nla_policy pause_policy[ETHTOOL_A_PAUSE_MAX + 1] = {
	[ETHTOOL_A_PAUSE_HEADER] = { .type = NLA_NESTED },
	[ETHTOOL_A_PAUSE_AUTONEG] = { .type = NLA_U8 },
	[ETHTOOL_A_PAUSE_RX] = { .type = NLA_U8 },
	[ETHTOOL_A_PAUSE_TX] = { .type = NLA_U8 },
	[ETHTOOL_A_PAUSE_STATS] = { .type = NLA_NESTED },
};

static struct nla_policy fec_policy[ETHTOOL_A_FEC_MAX + 1] = {
	[ETHTOOL_A_FEC_HEADER] = { .type = NLA_NESTED },
	[ETHTOOL_A_FEC_MODES] = { .type = NLA_NESTED },
	[ETHTOOL_A_FEC_AUTO] = { .type = NLA_U8 },
	[ETHTOOL_A_FEC_ACTIVE] = { .type = NLA_U32 },
	[ETHTOOL_A_FEC_STATS] = { .type = NLA_NESTED },
};

static struct nla_policy bitset_policy[ETHTOOL_A_BITSET_MAX + 1] = {
	[ETHTOOL_A_BITSET_NOMASK] = { .type = NLA_FLAG },
	[ETHTOOL_A_BITSET_SIZE] = { .type = NLA_U32 },
	[ETHTOOL_A_BITSET_BITS] = { .type = NLA_NESTED },
	[ETHTOOL_A_BITSET_VALUE] = { .type = NLA_UNSPEC },
	[ETHTOOL_A_BITSET_MASK] = { .type = NLA_UNSPEC },
};

static struct nla_policy bit_policy[ETHTOOL_A_BITSET_BIT_MAX + 1] = {
	[ETHTOOL_A_BITSET_BIT_INDEX] = { .type = NLA_U32 },
	[ETHTOOL_A_BITSET_BIT_NAME] = { .type = NLA_STRING, .maxlen = 64 },
	[ETHTOOL_A_BITSET_BIT_VALUE] = { .type = NLA_FLAG },
};

/*
 * The single reply message of a GET: check the genl header's command and
 * index its attributes. Returns 1 with tb filled, or 0/-errno.
 */
static int one_reply(const void *bytes, size_t len, int reply_cmd,
		     struct nlattr **tb, int maxtype,
		     const struct nla_policy *policy, struct rd_nl_iter *it)
{
	const struct rd_nl_reply want = {
		.type = 0, /* the family's id, whatever the kernel gave it */
		.hdrlen = GENL_HDRLEN,
		.cmd_off = offsetof(struct genlmsghdr, cmd),
		.maxtype = maxtype,
		.policy = policy,
	};

	return rd_nl_one_reply(it, bytes, len, &want, reply_cmd, tb);
}

enum bs_which { BS_VALUE, BS_MASK };
static int bitset_names(struct nlattr *set, enum bs_which which, char *out,
			size_t size);

static int linkmode_lists(struct nlattr **tb, struct rd_ethtool *et)
{
	char sup[4096] = "", adv[4096] = "", peer[4096] = "";
	int r = 0;

	if (tb[ETHTOOL_A_LINKMODES_OURS]) {
		r = bitset_names(tb[ETHTOOL_A_LINKMODES_OURS], BS_MASK, sup,
				 sizeof(sup));
		if (r == 0)
			r = bitset_names(tb[ETHTOOL_A_LINKMODES_OURS], BS_VALUE,
					 adv, sizeof(adv));
		if (r == 0 && (rd_str_set(&et->modes_supported, sup) ||
			       rd_str_set(&et->modes_advertised, adv)))
			r = -ENOMEM;
	}
	/* The kernel leaves PEER out when the partner advertised nothing. */
	if (r == 0 && tb[ETHTOOL_A_LINKMODES_PEER])
		r = bitset_names(tb[ETHTOOL_A_LINKMODES_PEER], BS_VALUE, peer,
				 sizeof(peer));
	if (r == 0 && tb[ETHTOOL_A_LINKMODES_OURS] &&
	    rd_str_set(&et->modes_partner, peer))
		r = -ENOMEM;
	return r;
}

int rd_ethtool_parse_linkmodes(const void *bytes, size_t len,
			       struct rd_ethtool *et)
{
	struct nlattr *tb[ETHTOOL_A_LINKMODES_MAX + 1];
	struct rd_nl_iter it;
	int r = one_reply(bytes, len, ETHTOOL_MSG_LINKMODES_GET_REPLY, tb,
			  ETHTOOL_A_LINKMODES_MAX, linkmodes_policy, &it);

	if (r > 0) {
		r = 0;
		if (tb[ETHTOOL_A_LINKMODES_SPEED]) {
			uint32_t v = nla_get_u32(tb[ETHTOOL_A_LINKMODES_SPEED]);

			/* SPEED_UNKNOWN: link down or not reported. */
			if (v != (uint32_t)SPEED_UNKNOWN && v != 0)
				et->speed_mbps = rd_u64(v);
		}
		if (tb[ETHTOOL_A_LINKMODES_DUPLEX]) {
			uint8_t v = nla_get_u8(tb[ETHTOOL_A_LINKMODES_DUPLEX]);

			if (v == DUPLEX_FULL)
				(void)rd_str_set(&et->duplex, "full");
			else if (v == DUPLEX_HALF)
				(void)rd_str_set(&et->duplex, "half");
		}
		if (tb[ETHTOOL_A_LINKMODES_AUTONEG])
			et->autoneg = rd_bool(
				nla_get_u8(tb[ETHTOOL_A_LINKMODES_AUTONEG]) ==
				AUTONEG_ENABLE);
		if (tb[ETHTOOL_A_LINKMODES_LANES] &&
		    nla_get_u32(tb[ETHTOOL_A_LINKMODES_LANES]))
			et->lanes = rd_u64(
				nla_get_u32(tb[ETHTOOL_A_LINKMODES_LANES]));
		r = linkmode_lists(tb, et);
	}
	rd_nl_iter_end(&it);
	return r;
}

int rd_ethtool_parse_linkstate(const void *bytes, size_t len,
			       struct rd_ethtool *et)
{
	struct nlattr *tb[RD_LINKSTATE_MAX + 1];
	struct rd_nl_iter it;
	int r = one_reply(bytes, len, ETHTOOL_MSG_LINKSTATE_GET_REPLY, tb,
			  RD_LINKSTATE_MAX, linkstate_policy, &it);

	if (r > 0) {
		r = 0;
		if (tb[ETHTOOL_A_LINKSTATE_LINK])
			et->link_detected = rd_bool(
				nla_get_u8(tb[ETHTOOL_A_LINKSTATE_LINK]) != 0);
		if (tb[ETHTOOL_A_LINKSTATE_EXT_STATE]) {
			unsigned st = nla_get_u8(tb[ETHTOOL_A_LINKSTATE_EXT_STATE]);
			const char *name = rd_ethtool_ext_state_name(st);
			char buf[32];

			et->ext_state_num = rd_u64(st);
			if (!name) {
				snprintf(buf, sizeof(buf), "state %u", st);
				name = buf;
			}
			(void)rd_str_set(&et->ext_state, name);
			if (tb[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE]) {
				unsigned sub = nla_get_u8(
					tb[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE]);

				et->ext_substate_num = rd_u64(sub);
				name = rd_ethtool_ext_substate_name(st, sub);
				if (!name) {
					snprintf(buf, sizeof(buf),
						 "substate %u", sub);
					name = buf;
				}
				(void)rd_str_set(&et->ext_substate, name);
			}
		}
		if (tb[RD_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT])
			et->link_down_events = rd_u64(nla_get_u32(
				tb[RD_ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT]));
	}
	rd_nl_iter_end(&it);
	return r;
}

int rd_ethtool_parse_pause(const void *bytes, size_t len,
			   struct rd_ethtool *et)
{
	struct nlattr *tb[ETHTOOL_A_PAUSE_MAX + 1];
	struct rd_nl_iter it;
	int r = one_reply(bytes, len, ETHTOOL_MSG_PAUSE_GET_REPLY, tb,
			  ETHTOOL_A_PAUSE_MAX, pause_policy, &it);

	if (r > 0) {
		r = 0;
		if (tb[ETHTOOL_A_PAUSE_AUTONEG])
			et->pause_autoneg = rd_bool(
				nla_get_u8(tb[ETHTOOL_A_PAUSE_AUTONEG]) != 0);
		if (tb[ETHTOOL_A_PAUSE_RX])
			et->rx_pause =
				rd_bool(nla_get_u8(tb[ETHTOOL_A_PAUSE_RX]) != 0);
		if (tb[ETHTOOL_A_PAUSE_TX])
			et->tx_pause =
				rd_bool(nla_get_u8(tb[ETHTOOL_A_PAUSE_TX]) != 0);
	}
	rd_nl_iter_end(&it);
	return r;
}

static void words_add(char *buf, size_t size, const char *w)
{
	size_t l = strlen(buf);

	snprintf(buf + l, size - l, "%s%s", l ? " " : "", w);
}

/*
 * Names of the bits of a bitset, verbose (the kernel names each bit) or
 * compact (u32 words in host order; only FEC bits have names here, others
 * are "bitN"). which: the set bits (VALUE), or every bit the mask holds
 * (MASK: what the device supports).
 */
static int bitset_names(struct nlattr *set, enum bs_which which, char *out,
			size_t size)
{
	struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1];
	bool nomask;
	int r = rd_nla_parse_nested(tb, ETHTOOL_A_BITSET_MAX, set,
				    bitset_policy);

	if (r < 0)
		return r;
	nomask = tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	if (tb[ETHTOOL_A_BITSET_BITS]) {
		struct nlattr *b;
		int rem, count = 0;

		nla_for_each_nested(b, tb[ETHTOOL_A_BITSET_BITS], rem) {
			struct nlattr *bt[ETHTOOL_A_BITSET_BIT_MAX + 1];
			const char *name;
			char num[24];

			if (nla_type(b) != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			if (++count > MAX_BITS)
				return -E2BIG;
			r = rd_nla_parse_nested(bt, ETHTOOL_A_BITSET_BIT_MAX, b,
						bit_policy);
			if (r < 0)
				return r;
			if (!bt[ETHTOOL_A_BITSET_BIT_INDEX])
				return -EBADMSG;
			/* A listed bit is in the mask; VALUE says it is set. */
			if (which == BS_VALUE && !nomask &&
			    !bt[ETHTOOL_A_BITSET_BIT_VALUE])
				continue;
			name = rd_nl_text(bt[ETHTOOL_A_BITSET_BIT_NAME]);
			if (!name)
				name = fec_bit_name(nla_get_u32(
					bt[ETHTOOL_A_BITSET_BIT_INDEX]));
			if (!name) {
				snprintf(num, sizeof(num), "bit%u",
					 nla_get_u32(bt[ETHTOOL_A_BITSET_BIT_INDEX]));
				name = num;
			}
			words_add(out, size, name);
		}
		return 0;
	}
	{
		struct nlattr *a = tb[which == BS_MASK && !nomask ?
					      ETHTOOL_A_BITSET_MASK :
					      ETHTOOL_A_BITSET_VALUE];
		const uint8_t *v;
		unsigned nbytes, nbits;

		if (!a)
			return 0;
		v = nla_data(a);
		nbytes = (unsigned)nla_len(a) & ~3u;
		nbits = nbytes * 8;
		if (nbits > MAX_BITS)
			nbits = MAX_BITS;
		/* Compact form: u32 words in host order. */
		for (unsigned bit = 0; bit < nbits; bit++) {
			const char *name = fec_bit_name(bit);
			char num[24];
			uint32_t w;

			memcpy(&w, v + (bit / 32) * 4, 4);
			if (!(w & (1u << (bit % 32))))
				continue;
			if (!name) {
				snprintf(num, sizeof(num), "bit%u", bit);
				name = num;
			}
			words_add(out, size, name);
		}
	}
	return 0;
}

/* The FEC statistics nest: arrays of u64, the total then one per lane. */
static int fec_stats(struct nlattr *nest, struct rd_counters *out)
{
	static const struct {
		int type;
		const char *name;
	} st[] = {
		{ ETHTOOL_A_FEC_STAT_CORRECTED, "corrected_blocks" },
		{ ETHTOOL_A_FEC_STAT_UNCORR, "uncorrectable_blocks" },
		{ ETHTOOL_A_FEC_STAT_CORR_BITS, "corrected_bits" },
	};
	struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		const char *name = NULL;
		size_t n, len = (size_t)nla_len(a);
		const uint8_t *p = nla_data(a);

		for (size_t i = 0; i < N(st); i++)
			if (nla_type(a) == st[i].type)
				name = st[i].name;
		if (!name)
			continue;	/* PAD, the histogram, newer kinds */
		if (len % 8 || len / 8 > 1 + 64)
			return -EBADMSG;
		n = len / 8;
		for (size_t i = 0; i < n; i++) {
			char key[64];
			uint64_t v;

			memcpy(&v, p + i * 8, 8);
			if (i == 0)
				snprintf(key, sizeof(key), "%s", name);
			else
				snprintf(key, sizeof(key), "%s_lane%zu", name,
					 i - 1);
			if (!rd_counters_add(out, key, rd_u64(v)))
				return -ENOMEM;
		}
	}
	return 0;
}

int rd_ethtool_parse_fec(const void *bytes, size_t len, struct rd_ethtool *et)
{
	struct nlattr *tb[ETHTOOL_A_FEC_MAX + 1];
	struct rd_nl_iter it;
	char conf[256] = "";
	int r = one_reply(bytes, len, ETHTOOL_MSG_FEC_GET_REPLY, tb,
			  ETHTOOL_A_FEC_MAX, fec_policy, &it);

	if (r > 0) {
		r = 0;
		if (tb[ETHTOOL_A_FEC_AUTO])
			et->fec_auto = rd_bool(nla_get_u8(tb[ETHTOOL_A_FEC_AUTO]));
		if (tb[ETHTOOL_A_FEC_AUTO] && nla_get_u8(tb[ETHTOOL_A_FEC_AUTO]))
			words_add(conf, sizeof(conf), "Auto");
		if (tb[ETHTOOL_A_FEC_MODES])
			r = bitset_names(tb[ETHTOOL_A_FEC_MODES], BS_VALUE,
					 conf, sizeof(conf));
		if (r == 0 && conf[0])
			(void)rd_str_set(&et->fec_configured, conf);
		if (r == 0 && tb[ETHTOOL_A_FEC_ACTIVE]) {
			uint32_t bit = nla_get_u32(tb[ETHTOOL_A_FEC_ACTIVE]);
			const char *name = fec_bit_name(bit);
			char num[24];

			if (!name) {
				snprintf(num, sizeof(num), "bit%u", bit);
				name = num;
			}
			(void)rd_str_set(&et->fec_active, name);
		}
		if (r == 0 && tb[ETHTOOL_A_FEC_STATS])
			r = fec_stats(tb[ETHTOOL_A_FEC_STATS], &et->fec_stats);
	}
	rd_nl_iter_end(&it);
	return r;
}

/* ---- ioctl side ---- */

static void fixed_str(char **dst, const char *src, size_t size)
{
	char buf[64];
	size_t n = strnlen(src, size);

	if (n == 0 || n >= sizeof(buf))
		return;
	memcpy(buf, src, n);
	buf[n] = '\0';
	if (rd_text_check(buf, n) == 0)
		(void)rd_str_set(dst, buf);
}

int rd_ethtool_parse_drvinfo(const void *bytes, size_t len,
			     struct rd_ethtool *et)
{
	struct ethtool_drvinfo di;

	if (!bytes || len < sizeof(di))
		return -EBADMSG;
	memcpy(&di, bytes, sizeof(di));
	if (di.cmd != ETHTOOL_GDRVINFO)
		return -EBADMSG;
	fixed_str(&et->driver, di.driver, sizeof(di.driver));
	fixed_str(&et->driver_version, di.version, sizeof(di.version));
	fixed_str(&et->firmware, di.fw_version, sizeof(di.fw_version));
	fixed_str(&et->bus_info, di.bus_info, sizeof(di.bus_info));
	return 0;
}

int rd_ethtool_parse_stats(const void *names, size_t names_len,
			   const void *values, size_t values_len,
			   struct rd_counters *out)
{
	size_t n;

	if (names_len % ETH_GSTRING_LEN || values_len % sizeof(uint64_t))
		return -EBADMSG;
	n = names_len / ETH_GSTRING_LEN;
	if (n != values_len / sizeof(uint64_t) || n > MAX_STATS)
		return -EBADMSG;
	if (n && (!names || !values))
		return -EBADMSG;
	for (size_t i = 0; i < n; i++) {
		const char *s = (const char *)names + i * ETH_GSTRING_LEN;
		char name[ETH_GSTRING_LEN + 1];
		size_t l = strnlen(s, ETH_GSTRING_LEN);
		uint64_t v;

		memcpy(name, s, l);
		name[l] = '\0';
		memcpy(&v, (const uint8_t *)values + i * sizeof(v), sizeof(v));
		/* A nameless (blank) or garbled entry cannot be shown or
		 * matched. */
		if (rd_text_check(name, l) < 0 || !*rd_strtrim(name))
			continue;
		if (!rd_counters_add(out, name, rd_u64(v)))
			return -ENOMEM;
	}
	return 0;
}

static int eth_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

int rd_ethtool_ioctl_drvinfo(int fd, const char *ifname, void *buf,
			     size_t size)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	int r;

	if (size < sizeof(di))
		return -EINVAL;
	r = eth_ioctl(fd, ifname, &di);
	if (r == 0)
		memcpy(buf, &di, sizeof(di));
	return r;
}

int rd_ethtool_ioctl_stats(int fd, const char *ifname, void **names,
			   void **values, size_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			  .sset_mask = 1ull << ETH_SS_STATS } };
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	size_t cnt;
	int r;

	*names = *values = NULL;
	*n = 0;
	r = eth_ioctl(fd, ifname, &ss);
	if (r < 0)
		return r;
	if (!(ss.hdr.sset_mask & (1ull << ETH_SS_STATS)))
		return -EOPNOTSUPP;
	cnt = ss.len;
	if (cnt == 0)
		return 0;
	if (cnt > MAX_STATS)
		return -E2BIG;
	gs = calloc(1, sizeof(*gs) + cnt * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + cnt * sizeof(uint64_t));
	if (!gs || !st) {
		r = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)cnt;
	r = eth_ioctl(fd, ifname, gs);
	if (r < 0)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)cnt;
	r = eth_ioctl(fd, ifname, st);
	if (r < 0)
		goto out;
	/* The set can change between the calls (channels reconfigured). */
	if (gs->len != cnt || st->n_stats != cnt) {
		r = -EAGAIN;
		goto out;
	}
	*names = malloc(cnt * ETH_GSTRING_LEN);
	*values = malloc(cnt * sizeof(uint64_t));
	if (!*names || !*values) {
		free(*names);
		free(*values);
		*names = *values = NULL;
		r = -ENOMEM;
		goto out;
	}
	memcpy(*names, gs->data, cnt * ETH_GSTRING_LEN);
	memcpy(*values, st->data, cnt * sizeof(uint64_t));
	*n = cnt;
out:
	free(gs);
	free(st);
	return r;
}

/* ---- genetlink side ---- */

int rd_ethtool_nl_open(struct rd_ethtool_nl *e)
{
	int r;

	e->sk = NULL;
	e->family = -1;
	r = rd_nl_open(NETLINK_GENERIC, &e->sk);
	if (r < 0)
		return r;
	r = genl_ctrl_resolve(e->sk, ETHTOOL_GENL_NAME);
	if (r < 0) {
		rd_nl_close(&e->sk);
		r = rd_nl_errno(r);
		return r == -ENOENT || r == -EIO ? -ENOENT : r;
	}
	e->family = r;
	return 0;
}

void rd_ethtool_nl_close(struct rd_ethtool_nl *e)
{
	rd_nl_close(&e->sk);
	e->family = -1;
}

int rd_ethtool_nl_get(struct rd_ethtool_nl *e, int cmd, const char *ifname,
		      uint32_t flags, struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlattr *hdr;
	int r = -ENOMEM;

	if (!m)
		return r;
	/* Every GET has its request header as attribute 1. */
	if (!genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, e->family, 0,
			 NLM_F_REQUEST, (uint8_t)cmd, ETHTOOL_GENL_VERSION))
		goto out;
	hdr = nla_nest_start(m, ETHTOOL_A_LINKMODES_HEADER | NLA_F_NESTED);
	if (!hdr || nla_put_string(m, ETHTOOL_A_HEADER_DEV_NAME, ifname) < 0 ||
	    (flags && nla_put_u32(m, ETHTOOL_A_HEADER_FLAGS, flags) < 0))
		goto out;
	nla_nest_end(m, hdr);
	r = rd_nl_request(e->sk, m, out);
out:
	nlmsg_free(m);
	return r;
}

/* ---- the probe ---- */

void rd_ethtool_io_init(struct rd_ethtool_io *io)
{
	io->nl.sk = NULL;
	io->nl.family = -1;
	io->nl_absent = false;
	io->ioctl_fd = -1;
}

void rd_ethtool_io_close(struct rd_ethtool_io *io)
{
	rd_ethtool_nl_close(&io->nl);
	if (io->ioctl_fd >= 0)
		close(io->ioctl_fd);
	io->ioctl_fd = -1;
}

void rd_ethtool_io_open(struct rd_ethtool_io *io, struct rd_snapshot *s,
			const char *src)
{
	int r;

	if (!io->nl.sk && !io->nl_absent) {
		r = rd_ethtool_nl_open(&io->nl);
		if (r == -ENOENT)
			io->nl_absent = true;
		else if (r < 0)
			rd_snapshot_error(s, src, "ethtool genetlink", r, NULL);
	}
	if (io->ioctl_fd < 0) {
		io->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (io->ioctl_fd < 0)
			io->ioctl_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC,
					      0);
		if (io->ioctl_fd < 0)
			rd_snapshot_error(s, src, "ioctl socket", errno, NULL);
	}
}

static void ethtool_state_init(void *state)
{
	rd_ethtool_io_init(&((struct ethtool_cache *)state)->io);
}

static void ethtool_state_clear(void *state)
{
	rd_ethtool_io_close(&((struct ethtool_cache *)state)->io);
}

static void unsupported(struct rd_ethtool *et, const char *what)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s%s", et->unsupported ? et->unsupported : "",
		 et->unsupported ? ", " : "", what);
	(void)rd_str_set(&et->unsupported, buf);
}

static bool not_supported(int r)
{
	return r == -EOPNOTSUPP || r == -ENOTSUP || r == -ENODATA;
}

typedef int (*nl_parser)(const void *, size_t, struct rd_ethtool *);

static const struct {
	const char *name;
	int cmd;
	uint32_t flags;
	nl_parser parse;
} nl_ops[] = {
	/* Verbose bitsets: the kernel names each link mode itself. */
	{ "linkmodes", ETHTOOL_MSG_LINKMODES_GET, 0,
	  rd_ethtool_parse_linkmodes },
	{ "linkstate", ETHTOOL_MSG_LINKSTATE_GET, 0,
	  rd_ethtool_parse_linkstate },
	{ "pause", ETHTOOL_MSG_PAUSE_GET, 0, rd_ethtool_parse_pause },
	{ "fec", ETHTOOL_MSG_FEC_GET, ETHTOOL_FLAG_STATS,
	  rd_ethtool_parse_fec },
};

static void collect_one(struct ethtool_cache *c, struct rd_snapshot *s,
			struct rd_netdev *d)
{
	struct rd_ethtool *et = &d->ethtool;
	char where[96];
	int r;

	for (size_t i = 0; c->io.nl.sk && i < N(nl_ops); i++) {
		struct rd_nl_buf b = { 0 };

		r = rd_ethtool_nl_get(&c->io.nl, nl_ops[i].cmd, d->name,
				      nl_ops[i].flags, &b);
		if (r == 0)
			r = nl_ops[i].parse(b.data, b.len, et);
		rd_nl_buf_free(&b);
		if (not_supported(r)) {
			unsupported(et, nl_ops[i].name);
		} else if (r == -ENODEV) {
			return;	/* the netdev went away */
		} else if (r < 0) {
			snprintf(where, sizeof(where), "%s %s", d->name,
				 nl_ops[i].name);
			rd_snapshot_error(s, SRC, where, r, NULL);
			if (r == -ETIMEDOUT || r == -EBADMSG) {
				/* Do not read a late answer as the next one. */
				rd_ethtool_nl_close(&c->io.nl);
			}
		}
	}
	if (c->io.ioctl_fd < 0)
		return;
	{
		struct ethtool_drvinfo di;

		r = rd_ethtool_ioctl_drvinfo(c->io.ioctl_fd, d->name, &di,
					     sizeof(di));
		if (r == 0)
			r = rd_ethtool_parse_drvinfo(&di, sizeof(di), et);
		if (not_supported(r)) {
			unsupported(et, "drvinfo");
		} else if (r < 0 && r != -ENODEV) {
			snprintf(where, sizeof(where), "%s drvinfo", d->name);
			rd_snapshot_error(s, SRC, where, r, NULL);
		}
	}
	{
		void *names, *values;
		size_t n;

		r = rd_ethtool_ioctl_stats(c->io.ioctl_fd, d->name, &names,
					   &values, &n);
		if (r == 0)
			r = rd_ethtool_parse_stats(names, n * ETH_GSTRING_LEN,
						   values, n * sizeof(uint64_t),
						   &et->stats);
		free(names);
		free(values);
		if (not_supported(r)) {
			unsupported(et, "statistics");
		} else if (r < 0 && r != -ENODEV) {
			snprintf(where, sizeof(where), "%s statistics",
				 d->name);
			rd_snapshot_error(s, SRC, where, r, NULL);
		}
	}
}

static int probe_ethtool_collect(const struct rd_probe_ctx *ctx, void *state,
				 struct rd_snapshot *s)
{
	struct ethtool_cache *c = state;

	(void)ctx;
	rd_ethtool_io_open(&c->io, s, SRC);
	for (size_t i = 0; i < s->n_netdevs; i++) {
		struct rd_netdev *d = &s->netdevs[i];

		if (!d->name)
			continue;
		if (c->io.nl_absent)
			unsupported(&d->ethtool, "ethtool netlink");
		collect_one(c, s, d);
	}
	return 0;
}

const struct rd_probe probe_ethtool = RD_PROBE_ROW(
	"ethtool", RD_NEEDS_NETLINK | RD_NEEDS_NETDEVS, probe_ethtool_collect,
	struct ethtool_cache, ethtool_state_init, ethtool_state_clear);
