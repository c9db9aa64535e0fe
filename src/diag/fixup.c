// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applying and undoing fix-ups in-process: rtnetlink (libnl-route) for link
 * state and MTU, RDMA netlink for Soft-RoCE links, dcbnl for PFC, libkmod
 * for modules and plain writes for /proc/sys. Never a shell.
 *
 * Every change is journalled first with the value it replaces; a journal
 * that cannot be read or written stops the change before it starts.
 */
#include "config.h"
#include "diag/diag_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libkmod.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <pwd.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/roots.h"
#include "diag/journal.h"

#define VALUE_MAX 64

static const char *const kind_names[] = {
	[RD_FIX_LINK_UP] = "link_up",	[RD_FIX_LINK_MTU] = "link_mtu",
	[RD_FIX_RXE_ADD] = "rxe_add",	[RD_FIX_MODPROBE] = "modprobe",
	[RD_FIX_SYSCTL] = "sysctl",	[RD_FIX_PFC] = "pfc",
};

static int kind_from_name(const char *s, enum rd_fix_kind *k)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (s && strcmp(s, kind_names[i]) == 0) {
			*k = (enum rd_fix_kind)i;
			return 0;
		}
	return -EINVAL;
}

/* libnl's error codes are not errnos; keep the ones people act on. */
static int nl_to_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_PERM:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_NODEV:
	case NLE_OBJ_NOTFOUND:
		return -ENODEV;
	case NLE_INVAL:
	case NLE_RANGE:
		return -EINVAL;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}

static struct nl_sock *nl_open(int proto, char *msg, size_t ml)
{
	struct nl_sock *sk = nl_socket_alloc();
	int r;

	if (!sk) {
		snprintf(msg, ml, "out of memory");
		return NULL;
	}
	r = nl_connect(sk, proto);
	if (r < 0) {
		snprintf(msg, ml, "netlink: %s", nl_geterror(r));
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* ---- rtnetlink: link up/down and MTU ---- */

static int link_read(const char *ifname, bool mtu, char *val, char *msg,
		     size_t ml)
{
	struct nl_sock *sk = nl_open(NETLINK_ROUTE, msg, ml);
	struct rtnl_link *link = NULL;
	int r;

	if (!sk)
		return -EIO;
	r = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (r < 0) {
		snprintf(msg, ml, "%s: %s", ifname, nl_geterror(r));
		nl_socket_free(sk);
		return nl_to_errno(r);
	}
	if (mtu)
		snprintf(val, VALUE_MAX, "%u", rtnl_link_get_mtu(link));
	else
		snprintf(val, VALUE_MAX, "%s",
			 rtnl_link_get_flags(link) & IFF_UP ? "up" : "down");
	rtnl_link_put(link);
	nl_socket_free(sk);
	return 0;
}

static int link_set(const char *ifname, bool mtu, const char *val, char *msg,
		    size_t ml)
{
	struct nl_sock *sk = nl_open(NETLINK_ROUTE, msg, ml);
	struct rtnl_link *link = NULL, *chg = NULL;
	uint64_t m = 0;
	int r;

	if (!sk)
		return -EIO;
	if (mtu && (rd_parse_u64(val, 10, &m) < 0 || m < 68 || m > 65535)) {
		snprintf(msg, ml, "bad MTU \"%s\"", val);
		r = -EINVAL;
		goto out;
	}
	r = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (r < 0) {
		snprintf(msg, ml, "%s: %s", ifname, nl_geterror(r));
		r = nl_to_errno(r);
		goto out;
	}
	chg = rtnl_link_alloc();
	if (!chg) {
		r = -ENOMEM;
		goto out;
	}
	if (mtu)
		rtnl_link_set_mtu(chg, (unsigned)m);
	else if (strcmp(val, "up") == 0)
		rtnl_link_set_flags(chg, IFF_UP);
	else
		rtnl_link_unset_flags(chg, IFF_UP);
	r = rtnl_link_change(sk, link, chg, 0);
	if (r < 0) {
		snprintf(msg, ml, "%s: %s", ifname, nl_geterror(r));
		r = nl_to_errno(r);
	}
out:
	rtnl_link_put(chg);
	rtnl_link_put(link);
	nl_socket_free(sk);
	return r;
}

/* ---- RDMA netlink: Soft-RoCE links ---- */

struct find_dev {
	const char *name;
	uint32_t index;
	bool found;
};

static int find_dev_cb(struct nl_msg *m, void *arg)
{
	struct find_dev *f = arg;
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct nlmsghdr *h = nlmsg_hdr(m);

	if (nlmsg_parse(h, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, NULL) < 0)
		return NL_OK;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return NL_OK;
	if (strcmp(nla_get_string(tb[RDMA_NLDEV_ATTR_DEV_NAME]), f->name) == 0) {
		f->index = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
		f->found = true;
	}
	return NL_OK;
}

static int rdma_dev_index(struct nl_sock *sk, const char *name, uint32_t *idx,
			  char *msg, size_t ml)
{
	struct find_dev f = { .name = name };
	struct nl_msg *m = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
		NLM_F_REQUEST | NLM_F_DUMP);
	int r;

	if (!m)
		return -ENOMEM;
	r = nl_send_auto(sk, m);
	nlmsg_free(m);
	if (r >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, find_dev_cb,
				    &f);
		r = nl_recvmsgs_default(sk);
	}
	if (r < 0) {
		snprintf(msg, ml, "RDMA netlink: %s", nl_geterror(r));
		return nl_to_errno(r);
	}
	if (!f.found) {
		snprintf(msg, ml, "no RDMA device %s", name);
		return -ENODEV;
	}
	*idx = f.index;
	return 0;
}

