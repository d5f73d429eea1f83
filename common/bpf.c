/* bpf: the assembler, the bpf() and netlink calls that make maps, load programs and attach
 * them to a device or a tracepoint, and the BTF reader (see bpf.h). */
#include "bpf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nl.h"

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

static int map_elem(int cmd, int map, const void *key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof a);
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	if (cmd == BPF_MAP_GET_NEXT_KEY)
		a.next_key = (uint64_t)(uintptr_t)value;
	else
		a.value = (uint64_t)(uintptr_t)value;
	return bpf_sys(cmd, &a);
}

int bpf_map_get(int map, const void *key, void *value)
{
	return map_elem(BPF_MAP_LOOKUP_ELEM, map, key, value);
}

int bpf_map_del(int map, const void *key)
{
	return map_elem(BPF_MAP_DELETE_ELEM, map, key, NULL);
}

int bpf_map_next(int map, const void *key, void *next)
{
	return map_elem(BPF_MAP_GET_NEXT_KEY, map, key, next);
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

int bpf_stats_on(void)
{
	union bpf_attr a;

	memset(&a, 0, sizeof a);
	a.enable_stats.type = BPF_STATS_RUN_TIME;
	return bpf_sys(BPF_ENABLE_STATS, &a);
}

int bpf_prog_runs(int prog, uint64_t *runs, uint64_t *ns)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof info);
	memset(&a, 0, sizeof a);
	a.info.bpf_fd = (uint32_t)prog;
	a.info.info_len = sizeof info;
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (bpf_sys(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return -1;
	*runs = info.run_cnt;
	*ns = info.run_time_ns;
	return 0;
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

static void nl_none(const struct nlmsghdr *h, void *ctx)
{
	(void)h, (void)ctx;
}

int bpf_tc_attach(unsigned ifindex, int prog, int egress, const char *name)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg t;
		char attrs[256];
	} req;
	uint32_t pfd = (uint32_t)prog, flags = TCA_BPF_FLAG_ACT_DIRECT;
	struct rtattr *opts;

	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.t);
	req.nh.nlmsg_type = RTM_NEWTFILTER;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	req.t.tcm_family = AF_UNSPEC;
	req.t.tcm_ifindex = (int)ifindex;
	req.t.tcm_handle = 1;
	req.t.tcm_parent = TC_H_MAKE(TC_H_CLSACT, egress ? TC_H_MIN_EGRESS : TC_H_MIN_INGRESS);
	req.t.tcm_info = TC_H_MAKE(1u << 16, htons(ETH_P_ALL));
	nl_attr(&req.nh, TCA_KIND, "bpf", 4);
	opts = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	nl_attr(&req.nh, TCA_OPTIONS | NLA_F_NESTED, NULL, 0);
	nl_attr(&req.nh, TCA_BPF_FD, &pfd, sizeof pfd);
	nl_attr(&req.nh, TCA_BPF_NAME, name, strlen(name) + 1);
	nl_attr(&req.nh, TCA_BPF_FLAGS, &flags, sizeof flags);
	opts->rta_len = (unsigned short)((char *)&req + req.nh.nlmsg_len - (char *)opts);
	return nl_ask(&req.nh, nl_none, NULL);
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

int bpf_perf_tp(int prog, uint64_t id, int cpu)
{
	struct perf_event_attr a;
	int fd, e;

	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof a;
	a.config = id;
	a.sample_period = 1;
	a.wakeup_events = 1;
	a.disabled = 1; /* enabled once the program is on it */
	fd = (int)syscall(__NR_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) < 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* BTF: a header, then the type section (each type a struct btf_type and what its kind puts
 * after it; ids from 1 in order) and the string section (names by offset). */
struct btf {
	uint8_t *data;
	const uint8_t *types;
	const char *strs;
	uint32_t types_len, strs_len;
	uint32_t n;    /* types: ids 1..n */
	uint32_t *at;  /* at[id]: the type's offset in types */
};

/* The bytes a type of kind with vlen entries has after its struct btf_type; -1 for a kind this
 * reader does not know. */
static long btf_extra(unsigned kind, unsigned vlen)
{
	switch (kind) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: return 4;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG: return 0;
	case BTF_KIND_ARRAY: return (long)sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: return (long)(vlen * sizeof(struct btf_member));
	case BTF_KIND_ENUM: return (long)(vlen * sizeof(struct btf_enum));
	case BTF_KIND_FUNC_PROTO: return (long)(vlen * sizeof(struct btf_param));
	case BTF_KIND_DATASEC: return (long)(vlen * sizeof(struct btf_var_secinfo));
	case BTF_KIND_ENUM64: return (long)(vlen * sizeof(struct btf_enum64));
	default: return -1;
	}
}

