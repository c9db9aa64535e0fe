// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SR-IOV and bonds, from sysfs: each NIC function's sriov_totalvfs and
 * sriov_numvfs and its virtfnN links (each VF's driver, netdev and RDMA
 * device), and for each netdev that is a bonding master its mode, hash
 * policy and members with their state; the mlx5 LAG state from debugfs
 * when it is readable (root). What the PF's driver holds for each VF (MAC,
 * VLAN, spoof check, trust, link state, rates, InfiniBand GUIDs) comes from
 * rtnetlink: RTM_GETLINK on the PF's netdev with RTEXT_FILTER_VF, which
 * needs no privilege.
 */
#include "config.h"
#include "probes/virt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>

#include "core/attr.h"
#include "probes/nl_util.h"
#include "probes/read.h"

#define SRC "virt"
#define MAX_ENTRIES 4096

int rd_bond_parse_mode(const char *text, char *name, size_t len, uint64_t *num)
{
	const char *sp = strrchr(text, ' ');
	size_t n;

	if (!sp || sp == text)
		return -EINVAL;
	n = (size_t)(sp - text);
	if (n >= len || rd_parse_u64(sp + 1, 10, num) < 0 || *num > 6)
		return -EINVAL;
	memcpy(name, text, n);
	name[n] = '\0';
	return 0;
}

/* The first entry of dir/rel (a netdev, an RDMA device), or NULL. */
static char *first_entry(int dirfd, const char *rel)
{
	char **names = NULL;
	size_t n = 0;
	char *r = NULL;

	if (rd_dir_list(dirfd, rel, 64, &names, &n) == 0 && n > 0 &&
	    rd_text_check(names[0], strlen(names[0])) == 0)
		r = rd_strdup(names[0]);
	rd_dir_free(names, n);
	return r;
}