static int rxe_read(const char *name, char *val)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", name);
	snprintf(val, VALUE_MAX, "%s", stat(path, &st) == 0 ? "present" :
							      "absent");
	return 0;
}

static int rxe_set(const char *name, const char *ndev, const char *val,
		   char *msg, size_t ml)
{
	struct nl_sock *sk = nl_open(NETLINK_RDMA, msg, ml);
	bool add = strcmp(val, "present") == 0;
	struct nl_msg *m = NULL;
	uint32_t idx = 0;
	int r, op;

	if (!sk)
		return -EIO;
	if (!add) {
		r = rdma_dev_index(sk, name, &idx, msg, ml);
		if (r < 0)
			goto out;
	}
	/*
	 * RDMA_NL_GET_TYPE does not parenthesise its operands: a conditional
	 * passed to it would become the whole message type (3, NLMSG_DONE,
	 * which the kernel acknowledges and ignores).
	 */
	op = add ? RDMA_NLDEV_CMD_NEWLINK : RDMA_NLDEV_CMD_DELLINK;
	m = nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op),
			       NLM_F_REQUEST | NLM_F_ACK);
	if (!m) {
		r = -ENOMEM;
		goto out;
	}
	if (add)
		r = nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, name) ||
			    nla_put_string(m, RDMA_NLDEV_ATTR_LINK_TYPE, "rxe") ||
			    nla_put_string(m, RDMA_NLDEV_ATTR_NDEV_NAME,
					   ndev ? ndev : "") ?
			    -ENOMEM :
			    0;
	else
		r = nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, idx) ? -ENOMEM :
								     0;
	if (r < 0)
		goto out;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_DEFAULT, NULL, NULL);
	r = nl_send_auto(sk, m);
	if (r >= 0)
		r = nl_wait_for_ack(sk);
	if (r < 0) {
		snprintf(msg, ml, "RDMA netlink %s %s: %s",
			 add ? "new link" : "delete link", name, nl_geterror(r));
		r = nl_to_errno(r);
	}
out:
	nlmsg_free(m);
	nl_socket_free(sk);
	return r;
}

/* ---- dcbnl: PFC enable mask ---- */

struct dcb_reply {
	struct ieee_pfc pfc;
	bool have_pfc;
	int status;
	bool have_status;
};