struct btf *btf_parse(const void *data, size_t len)
{
	struct btf_header h;
	struct btf *b;
	uint32_t cap = 1024, off;

	if (len < sizeof h) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&h, data, sizeof h);
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof h || h.hdr_len > len ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > len || (uint64_t)h.hdr_len + h.str_off + h.str_len > len ||
	    h.str_len == 0 || (h.hdr_len + h.type_off) % 4) {
		errno = EINVAL; /* another endianness is refused too: it is not this kernel's */
		return NULL;
	}
	if (!(b = calloc(1, sizeof *b)) || !(b->data = malloc(len)) || !(b->at = malloc(cap * sizeof *b->at))) {
		btf_free(b);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(b->data, data, len);
	b->types = b->data + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs = (const char *)b->data + h.hdr_len + h.str_off;
	b->strs_len = h.str_len;
	if (b->strs[b->strs_len - 1] != 0) {
		btf_free(b);
		errno = EINVAL;
		return NULL;
	}
	for (off = 0; off < b->types_len;) {
		struct btf_type t;
		long extra;
		if (b->types_len - off < sizeof t) {
			btf_free(b);
			errno = EINVAL;
			return NULL;
		}
		memcpy(&t, b->types + off, sizeof t);
		extra = btf_extra(BTF_INFO_KIND(t.info), BTF_INFO_VLEN(t.info));
		if (extra < 0 || (uint64_t)off + sizeof t + (uint64_t)extra > b->types_len) {
			btf_free(b);
			errno = EINVAL;
			return NULL;
		}
		if (b->n + 2 > cap) {
			uint32_t *at = realloc(b->at, 2 * cap * sizeof *at);
			if (!at) {
				btf_free(b);
				errno = ENOMEM;
				return NULL;
			}
			b->at = at;
			cap *= 2;
		}
		b->at[++b->n] = off;
		off += (uint32_t)(sizeof t + (size_t)extra);
	}
	return b;
}

struct btf *btf_load(const char *path)
{
	size_t len = 0, cap = 1 << 20;
	uint8_t *buf = malloc(cap);
	struct btf *b;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0 || !buf) {
		e = fd < 0 ? errno : ENOMEM;
		free(buf);
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	/* sysfs gives its size in stat, but read until the end whatever it says */
	while ((got = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)got;
		if (len == cap) {
			uint8_t *more = cap < (256u << 20) ? realloc(buf, 2 * cap) : NULL;
			if (!more) {
				free(buf);
				close(fd);
				errno = EFBIG;
				return NULL;
			}
			buf = more;
			cap *= 2;
		}
	}
	e = errno;
	close(fd);
	if (got < 0) {
		free(buf);
		errno = e;
		return NULL;
	}
	b = btf_parse(buf, len);
	e = errno;
	free(buf);
	errno = e;
	return b;
}

void btf_free(struct btf *b)
{
	if (!b)
		return;
	free(b->data);
	free(b->at);
	free(b);
}

static const struct btf_type *btf_type(const struct btf *b, uint32_t id)
{
	return id >= 1 && id <= b->n ? (const struct btf_type *)(const void *)(b->types + b->at[id]) : NULL;
}

static const char *btf_name(const struct btf *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : "";
}

