/* bpf: the assembler, and the bpf() and netlink calls that make maps, load programs and attach
 * them to a device (see bpf.h). */
#include "bpf.h"

#include <errno.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

void bpf_asm_init(struct bpf_asm *a)
{
	memset(a, 0, sizeof *a);
	for (unsigned i = 0; i < BPF_ASM_LABELS; i++)
		a->at[i] = -1;
	memset(a->target, -1, sizeof a->target);
}

void bpf_emit(struct bpf_asm *a, struct bpf_insn i)
{
	if (a->n >= BPF_ASM_MAX) {
		a->overflow = 1;
		return;
	}
	a->insn[a->n++] = i;
}

void bpf_jump(struct bpf_asm *a, struct bpf_insn i, unsigned label)
{
	if (label >= BPF_ASM_LABELS) {
		a->overflow = 1;
		return;
	}
	if (a->n < BPF_ASM_MAX)
		a->target[a->n] = (int8_t)label;
	bpf_emit(a, i);
}

void bpf_label(struct bpf_asm *a, unsigned label)
{
	if (label >= BPF_ASM_LABELS || a->at[label] >= 0)
		a->overflow = 1; /* placed twice: a slip in the program's text */
	else
		a->at[label] = (int)a->n;
}

int bpf_asm_end(struct bpf_asm *a)
{
	if (a->overflow) {
		errno = EINVAL;
		return -1;
	}
	for (unsigned i = 0; i < a->n; i++) {
		int l = a->target[i];
		if (l < 0)
			continue;
		if (a->at[l] < 0) {
			errno = EINVAL;
			return -1;
		}
		/* a jump's offset counts from the instruction after it */
		a->insn[i].off = (int16_t)(a->at[l] - (int)i - 1);
	}
	return 0;
}

static int bpf_sys(int cmd, union bpf_attr *attr)
{
	return (int)syscall(__NR_bpf, cmd, attr, sizeof *attr);
}

int bpf_map_new(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t entries,
		const char *name)
{
	union bpf_attr a;

	memset(&a, 0, sizeof a);
	a.map_type = type;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = entries;
	strncpy(a.map_name, name, sizeof a.map_name - 1);
	return bpf_sys(BPF_MAP_CREATE, &a);
}

int bpf_map_put(int map, const void *key, const void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof a);
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)value;
	a.flags = BPF_ANY;
	return bpf_sys(BPF_MAP_UPDATE_ELEM, &a);
}

int bpf_prog_new(uint32_t type, const struct bpf_insn *insn, unsigned n, const char *name,
		 char *log, size_t len)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.prog_type = type;
	a.insns = (uint64_t)(uintptr_t)insn;
	a.insn_cnt = n;
	/* GPL-compatible, as the kernel's XDP helpers ask of a program that calls them. */
	a.license = (uint64_t)(uintptr_t)"Dual MIT/GPL";
	a.log_level = 1;
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = (uint32_t)len;
	strncpy(a.prog_name, name, sizeof a.prog_name - 1);
	if (len)
		log[0] = 0;
	fd = bpf_sys(BPF_PROG_LOAD, &a);
	if (fd < 0 && errno == ENOSPC && len) {
		/* The log did not fit: the verifier refused nothing for that, but it says ENOSPC.
		 * Load again without a log, so that only a real refusal fails. */
		int e = errno;
		a.log_level = 0;
		a.log_buf = 0;
		a.log_size = 0;
		fd = bpf_sys(BPF_PROG_LOAD, &a);
		if (fd < 0)
			errno = e;
	}
	if (len)
		log[len - 1] = 0;
	return fd;
}

int bpf_xdp_link(int prog, unsigned ifindex, uint32_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof a);
	a.link_create.prog_fd = (uint32_t)prog;
	a.link_create.target_ifindex = ifindex;
	a.link_create.attach_type = BPF_XDP;
	a.link_create.flags = flags;
	return bpf_sys(BPF_LINK_CREATE, &a);
}

int bpf_xdp_netlink(unsigned ifindex, int prog, uint32_t flags)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} req;
	struct nlattr *xdp, *fd, *fl;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	union {
		char b[512];
		struct nlmsghdr align;
	} ack;
	int s, e = 0;
	ssize_t got;

	memset(&req, 0, sizeof req);
	req.nh.nlmsg_type = RTM_SETLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = (int)ifindex;
	xdp = (struct nlattr *)req.attrs;
	xdp->nla_type = NLA_F_NESTED | IFLA_XDP;
	fd = (struct nlattr *)((char *)xdp + NLA_HDRLEN);
	fd->nla_type = IFLA_XDP_FD;
	fd->nla_len = NLA_HDRLEN + sizeof(int32_t);
	memcpy((char *)fd + NLA_HDRLEN, &prog, sizeof(int32_t));
	fl = (struct nlattr *)((char *)fd + NLA_ALIGN(fd->nla_len));
	fl->nla_type = IFLA_XDP_FLAGS;
	fl->nla_len = NLA_HDRLEN + sizeof(uint32_t);
	memcpy((char *)fl + NLA_HDRLEN, &flags, sizeof(uint32_t));
	xdp->nla_len = (uint16_t)(NLA_HDRLEN + NLA_ALIGN(fd->nla_len) + NLA_ALIGN(fl->nla_len));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.ifi) + NLA_ALIGN(xdp->nla_len);

	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (s < 0)
		return -1;
	if (sendto(s, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
		e = errno;
		goto out;
	}
	got = recv(s, ack.b, sizeof ack.b, 0);
	if (got < 0) {
		e = errno;
		goto out;
	}
	if ((size_t)got >= NLMSG_HDRLEN + sizeof(struct nlmsgerr) && ack.align.nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *err = NLMSG_DATA(&ack.align);
		e = -err->error;
	} else {
		e = EPROTO;
	}
out:
	close(s);
	errno = e;
	return e ? -1 : 0;
}