static int dcb_cb(struct nl_msg *m, void *arg)
{
	struct dcb_reply *d = arg;
	struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1];
	struct nlmsghdr *h = nlmsg_hdr(m);

	if (nlmsg_parse(h, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX, NULL) < 0 ||
	    !tb[DCB_ATTR_IEEE])
		return NL_OK;
	if (nla_len(tb[DCB_ATTR_IEEE]) == 1) {
		/* A SET reply carries only the driver's status byte. */
		d->status = nla_get_u8(tb[DCB_ATTR_IEEE]);
		d->have_status = true;
		return NL_OK;
	}
	if (nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE], NULL) <
		    0 ||
	    !ieee[DCB_ATTR_IEEE_PFC] ||
	    nla_len(ieee[DCB_ATTR_IEEE_PFC]) < (int)sizeof(struct ieee_pfc))
		return NL_OK;
	memcpy(&d->pfc, nla_data(ieee[DCB_ATTR_IEEE_PFC]), sizeof(d->pfc));
	d->have_pfc = true;
	return NL_OK;
}

static int dcb_xfer(const char *ifname, const struct ieee_pfc *set,
		    struct dcb_reply *rep, char *msg, size_t ml)
{
	struct nl_sock *sk = nl_open(NETLINK_ROUTE, msg, ml);
	struct dcbmsg hdr = { .dcb_family = AF_UNSPEC,
			      .cmd = set ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_GET };
	struct nl_msg *m;
	struct nlattr *nest;
	int r;

	if (!sk)
		return -EIO;
	m = nlmsg_alloc_simple(set ? RTM_SETDCB : RTM_GETDCB, NLM_F_REQUEST);
	if (!m) {
		nl_socket_free(sk);
		return -ENOMEM;
	}
	r = nlmsg_append(m, &hdr, sizeof(hdr), NLMSG_ALIGNTO) ||
	    nla_put_string(m, DCB_ATTR_IFNAME, ifname);
	if (!r && set) {
		nest = nla_nest_start(m, DCB_ATTR_IEEE);
		r = !nest || nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(*set), set);
		if (!r)
			nla_nest_end(m, nest);
	}
	if (r) {
		nlmsg_free(m);
		nl_socket_free(sk);
		return -ENOMEM;
	}
	/* dcbnl answers with its own message, not an ACK. */
	nl_socket_disable_auto_ack(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, dcb_cb, rep);
	r = nl_send_auto(sk, m);
	nlmsg_free(m);
	if (r >= 0)
		r = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	if (r < 0) {
		snprintf(msg, ml, "%s: dcbnl: %s", ifname, nl_geterror(r));
		return nl_to_errno(r);
	}
	return 0;
}

static int pfc_read(const char *ifname, char *val, struct ieee_pfc *pfc,
		    char *msg, size_t ml)
{
	struct dcb_reply rep = { 0 };
	int r = dcb_xfer(ifname, NULL, &rep, msg, ml);

	if (r < 0)
		return r;
	if (!rep.have_pfc) {
		snprintf(msg, ml, "%s: the driver has no DCB support", ifname);
		return -EOPNOTSUPP;
	}
	if (pfc)
		*pfc = rep.pfc;
	snprintf(val, VALUE_MAX, "0x%02x", rep.pfc.pfc_en);
	return 0;
}

static int pfc_set(const char *ifname, const char *val, char *msg, size_t ml)
{
	struct ieee_pfc pfc;
	struct dcb_reply rep = { 0 };
	char cur[VALUE_MAX];
	uint64_t en;
	int r;

	if (rd_parse_u64(val, 0, &en) < 0 || en > 0xff) {
		snprintf(msg, ml, "bad PFC mask \"%s\"", val);
		return -EINVAL;
	}
	/* Keep the driver's delay, MBC and capability; change only pfc_en. */
	r = pfc_read(ifname, cur, &pfc, msg, ml);
	if (r < 0)
		return r;
	pfc.pfc_en = (uint8_t)en;
	r = dcb_xfer(ifname, &pfc, &rep, msg, ml);
	if (r < 0)
		return r;
	if (rep.have_status && rep.status) {
		snprintf(msg, ml, "%s: the driver refused the PFC setting (%d)",
			 ifname, rep.status);
		return -EIO;
	}
	return 0;
}