/* Through typedefs and qualifiers to the type itself; 0 when the chain breaks or loops. */
static uint32_t btf_resolve(const struct btf *b, uint32_t id)
{
	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *t = btf_type(b, id);
		if (!t)
			return 0;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return id;
		}
	}
	return 0;
}

/* The size in bytes of a resolved type; 0 when it has none this reader knows. */
static uint64_t btf_size(const struct btf *b, uint32_t id, int depth)
{
	const struct btf_type *t = btf_type(b, id = btf_resolve(b, id));
	struct btf_array arr;

	if (!t || depth > 8)
		return 0;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: case BTF_KIND_FLOAT:
		return t->size;
	case BTF_KIND_PTR:
		return 8; /* a 64-bit kernel's */
	case BTF_KIND_ARRAY:
		memcpy(&arr, t + 1, sizeof arr);
		return arr.nelems * btf_size(b, arr.type, depth + 1);
	default:
		return 0;
	}
}

/* member name in the struct or union id, at byte base: 1 found, 0 not, -1 found as a bit field */
static int btf_find(const struct btf *b, uint32_t id, const char *name, unsigned base, int depth,
		    unsigned *off, unsigned *size)
{
	const struct btf_type *t = btf_type(b, id);
	unsigned kind, kflag;

	if (!t || depth > 8)
		return 0;
	kind = BTF_INFO_KIND(t->info);
	kflag = BTF_INFO_KFLAG(t->info);
	if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
		return 0;
	for (unsigned i = 0; i < BTF_INFO_VLEN(t->info); i++) {
		struct btf_member m;
		unsigned bits, bitsize;
		memcpy(&m, (const uint8_t *)(t + 1) + i * sizeof m, sizeof m);
		bits = kflag ? BTF_MEMBER_BIT_OFFSET(m.offset) : m.offset;
		bitsize = kflag ? BTF_MEMBER_BITFIELD_SIZE(m.offset) : 0;
		if (m.name_off && strcmp(btf_name(b, m.name_off), name) == 0) {
			if (bitsize || bits % 8)
				return -1;
			*off = base + bits / 8;
			*size = (unsigned)btf_size(b, m.type, 0);
			return 1;
		}
		if (!m.name_off && bits % 8 == 0) {
			int st = btf_find(b, btf_resolve(b, m.type), name, base + bits / 8, depth + 1, off, size);
			if (st)
				return st;
		}
	}
	return 0;
}

int btf_member(const struct btf *b, const char *sname, const char *name, unsigned *off, unsigned *size)
{
	for (uint32_t id = 1; id <= b->n; id++) {
		const struct btf_type *t = btf_type(b, id);
		unsigned kind = BTF_INFO_KIND(t->info);
		if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) && strcmp(btf_name(b, t->name_off), sname) == 0)
			return btf_find(b, id, name, 0, 0, off, size) == 1 ? 0 : -1;
	}
	return -1;
}

int btf_enum(const struct btf *b, const char *ename, const char *name, int64_t *value)
{
	for (uint32_t id = 1; id <= b->n; id++) {
		const struct btf_type *t = btf_type(b, id);
		unsigned kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);
		const uint8_t *e = (const uint8_t *)(t + 1);
		if ((kind != BTF_KIND_ENUM && kind != BTF_KIND_ENUM64) || strcmp(btf_name(b, t->name_off), ename))
			continue;
		for (unsigned i = 0; i < vlen; i++) {
			if (kind == BTF_KIND_ENUM) {
				struct btf_enum v;
				memcpy(&v, e + i * sizeof v, sizeof v);
				if (strcmp(btf_name(b, v.name_off), name) == 0) {
					*value = v.val;
					return 0;
				}
			} else {
				struct btf_enum64 v;
				memcpy(&v, e + i * sizeof v, sizeof v);
				if (strcmp(btf_name(b, v.name_off), name) == 0) {
					*value = (int64_t)((uint64_t)v.val_hi32 << 32 | v.val_lo32);
					return 0;
				}
			}
		}
		return -1;
	}
	return -1;
}