static void read_vf(struct rd_snapshot *s, int devsfd, struct rd_vf *v)
{
	char link[256];
	int fd = openat(devsfd, v->bdf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	(void)s;
	if (fd < 0)
		return;
	if (rd_probe_link_name(fd, "driver", link, sizeof(link)) == 0)
		(void)rd_str_set(&v->driver, link);
	v->netdev = first_entry(fd, "net");
	v->rdma_device = first_entry(fd, "infiniband");
	close(fd);
}

static void read_sriov(struct rd_snapshot *s, int devsfd, const char *devsdir,
		       const struct rd_pci *p)
{
	char base[PATH_MAX], name[32], link[64];
	struct rd_sriov *sv;
	uint64_t total, num;
	int fd;

	snprintf(base, sizeof(base), "%s/%s", devsdir, p->bdf);
	fd = openat(devsfd, p->bdf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* No sriov_totalvfs: not a physical function with SR-IOV. */
	if (rd_probe_read_u64(s, SRC, fd, base, "sriov_totalvfs", false, 65535,
			      &total, true) < 0) {
		close(fd);
		return;
	}
	sv = RD_PUSH(s->sriov, s->n_sriov);
	if (!sv) {
		close(fd);
		return;
	}
	sv->pf_bdf = rd_strdup(p->bdf);
	(void)rd_str_set(&sv->pf_rdma_device, p->rdma_device);
	sv->pf_netdev = first_entry(fd, "net");
	sv->totalvfs = rd_u64(total);
	if (rd_probe_read_u64(s, SRC, fd, base, "sriov_numvfs", false, 65535,
			      &num, false) == 0)
		sv->numvfs = rd_u64(num);
	for (uint64_t i = 0; sv->numvfs.ok && i < num && i < total; i++) {
		struct rd_vf *v;

		snprintf(name, sizeof(name), "virtfn%llu",
			 (unsigned long long)i);
		if (rd_probe_link_name(fd, name, link, sizeof(link)) < 0)
			continue;
		v = RD_PUSH(sv->vfs, sv->n_vfs);
		if (!v)
			break;
		v->index = rd_u64(i);
		v->bdf = rd_strdup(link);
		read_vf(s, devsfd, v);
	}
	close(fd);
}

static char *read_text(const char *path)
{
	char buf[512];

	return rd_attr_read(path, buf, sizeof(buf)) >= 0 ? rd_strdup(buf)
							 : NULL;
}

static void read_bond(const struct rd_probe_ctx *ctx, struct rd_snapshot *s,
		      const struct rd_netdev *n)
{
	char path[PATH_MAX], buf[512], mode[32];
	struct rd_bond *b;
	uint64_t num;
	char *save = NULL;

	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/mode", n->name) < 0 ||
	    rd_attr_read(path, buf, sizeof(buf)) < 0)
		return;
	b = RD_PUSH(s->bonds, s->n_bonds);
	if (!b)
		return;
	b->name = rd_strdup(n->name);
	(void)rd_str_set(&b->rdma_device, n->rdma_device);
	if (rd_bond_parse_mode(buf, mode, sizeof(mode), &num) == 0) {
		b->mode = rd_strdup(mode);
		b->mode_num = rd_u64(num);
	} else {
		rd_probe_bad_value(s, SRC, NULL, path, EINVAL, buf);
	}
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/xmit_hash_policy", n->name) == 0 &&
	    rd_attr_read(path, buf, sizeof(buf)) >= 0 &&
	    rd_bond_parse_mode(buf, mode, sizeof(mode), &num) == 0)
		b->hash_policy = rd_strdup(mode);
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/active_slave", n->name) == 0)
		b->active_slave = read_text(path);
	if (rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/class/net/%s/bonding/slaves", n->name) < 0 ||
	    rd_attr_read(path, buf, sizeof(buf)) < 0)
		return;
	for (char *w = strtok_r(buf, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		const struct rd_netdev *mn = rd_snapshot_netdev(s, w);
		struct rd_bond_member *m = RD_PUSH(b->members, b->n_members);
		char v[64];
		uint64_t c;

		if (!m)
			break;
		m->name = rd_strdup(w);
		if (mn) {
			(void)rd_str_set(&m->pci_bdf, mn->pci_bdf);
			(void)rd_str_set(&m->rdma_device, mn->rdma_device);
		}
		if (rd_path(path, sizeof(path), ctx->roots->sysfs,
			    "/class/net/%s/operstate", w) == 0)
			m->operstate = read_text(path);
		if (rd_path(path, sizeof(path), ctx->roots->sysfs,
			    "/class/net/%s/carrier", w) == 0 &&
		    rd_attr_read(path, v, sizeof(v)) >= 0 &&
		    rd_parse_u64(v, 10, &c) == 0 && c <= 1)
			m->carrier = rd_bool(c == 1);
	}
	if (b->n_members && b->members[0].pci_bdf &&
	    rd_path(path, sizeof(path), ctx->roots->sysfs,
		    "/kernel/debug/mlx5/%s/lag/state",
		    b->members[0].pci_bdf) == 0)
		b->lag_state = read_text(path);
}

/* ---- the VF list of a PF's netdev (rtnetlink) ---- */

static struct nla_policy vflink_policy[IFLA_MAX + 1] = {
	[IFLA_IFNAME] = { .type = NLA_STRING, .maxlen = IFNAMSIZ },
	[IFLA_NUM_VF] = { .type = NLA_U32 },
	[IFLA_VFINFO_LIST] = { .type = NLA_NESTED },
};

static struct nla_policy vf_policy[IFLA_VF_MAX + 1] = {
	[IFLA_VF_MAC] = { .minlen = sizeof(struct ifla_vf_mac) },
	[IFLA_VF_VLAN] = { .minlen = sizeof(struct ifla_vf_vlan) },
	[IFLA_VF_SPOOFCHK] = { .minlen = sizeof(struct ifla_vf_spoofchk) },
	[IFLA_VF_LINK_STATE] = { .minlen = sizeof(struct ifla_vf_link_state) },
	[IFLA_VF_RATE] = { .minlen = sizeof(struct ifla_vf_rate) },
	[IFLA_VF_TRUST] = { .minlen = sizeof(struct ifla_vf_trust) },
	[IFLA_VF_IB_NODE_GUID] = { .minlen = sizeof(struct ifla_vf_guid) },
	[IFLA_VF_IB_PORT_GUID] = { .minlen = sizeof(struct ifla_vf_guid) },
};

/* The VF of that number, added when sysfs had no virtfn link for it. */
static struct rd_vf *vf_numbered(struct rd_sriov *sv, uint32_t n)
{
	struct rd_vf *v;

	for (size_t i = 0; i < sv->n_vfs; i++)
		if (sv->vfs[i].index.ok && sv->vfs[i].index.v == n)
			return &sv->vfs[i];
	if (sv->n_vfs >= MAX_ENTRIES)
		return NULL;
	v = RD_PUSH(sv->vfs, sv->n_vfs);
	if (v)
		v->index = rd_u64(n);
	return v;
}

/* A driver that does not implement the setting leaves it at -1. */
static void vf_setting(struct nlattr *a, struct rd_obool *dst)
{
	uint32_t set[2];

	if (!a)
		return;
	memcpy(set, nla_data(a), sizeof(set));
	if (set[1] != (uint32_t)-1)
		*dst = rd_bool(set[1] != 0);
}

static uint64_t vf_guid(struct nlattr *a)
{
	struct ifla_vf_guid g;

	memcpy(&g, nla_data(a), sizeof(g));
	return g.guid;
}

static int one_vf(struct rd_sriov *sv, struct nlattr *nest, bool ether)
{
	struct nlattr *tb[IFLA_VF_MAX + 1];
	struct ifla_vf_mac mac;
	struct rd_vf *v;
	int r = rd_nla_parse_nested(tb, IFLA_VF_MAX, nest, vf_policy);

	if (r < 0)
		return r;
	/* Every attribute starts with the VF's number; IFLA_VF_MAC is sent
	 * for every VF. */
	if (!tb[IFLA_VF_MAC])
		return -EBADMSG;
	memcpy(&mac, nla_data(tb[IFLA_VF_MAC]), sizeof(mac));
	v = vf_numbered(sv, mac.vf);
	if (!v)
		return -ENOMEM;
	if (ether) {
		char text[18];

		snprintf(text, sizeof(text), "%02x:%02x:%02x:%02x:%02x:%02x",
			 mac.mac[0], mac.mac[1], mac.mac[2], mac.mac[3],
			 mac.mac[4], mac.mac[5]);
		rd_str_put(&v->mac, text);
	}
	if (tb[IFLA_VF_VLAN]) {
		struct ifla_vf_vlan vl;

		memcpy(&vl, nla_data(tb[IFLA_VF_VLAN]), sizeof(vl));
		v->vlan = rd_u64(vl.vlan);
		v->qos = rd_u64(vl.qos);
	}
	vf_setting(tb[IFLA_VF_SPOOFCHK], &v->spoofchk);
	vf_setting(tb[IFLA_VF_TRUST], &v->trust);
	if (tb[IFLA_VF_LINK_STATE]) {
		static const char *const states[] = { "auto", "enable",
						      "disable" };
		struct ifla_vf_link_state ls;

		memcpy(&ls, nla_data(tb[IFLA_VF_LINK_STATE]), sizeof(ls));
		if (ls.link_state < 3)
			rd_str_put(&v->link_state, states[ls.link_state]);
	}
	if (tb[IFLA_VF_RATE]) {
		struct ifla_vf_rate rt;

		memcpy(&rt, nla_data(tb[IFLA_VF_RATE]), sizeof(rt));
		v->min_tx_rate = rd_u64(rt.min_tx_rate);
		v->max_tx_rate = rd_u64(rt.max_tx_rate);
	}
	if (tb[IFLA_VF_IB_NODE_GUID])
		v->node_guid = rd_u64(vf_guid(tb[IFLA_VF_IB_NODE_GUID]));
	if (tb[IFLA_VF_IB_PORT_GUID])
		v->port_guid = rd_u64(vf_guid(tb[IFLA_VF_IB_PORT_GUID]));
	return 0;
}

int rd_vf_parse_link(const void *bytes, size_t len, struct rd_sriov *sv)
{
	struct rd_nl_iter it;
	struct nlmsghdr *nlh;
	int r, found = 0;

	rd_nl_iter_init(&it, bytes, len);
	while ((r = rd_nl_next(&it, &nlh)) > 0) {
		struct nlattr *tb[IFLA_MAX + 1], *a;
		struct ifinfomsg ifi;
		const char *name;
		int rem;

		if (nlh->nlmsg_type != RTM_NEWLINK)
			continue;
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(ifi))) {
			r = -EBADMSG;
			break;
		}
		memcpy(&ifi, NLMSG_DATA(nlh), sizeof(ifi));
		r = rd_nlmsg_parse(nlh, sizeof(ifi), tb, IFLA_MAX,
				   vflink_policy);
		if (r < 0)
			break;
		name = rd_nl_text(tb[IFLA_IFNAME]);
		if (!name || (sv->pf_netdev && strcmp(name, sv->pf_netdev)))
			continue;
		found = 1;
		if (!tb[IFLA_VFINFO_LIST])
			continue;
		nla_for_each_nested(a, tb[IFLA_VFINFO_LIST], rem)
		{
			if (nla_type(a) != IFLA_VF_INFO)
				continue;
			r = one_vf(sv, a, ifi.ifi_type == ARPHRD_ETHER);
			if (r < 0)
				goto out;
		}
	}