/* ---- libkmod and /proc/sys ---- */

static int module_read(const char *name, char *val)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	snprintf(val, VALUE_MAX, "%s", stat(path, &st) == 0 ? "loaded" :
							      "absent");
	return 0;
}

static int module_load(const char *name, char *msg, size_t ml)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_list *list = NULL, *it;
	int r;

	if (!ctx) {
		snprintf(msg, ml, "libkmod: cannot initialise");
		return -ENOMEM;
	}
	kmod_load_resources(ctx);
	r = kmod_module_new_from_lookup(ctx, name, &list);
	if (r == 0 && !list)
		r = -ENOENT;
	if (r < 0) {
		snprintf(msg, ml, "module %s: %s", name, strerror(-r));
		kmod_unref(ctx);
		return r;
	}
	kmod_list_foreach(it, list) {
		struct kmod_module *mod = kmod_module_get_module(it);

		r = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL,
						    NULL);
		kmod_module_unref(mod);
		if (r == 0)
			break;
	}
	if (r < 0)
		snprintf(msg, ml, "loading %s: %s", name, strerror(-r));
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return r < 0 ? r : 0;
}

static bool sysctl_path_ok(const char *p)
{
	return p && strncmp(p, "/proc/sys/", 10) == 0 && !strstr(p, "..");
}

static int sysctl_read(const char *path, char *val, char *msg, size_t ml)
{
	ssize_t n;

	if (!sysctl_path_ok(path)) {
		snprintf(msg, ml, "%s is not a /proc/sys file", path ? path : "");
		return -EINVAL;
	}
	n = rd_attr_read(path, val, VALUE_MAX);
	if (n < 0) {
		snprintf(msg, ml, "%s: %s", path, strerror((int)-n));
		return (int)n;
	}
	return 0;
}

static int sysctl_write(const char *path, const char *val, char *msg,
			size_t ml)
{
	char buf[VALUE_MAX + 2];
	int fd, r = 0, n;

	if (!sysctl_path_ok(path)) {
		snprintf(msg, ml, "%s is not a /proc/sys file", path ? path : "");
		return -EINVAL;
	}
	n = snprintf(buf, sizeof(buf), "%s\n", val);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		r = -errno;
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		snprintf(msg, ml, "%s: %s", path, strerror(-r));
	return r;
}

/* ---- dispatch ---- */

static int state_read(enum rd_fix_kind k, const char *arg, char *val,
		      char *msg, size_t ml)
{
	switch (k) {
	case RD_FIX_LINK_UP:
		return link_read(arg, false, val, msg, ml);
	case RD_FIX_LINK_MTU:
		return link_read(arg, true, val, msg, ml);
	case RD_FIX_RXE_ADD:
		return rxe_read(arg, val);
	case RD_FIX_MODPROBE:
		return module_read(arg, val);
	case RD_FIX_SYSCTL:
		return sysctl_read(arg, val, msg, ml);
	case RD_FIX_PFC:
		return pfc_read(arg, val, NULL, msg, ml);
	}
	return -EINVAL;
}

static int state_set(enum rd_fix_kind k, const char *arg, const char *arg2,
		     const char *val, char *msg, size_t ml)
{
	switch (k) {
	case RD_FIX_LINK_UP:
		return link_set(arg, false, val, msg, ml);
	case RD_FIX_LINK_MTU:
		return link_set(arg, true, val, msg, ml);
	case RD_FIX_RXE_ADD:
		return rxe_set(arg, arg2, val, msg, ml);
	case RD_FIX_MODPROBE:
		if (strcmp(val, "loaded") != 0) {
			snprintf(msg, ml, "unloading modules is not done");
			return -EOPNOTSUPP;
		}
		return module_load(arg, msg, ml);
	case RD_FIX_SYSCTL:
		return sysctl_write(arg, val, msg, ml);
	case RD_FIX_PFC:
		return pfc_set(arg, val, msg, ml);
	}
	return -EINVAL;
}

