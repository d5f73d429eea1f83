/* txdrops: the sending device's and its qdiscs' drops over the run (txdrops.h). */
#include "txdrops.h"

#include <ifaddrs.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "nl.h"

/* The interface holding the address fd sends from: 1 found. */
static int dev_of(int fd, char *name, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t slen = sizeof ss;
	struct ifaddrs *ifs, *i;
	const void *want;
	size_t alen;
	int fam, found = 0;

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &slen) < 0 || getifaddrs(&ifs) < 0)
		return 0;
	fam = ss.ss_family;
	if (fam == AF_INET) {
		want = &((struct sockaddr_in *)&ss)->sin_addr;
		alen = 4;
	} else {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&ss;
		want = s6->sin6_addr.s6_addr;
		alen = 16;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) { /* an IPv4 path through an IPv6 socket */
			fam = AF_INET;
			want = s6->sin6_addr.s6_addr + 12;
			alen = 4;
		}
	}
	for (i = ifs; i && !found; i = i->ifa_next) {
		const void *have;
		if (!i->ifa_addr || i->ifa_addr->sa_family != fam)
			continue;
		have = fam == AF_INET ? (const void *)&((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr :
					(const void *)((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr.s6_addr;
		if (!memcmp(have, want, alen)) {
			snprintf(name, len, "%s", i->ifa_name);
			found = 1;
		}
	}
	freeifaddrs(ifs);
	return found;
}

struct ask {
	unsigned ifindex;
	struct txd_snap *s;
};

static void link_of(const struct nlmsghdr *h, void *ctx)
{
	struct ask *a = ctx;
	const struct ifinfomsg *m = NLMSG_DATA(h);
	int left = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));

	if (h->nlmsg_type != RTM_NEWLINK || left < 0 || (unsigned)m->ifi_index != a->ifindex)
		return;
	for (const struct rtattr *at = IFLA_RTA(m); RTA_OK(at, left); at = RTA_NEXT(at, left))
		if (at->rta_type == IFLA_STATS64 && RTA_PAYLOAD(at) >= sizeof(struct rtnl_link_stats64)) {
			struct rtnl_link_stats64 st;
			memcpy(&st, RTA_DATA(at), sizeof st);
			a->s->dev_dropped = st.tx_dropped;
			a->s->dev_ok = 1;
		}
}

static void qdisc_of(const struct nlmsghdr *h, void *ctx)
{
	struct ask *a = ctx;
	const struct tcmsg *m = NLMSG_DATA(h);
	int left = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
	const struct rtattr *at = (const struct rtattr *)((const char *)m + NLMSG_ALIGN(sizeof *m));

	if (h->nlmsg_type != RTM_NEWQDISC || left < 0 || (unsigned)m->tcm_ifindex != a->ifindex ||
	    (m->tcm_parent != TC_H_ROOT && m->tcm_parent != TC_H_INGRESS))
		return;
	for (; RTA_OK(at, left); at = RTA_NEXT(at, left)) {
		if (at->rta_type != TCA_STATS2)
			continue;
		int in = (int)RTA_PAYLOAD(at);
		for (const struct rtattr *q = RTA_DATA(at); RTA_OK(q, in); q = RTA_NEXT(q, in))
			if (q->rta_type == TCA_STATS_QUEUE && RTA_PAYLOAD(q) >= sizeof(struct gnet_stats_queue)) {
				struct gnet_stats_queue st;
				memcpy(&st, RTA_DATA(q), sizeof st);
				a->s->qdisc_drops += st.drops;
				a->s->qdisc_ok = 1;
			}
	}
}

static void snap(const struct txd *t, struct txd_snap *s)
{
	struct {
		struct nlmsghdr nh;
		union {
			struct ifinfomsg ifi;
			struct tcmsg tc;
		} u;
	} req;
	struct ask a = { t->ifindex, s };

	memset(s, 0, sizeof *s);
	if (!t->ifindex)
		return;
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.u.ifi);
	req.nh.nlmsg_type = RTM_GETLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.u.ifi.ifi_family = AF_UNSPEC;
	req.u.ifi.ifi_index = (int)t->ifindex;
	nl_ask(&req.nh, link_of, &a);
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.u.tc);
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.u.tc.tcm_family = AF_UNSPEC;
	req.u.tc.tcm_ifindex = (int)t->ifindex;
	if (nl_ask(&req.nh, qdisc_of, &a) < 0)
		s->qdisc_ok = 0;
}

void txd_start(struct txd *t, int fd, const char *dev)
{
	memset(t, 0, sizeof *t);
	if (dev)
		snprintf(t->dev, sizeof t->dev, "%s", dev);
	else if (!dev_of(fd, t->dev, sizeof t->dev))
		return;
	t->ifindex = if_nametoindex(t->dev);
	snap(t, &t->s0);
}

void txd_stop(struct txd *t)
{
	snap(t, &t->s1);
}

void txd_report(struct report *r, const struct txd *t)
{
	if (t->ifindex)
		report_str(r, "tx_dev", t->dev);
	else
		report_none(r, "tx_dev");
	if (t->s0.dev_ok && t->s1.dev_ok)
		report_u64(r, "tx_dev_dropped", t->s1.dev_dropped - t->s0.dev_dropped);
	else
		report_none(r, "tx_dev_dropped");
	if (t->s0.qdisc_ok && t->s1.qdisc_ok)
		report_u64(r, "qdisc_drops", t->s1.qdisc_drops - t->s0.qdisc_drops);
	else
		report_none(r, "qdisc_drops");
}