out:
	rd_nl_iter_end(&it);
	if (r < 0)
		return r;
	if (!found)
		return -ENODATA;
	sv->vfinfo_read = rd_bool(true);
	return 0;
}

static int vf_request(struct nl_sock *sk, const char *ifname,
		      struct rd_nl_buf *out)
{
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	int r = -ENOMEM;

	if (!m)
		return r;
	if (nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO) == 0 &&
	    nla_put_string(m, IFLA_IFNAME, ifname) == 0 &&
	    nla_put_u32(m, IFLA_EXT_MASK,
			RTEXT_FILTER_VF | RTEXT_FILTER_SKIP_STATS) == 0)
		r = rd_nl_request(sk, m, out);
	nlmsg_free(m);
	return r;
}

/* Each PF netdev with VFs enabled: what its driver holds for them. */
static void read_vfinfo(struct rd_nl_state *c, struct rd_snapshot *s)
{
	for (size_t i = 0; i < s->n_sriov; i++) {
		struct rd_sriov *sv = &s->sriov[i];
		struct rd_nl_buf b = { 0 };
		int r;

		if (!sv->pf_netdev || !sv->numvfs.ok || sv->numvfs.v == 0)
			continue;
		if (rd_nl_open_once(s, SRC, NETLINK_ROUTE, &c->sk) < 0)
			return;
		r = vf_request(c->sk, sv->pf_netdev, &b);
		if (r == 0)
			r = rd_vf_parse_link(b.data, b.len, sv);
		rd_nl_buf_free(&b);
		if (r < 0)
			rd_snapshot_error(s, SRC, "VF list", r, "%s",
					  sv->pf_netdev);
		if (r == -ETIMEDOUT || r == -EBADMSG)
			rd_nl_close(&c->sk);
	}
}

static int probe_virt_collect(const struct rd_probe_ctx *ctx, void *state,
			      struct rd_snapshot *s)
{
	char devsdir[PATH_MAX];
	int devsfd;

	if (rd_path(devsdir, sizeof(devsdir), ctx->roots->sysfs,
		    "/bus/pci/devices") == 0 &&
	    (devsfd = open(devsdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		for (size_t i = 0; i < s->n_pci; i++)
			if (s->pci[i].bdf)
				read_sriov(s, devsfd, devsdir, &s->pci[i]);
		close(devsfd);
	}
	for (size_t i = 0; i < s->n_netdevs; i++)
		if (s->netdevs[i].name)
			read_bond(ctx, s, &s->netdevs[i]);
	if (!(ctx->flags & RD_PROBE_NO_NETLINK))
		read_vfinfo(state, s);
	return 0;
}

const struct rd_probe probe_virt =
	RD_PROBE_ROW("virt", 0, probe_virt_collect, struct rd_nl_state, NULL,
		     rd_nl_state_clear);