static int target_value(const struct rd_fixup *f, const char *before,
			char *after)
{
	uint64_t en;

	switch (f->kind) {
	case RD_FIX_LINK_UP:
		snprintf(after, VALUE_MAX, "up");
		return 0;
	case RD_FIX_LINK_MTU:
	case RD_FIX_SYSCTL:
		snprintf(after, VALUE_MAX, "%" PRIu64, f->value);
		return 0;
	case RD_FIX_RXE_ADD:
		snprintf(after, VALUE_MAX, "present");
		return 0;
	case RD_FIX_MODPROBE:
		snprintf(after, VALUE_MAX, "loaded");
		return 0;
	case RD_FIX_PFC:
		if (f->value > 7 || rd_parse_u64(before, 0, &en) < 0)
			return -EINVAL;
		snprintf(after, VALUE_MAX, "0x%02" PRIx64,
			 (en | (UINT64_C(1) << f->value)) & 0xff);
		return 0;
	}
	return -EINVAL;
}

static char *user_name(void)
{
	struct passwd *pw = getpwuid(getuid());
	char buf[64];

	if (pw && pw->pw_name)
		return strdup(pw->pw_name);
	snprintf(buf, sizeof(buf), "uid %u", (unsigned)getuid());
	return strdup(buf);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The shared tail of apply and undo: journal e (before-value filled),
 * change the state, journal the result.
 */
static int change(const char *journal, struct rd_journal_entry *e,
		  enum rd_fix_kind k, char *msg, size_t ml)
{
	char err[512] = "", got[VALUE_MAX] = "", res[600];
	int r;

	r = rd_journal_append_apply(journal, e, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", err);
		return r;
	}
	r = state_set(k, e->arg, e->arg2, e->after, err, sizeof(err));
	if (r == 0 && state_read(k, e->arg, got, err, sizeof(err)) < 0)
		got[0] = '\0';
	/* Accepted is not done: believe the state read back, not the ack. */
	if (r == 0 && got[0] && strcmp(got, e->after) != 0) {
		snprintf(err, sizeof(err), "the change was accepted but the "
			 "state is still %s", got);
		r = -EIO;
	}
	if (r < 0)
		snprintf(res, sizeof(res), "failed: %s", err[0] ? err : strerror(-r));
	else
		snprintf(res, sizeof(res), "ok");
	if (rd_journal_append_result(journal, e->id, res, got[0] ? got : NULL,
				     err, sizeof(err)) < 0 && r == 0) {
		snprintf(msg, ml, "%s done, but the result was not journalled: %s",
			 e->command, err);
		return 0;
	}
	if (r < 0)
		snprintf(msg, ml, "%s %s", e->command, res);
	else
		snprintf(msg, ml, "%s: %s -> %s (journal %s, entry %s)",
			 e->command, e->before, got[0] ? got : e->after,
			 journal, e->id);
	return r;
}

int rd_fixup_apply(const struct rd_fixup *f, const char *journal, char *msg,
		   size_t ml)
{
	struct rd_journal j;
	struct rd_journal_entry e = { 0 };
	char before[VALUE_MAX] = "", after[VALUE_MAX], id[96], err[512] = "";
	int r;

	if (!f || !f->command || !f->arg) {
		snprintf(msg, ml, "no fix-up to apply");
		return -EINVAL;
	}
	if (!journal)
		journal = rd_journal_default_path();
	if (geteuid() != 0) {
		snprintf(msg, ml, "needs root; run it yourself as root: %s",
			 f->command);
		return -EPERM;
	}
	/* A journal we cannot read means undo would be lost: stop here. */
	r = rd_journal_read(journal, &j, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", err);
		return r;
	}
	rd_journal_free(&j);
	r = state_read(f->kind, f->arg, before, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: cannot read the current state: %s",
			 err);
		return r;
	}
	if (target_value(f, before, after) < 0) {
		snprintf(msg, ml, "not changed: bad fix-up");
		return -EINVAL;
	}
	if (strcmp(before, after) == 0) {
		snprintf(msg, ml, "nothing to change: already %s", after);
		return 0;
	}
	rd_journal_new_id(id, sizeof(id));
	e.id = id;
	e.time = now();
	e.user = user_name();
	e.check = f->id;
	e.device = f->device;
	e.port = f->port;
	e.kind = (char *)kind_names[f->kind];
	e.arg = f->arg;
	e.arg2 = f->arg2;
	e.command = f->command;
	e.before = before;
	e.after = after;
	e.undoable = f->undoable;
	r = change(journal, &e, f->kind, msg, ml);
	free(e.user);
	return r;
}

static void undo_command(const struct rd_journal_entry *t, char *buf,
			 size_t len)
{
	enum rd_fix_kind k;

	if (kind_from_name(t->kind, &k) < 0) {
		snprintf(buf, len, "undo %s", t->command);
		return;
	}
	switch (k) {
	case RD_FIX_LINK_UP:
		snprintf(buf, len, "ip link set dev %s %s", t->arg, t->before);
		break;
	case RD_FIX_LINK_MTU:
		snprintf(buf, len, "ip link set dev %s mtu %s", t->arg, t->before);
		break;
	case RD_FIX_RXE_ADD:
		snprintf(buf, len, "rdma link delete %s", t->arg);
		break;
	case RD_FIX_SYSCTL:
		snprintf(buf, len, "echo %s > %s", t->before, t->arg);
		break;
	case RD_FIX_PFC:
		snprintf(buf, len, "dcb pfc set dev %s (pfc_en %s)", t->arg,
			 t->before);
		break;
	default:
		snprintf(buf, len, "undo %s", t->command);
	}
}

int rd_fixup_undo(const char *journal, const char *entry, char *msg,
		  size_t ml)
{
	struct rd_journal j;
	const struct rd_journal_entry *t;
	struct rd_journal_entry e = { 0 };
	enum rd_fix_kind k;
	char id[96], err[512] = "", cur[VALUE_MAX] = "", cmd[512];
	int r;

	if (!journal)
		journal = rd_journal_default_path();
	if (geteuid() != 0) {
		snprintf(msg, ml, "needs root to undo");
		return -EPERM;
	}
	r = rd_journal_read(journal, &j, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, ml, "not changed: %s", err);
		return r;
	}
	t = rd_journal_find(&j, entry);
	if (!t) {
		snprintf(msg, ml, entry ? "no entry %s in %s" :
					  "nothing to undo in %s%s",
			 entry ? entry : journal, entry ? journal : "");
		r = -ENOENT;
		goto out;
	}
	if (t->undo_of || !t->undoable || t->undone || !t->before ||
	    kind_from_name(t->kind, &k) < 0 || !t->arg) {
		snprintf(msg, ml, "entry %s cannot be undone%s", t->id,
			 t->undone ? " (already undone)" :
			 t->undo_of ? " (it is an undo)" : "");
		r = -EINVAL;
		goto out;
	}
	if (state_read(k, t->arg, cur, err, sizeof(err)) < 0)
		cur[0] = '\0';
	undo_command(t, cmd, sizeof(cmd));
	rd_journal_new_id(id, sizeof(id));
	e.id = id;
	e.time = now();
	e.user = user_name();
	e.check = t->check;
	e.device = t->device;
	e.port = t->port;
	e.kind = t->kind;
	e.arg = t->arg;
	e.arg2 = t->arg2;
	e.command = cmd;
	e.before = cur[0] ? cur : t->after;
	e.after = t->before;
	e.undo_of = t->id;
	e.undoable = false;
	r = change(journal, &e, k, msg, ml);
	free(e.user);
out:
	rd_journal_free(&j);
	return r;
}

const char *rd_journal_default_path(void)
{
	const char *env = rd_env_untrusted() ? NULL : getenv("RDMADIAG_JOURNAL");

	if (env && *env)
		return env;
	return "/var/lib/rdmadiag/journal.jsonl";
}
