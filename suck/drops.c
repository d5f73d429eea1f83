/* drops: suck --drops (see drops.h). Setup and the end of each run only: the tracepoint's id
 * and format from tracefs, the sk_buff layout from BTF, the program, a perf event per CPU; the
 * map and /proc/net/snmp{,6} read once per run. */
#include "drops.h"

#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net.h"
#include "wire.h"

#define TP "events/skb/kfree_skb"
#define BTF_PATH "/sys/kernel/btf/vmlinux"
#define TEXT_MAX (1 << 16)   /* the format file: 6.18's is 7 KB */
#define MAP_ENTRIES 4096     /* runs x reasons x types; a full map counts no new key (unexplained) */
#define LOG_LEN (1 << 16)

/* The report's fixed reasons, in its order; every other reason is drop_other. */
static const char *const fixed_names[] = { "SOCKET_RCVBUFF", "NO_SOCKET", "UDP_CSUM", "NETFILTER_DROP",
					   "TC_INGRESS", "CPU_BACKLOG", "FULL_RING" };
static const char *const fixed_keys[] = { "drop_socket_rcvbuff", "drop_no_socket", "drop_udp_csum",
					  "drop_netfilter_drop", "drop_tc_ingress", "drop_cpu_backlog",
					  "drop_full_ring", "drop_other" };
#define NFIXED (sizeof fixed_names / sizeof fixed_names[0])
_Static_assert(NFIXED + 1 == sizeof fixed_keys / sizeof fixed_keys[0], "a key per fixed reason and other");
_Static_assert(NFIXED + 1 <= sizeof((struct drops_run *)0)->fixed / sizeof(uint64_t), "room for them");

struct drops {
	struct drops_fmt fmt;
	int map, chain, prog, pfd; /* pfd: the perf event the program is attached through */
	int stats;                 /* BPF_ENABLE_STATS's fd: the kernel times programs while open */
	uint64_t runs0, ns0;       /* the program's runs and time at the last settle */
	struct drops_mib base; /* the MIB at the last settle (or the open) */
	unsigned nunk;         /* run 0 (no header readable): each reason's count already given */
	struct { uint32_t reason; uint64_t taken; } unk[64];
	struct drops_run run;  /* the last settled run's figures */
};

/* --- the format file --------------------------------------------------------------------- */

/* "field:TYPE NAME;\toffset:N;\tsize:N;": NAME's offset and size; 0, or -1 without it. */
static int field(const char *text, const char *name, unsigned *off, unsigned *size)
{
	size_t k = strlen(name);

	for (const char *p = text; (p = strstr(p, "field:")); p += 6) {
		const char *semi = strchr(p, ';'), *end = strchr(p, '\n'), *o, *s;
		if (!semi || (end && end < semi))
			continue;
		/* the declaration's last word, before ';' (an array's "[N]" would follow it) */
		if ((size_t)(semi - p) < k + 1 || strncmp(semi - k, name, k) ||
		    (semi[-(long)k - 1] != ' ' && semi[-(long)k - 1] != '*'))
			continue;
		if (!(o = strstr(semi, "offset:")) || !(s = strstr(semi, "size:")) || (end && (o > end || s > end)))
			return -1;
		*off = (unsigned)strtoul(o + 7, NULL, 10);
		*size = (unsigned)strtoul(s + 5, NULL, 10);
		return 0;
	}
	return -1;
}

int drops_parse_format(const char *text, struct drops_fmt *f, const char **why)
{
	const char *p;

	memset(f, 0, sizeof *f);
	if (field(text, "skbaddr", &f->skb_off, &f->skb_size) < 0 || f->skb_size != 8) {
		*why = "no field skbaddr of 8 bytes";
		return -1;
	}
	/* the socket a drop was received on (6.11), where the kernel names one */
	if (field(text, "rx_sk", &f->rx_sk_off, &f->rx_sk_size) < 0 || f->rx_sk_size != 8)
		f->rx_sk_off = f->rx_sk_size = 0;
	if (field(text, "reason", &f->reason_off, &f->reason_size) < 0 ||
	    (f->reason_size != 4 && f->reason_size != 2)) {
		*why = "no field reason (the drop reasons came with Linux 5.17)";
		return -1;
	}
	if (!(p = strstr(text, "__print_symbolic(REC->reason,"))) {
		*why = "no list of the reasons' names (__print_symbolic) in its print fmt";
		return -1;
	}
	p += strlen("__print_symbolic(REC->reason,");
	/* { VALUE, "NAME" }, ... ) */
	while ((p = strchr(p, '{')) && f->n < DROPS_MAX_REASONS) {
		struct drops_name *r = &f->r[f->n];
		const char *q = p + 1, *comma, *open, *close;
		char *endp;
		while (*q == ' ')
			q++;
		if (!(comma = strchr(q, ',')) || !(open = strchr(comma, '"')) || !(close = strchr(open + 1, '"')))
			break;
		r->value = strtoll(q, &endp, 0);
		if (endp == q || (*endp != ',' && *endp != ' ')) {
			/* a symbol the kernel did not turn into a number: BTF's enum has it */
			size_t n = (size_t)(comma - q);
			while (n && q[n - 1] == ' ')
				n--;
			if (n >= sizeof r->sym)
				n = sizeof r->sym - 1;
			memcpy(r->sym, q, n);
			r->sym[n] = 0;
			r->value = -1;
		}
		size_t n = (size_t)(close - open - 1);
		if (n >= sizeof r->name)
			n = sizeof r->name - 1;
		memcpy(r->name, open + 1, n);
		r->name[n] = 0;
		f->n++;
		p = close + 1;
	}
	if (!f->n) {
		*why = "an empty list of the reasons' names in its print fmt";
		return -1;
	}
	return 0;
}

/* --- tracefs ------------------------------------------------------------------------------- */

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = 0;
	return got ? 0 : -1;
}

/* The tracepoint's id and format from a mounted tracefs: 0 read, 1 the tracefs is there but the
 * tracepoint is not, -1 no tracefs at base. */
static int tp_files(const char *base, char *id, size_t idlen, char *fmt, size_t fmtlen)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s/id", base, TP);
	if (slurp(path, id, idlen) == 0) {
		snprintf(path, sizeof path, "%s/%s/format", base, TP);
		return slurp(path, fmt, fmtlen) == 0 ? 0 : 1;
	}
	snprintf(path, sizeof path, "%s/events", base);
	return access(path, F_OK) == 0 ? 1 : -1;
}

/* No tracefs mounted: a child mounts one in a mount namespace of its own (private, so nothing
 * is seen outside it and it goes when the child ends), reads the two files and sends them back.
 * 0, -1 no such tracepoint, or the errno of the mount (EPERM: not root). */
static int tp_private(char *id, size_t idlen, char *fmt, size_t fmtlen)
{
	int p[2], st, e = 0;
	pid_t pid;
	size_t got = 0;
	ssize_t n;
	static char buf[TEXT_MAX + 64];

	if (pipe2(p, O_CLOEXEC) < 0)
		return errno;
	if ((pid = fork()) < 0) {
		e = errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		int r;
		close(p[0]);
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0) {
			dprintf(p[1], "E%d", errno);
			_exit(1);
		}
		r = tp_files("/sys/kernel/tracing", id, idlen, fmt, fmtlen);
		if (r)
			dprintf(p[1], "N");
		else
			dprintf(p[1], "O%s%c%s", id, 0, fmt);
		_exit(0);
	}
	close(p[1]);
	while (got < sizeof buf - 1 && (n = read(p[0], buf + got, sizeof buf - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got && buf[0] == 'E')
		return atoi(buf + 1) > 0 ? atoi(buf + 1) : EPERM;
	if (!got || buf[0] != 'O')
		return -1;
	/* "O", the id, a NUL, the format */
	if (strlen(buf + 1) + 2 >= got)
		return -1;
	size_t k = strlen(buf + 1), rest = got - k - 2;
	if (k >= idlen || rest >= fmtlen)
		return -1;
	memcpy(id, buf + 1, k + 1);
	memcpy(fmt, buf + 2 + k, rest + 1);
	return 0;
}

/* The tracepoint: 0, or the exit code with the message said. */
static int tracepoint(uint64_t *id, struct drops_fmt *f)
{
	static const char *const bases[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static char fmt[TEXT_MAX];
	const char *test = getenv("BS_DROPS_TEST"), *why;
	char idbuf[32];
	int st = -1, seen = 0;

	for (unsigned i = 0; i < 2 && st != 0; i++) {
		st = tp_files(test && !strcmp(test, "tracepoint") ? "/nonexistent" : bases[i], idbuf,
			      sizeof idbuf, fmt, sizeof fmt);
		seen |= st == 1;
	}
	if (st != 0 && !seen && !(test && !strcmp(test, "tracepoint"))) {
		int e = tp_private(idbuf, sizeof idbuf, fmt, sizeof fmt);
		if (e > 0) {
			warnx("--drops: no tracefs is mounted (/sys/kernel/tracing), and mounting one (in a mount "
			      "namespace of suck's own) failed: %s%s", strerror(e),
			      e == EPERM ? ": --drops needs root (CAP_SYS_ADMIN, CAP_BPF, CAP_PERFMON)" : "");
			return 4;
		}
		st = e;
		seen = e < 0;
	}
	if (st != 0) {
		warnx("--drops: no tracepoint skb:kfree_skb (%s/%s): %s", bases[0], TP,
		      seen ? "tracefs has no such event (a kernel without it)" :
			     "no tracefs (a kernel without CONFIG_TRACING?)");
		return 4;
	}
	*id = strtoull(idbuf, NULL, 10);
	if (!*id || drops_parse_format(fmt, f, &why) < 0) {
		warnx("--drops: the tracepoint skb:kfree_skb's format: %s", *id ? why : "no id");
		return 4;
	}
	return 0;
}

/* --- BTF and the program ---------------------------------------------------------------------- */

int drops_layout(const struct btf *b, struct drops_layout *l, char *why, size_t len)
{
	static const struct { const char *s, *m; size_t at; unsigned want; } need[] = {
		{ "sk_buff", "head", offsetof(struct drops_layout, head), 8 },
		{ "sk_buff", "data", offsetof(struct drops_layout, data), 8 },
		{ "sk_buff", "network_header", offsetof(struct drops_layout, network_header), 2 },
		{ "sk_buff", "end", offsetof(struct drops_layout, end), 0 },
		{ "sk_buff", "tail", offsetof(struct drops_layout, tail), 0 },
		{ "skb_shared_info", "gso_size", offsetof(struct drops_layout, gso_size), 2 },
		{ "skb_shared_info", "gso_segs", offsetof(struct drops_layout, gso_segs), 2 },
		{ "skb_shared_info", "frag_list", offsetof(struct drops_layout, frag_list), 8 },
		{ "sk_buff", "next", offsetof(struct drops_layout, next), 8 },
		{ "sk_buff", "dev", offsetof(struct drops_layout, dev), 8 },
		{ "sock_common", "skc_net", offsetof(struct drops_layout, skc_net), 8 },
		{ "net_device", "nd_net", offsetof(struct drops_layout, nd_net), 8 },
		{ "net", "ns", offsetof(struct drops_layout, net_inum), 0 },
		{ "ns_common", "inum", offsetof(struct drops_layout, ns_inum), 4 },
	};

	for (unsigned i = 0; i < sizeof need / sizeof need[0]; i++) {
		unsigned off, size;
		int any = !need[i].want && !strcmp(need[i].m, "ns"); /* a struct: its size is its own */
		if (btf_member(b, need[i].s, need[i].m, &off, &size) < 0 ||
		    (need[i].want && size != need[i].want) || (!need[i].want && !any && size != 4 && size != 8)) {
			snprintf(why, len, "struct %s has no member %s%s", need[i].s, need[i].m,
				 need[i].want ? " of the size expected" : " of 4 or 8 bytes");
			return -1;
		}
		memcpy((char *)l + need[i].at, &off, sizeof off);
		if (!need[i].want && !any)
			l->end_size = size; /* tail is of end's type, sk_buff_data_t */
	}
	l->net_inum += l->ns_inum; /* net.ns.inum */
	return 0;
}

enum { L_OUT, L_DATA, L_NET, L_V4, L_V6, L_UDP, L_PAGED, L_SEGS, L_COUNT, L_INSERT, L_DEV, L_NETNS,
       L_UNKNOWN, L_WIN, L_CLEAR, L_START, L_MOVE };

/* The stack: the sk_buff's window, the IP header, UDP and blast's header, the shared info's
 * GSO fields, the key and the value; whether this skb is a member of a counted skb's frag_list,
 * and that skb's key. */
#define S_WIN (-64)
#define S_IP (-112)
#define S_UDP (-136)
#define S_GSO (-152) /* also the network namespace's pointers, before */
#define S_KEY (-168)
#define S_VAL (-176)
#define S_MEM (-184)
#define S_HKEY (-200)
#define W_MAX 64 /* bytes of sk_buff read at once */
#define G_MAX 16 /* bytes of skb_shared_info */

static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

/* r3 = src register + off, r1 = fp + at, r2 = len, bpf_probe_read_kernel (src may be r1..r3) */
static void probe(struct bpf_asm *a, int at, int len, int src, int off)
{
	bpf_emit(a, BI_MOV64_REG(BPF_REG_3, src));
	if (off)
		bpf_emit(a, BI_ADD64_IMM(BPF_REG_3, off));
	bpf_emit(a, BI_MOV64_REG(BPF_REG_1, BPF_REG_10));
	bpf_emit(a, BI_ADD64_IMM(BPF_REG_1, at));
	bpf_emit(a, BI_MOV64_IMM(BPF_REG_2, len));
	bpf_emit(a, BI_CALL(BPF_FUNC_probe_read_kernel));
}

int drops_prog(const struct drops_fmt *f, const struct drops_layout *l, const struct drops_match *m,
	       int map_fd, int chain_fd, struct bpf_insn *insn)
{
	const struct bpf_insn map[2] = { BI_LD_MAP_FD(BPF_REG_1, map_fd) };
	const struct bpf_insn chain[2] = { BI_LD_MAP_FD(BPF_REG_1, chain_fd) };
	/* the windows start 8-aligned, so that each field, aligned in its struct, is on the stack
	 * too (the verifier refuses a misaligned stack read) */
	unsigned wlo = umin(umin(umin(l->head, l->data), umin(l->network_header, l->end)), l->tail) & ~7u;
	unsigned whi = umax(umax(umax(l->head + 8, l->data + 8), umax(l->network_header + 2, l->end + l->end_size)),
			    l->tail + l->end_size);
	unsigned glo = umin(umin(l->gso_size, l->gso_segs), l->frag_list) & ~7u,
		 ghi = umax(umax(l->gso_size, l->gso_segs) + 2, l->frag_list + 8);
	uint32_t magic;
	struct bpf_asm a;

	if (whi - wlo > W_MAX || ghi - glo > G_MAX) {
		errno = ERANGE;
		return -1;
	}
	memcpy(&magic, "BLST", 4); /* as the first four bytes read into a register */
	bpf_asm_init(&a);
	/* r6 ctx, r7 the skb, r8 the reason */
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_6, BPF_REG_1));
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_7, BPF_REG_6, (int16_t)f->skb_off));
	bpf_emit(&a, BI_LDX(f->reason_size == 4 ? BPF_W : BPF_H, BPF_REG_8, BPF_REG_6, (int16_t)f->reason_off));
	/* A coalesced (GRO) skb dropped whole counts as all its datagrams (gso_segs), those of its
	 * frag_list too; the kernel then frees each member of that list on the same CPU, one after
	 * another, each passing here again (NOT_SPECIFIED). The per-CPU chain holds the next member
	 * expected and the counted skb's key; any other drop ends the chain. A member is looked at
	 * under that skb's reason: of the same run and type it was counted already; else (a fin
	 * that GRO put at the end of the data) it moves from that skb's count to its own. */
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_MEM));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, S_KEY));
	bpf_emit(&a, chain[0]);
	bpf_emit(&a, chain[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_START);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_0, 0));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_2, 0), L_START);
	bpf_jump(&a, BI_JMP_REG(BPF_JNE, BPF_REG_2, BPF_REG_7), L_CLEAR);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_9, BPF_REG_0));
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_VAL));
	probe(&a, S_VAL, 8, BPF_REG_7, (int)l->next);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_VAL));
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_9, BPF_REG_2, 0));
	for (int k = 0; k < 12; k += 4) {
		bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_9, (int16_t)(8 + k)));
		bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, (int16_t)(S_HKEY + k)));
	}
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_8, BPF_REG_9, 8 + 4));
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 1));
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_MEM));
	bpf_jump(&a, BI_JA(), L_START);
	bpf_label(&a, L_CLEAR);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_0, BPF_REG_2, 0));
	bpf_label(&a, L_START);
	/* The network namespace: the receiving socket's where the tracepoint names one (rx_sk),
	 * else the device's, unless skb->dev holds UDP's scratch words (a queued skb's), which are
	 * no kernel pointer. Another namespace's drop is not suck's; r6 0 when none was found
	 * (then only a datagram with the run's header can count). */
	if (f->rx_sk_size == 8) {
		bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_6, (int16_t)f->rx_sk_off));
		bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_2, 0), L_DEV);
		probe(&a, S_GSO, 8, BPF_REG_2, (int)l->skc_net);
		bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_UNKNOWN);
		bpf_jump(&a, BI_JA(), L_NETNS);
	}
	bpf_label(&a, L_DEV);
	probe(&a, S_GSO, 8, BPF_REG_7, (int)l->dev);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_UNKNOWN);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_GSO));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_3, BPF_REG_2));
	/* a kernel address is in the top half; the scratch words' top byte is 0 or 1 */
	bpf_emit(&a, BI_RSH64_IMM(BPF_REG_3, 63));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_3, 1), L_UNKNOWN);
	probe(&a, S_GSO, 8, BPF_REG_2, (int)l->nd_net);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_UNKNOWN);
	bpf_label(&a, L_NETNS);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_GSO));
	probe(&a, S_GSO, 4, BPF_REG_2, (int)l->net_inum);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_UNKNOWN);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_GSO));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_2, (int32_t)m->netns), L_OUT);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_6, 1));
	bpf_jump(&a, BI_JA(), L_WIN);
	bpf_label(&a, L_UNKNOWN);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_6, 0));
	bpf_label(&a, L_WIN);
	/* head, data, network_header and end in one read */
	probe(&a, S_WIN, (int)(whi - wlo), BPF_REG_7, (int)wlo);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_9, BPF_REG_10, (int16_t)(S_WIN + (int)(l->head - wlo))));
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_2, BPF_REG_10, (int16_t)(S_WIN + (int)(l->network_header - wlo))));
	/* no network header set (0xffff): the data starts at it, as where a device hands it up */
	bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_2, 0xffff), L_DATA);
	bpf_emit(&a, BI_ADD64_REG(BPF_REG_9, BPF_REG_2));
	bpf_jump(&a, BI_JA(), L_NET);
	bpf_label(&a, L_DATA);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_9, BPF_REG_10, (int16_t)(S_WIN + (int)(l->data - wlo))));
	bpf_label(&a, L_NET);
	/* r9: the IP header */
	probe(&a, S_IP, 40, BPF_REG_9, 0);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_2, BPF_REG_10, S_IP));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_3, BPF_REG_2));
	bpf_emit(&a, BI_RSH64_IMM(BPF_REG_3, 4));
	if (m->v4)
		bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_3, 4), L_V4);
	if (m->v6)
		bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_3, 6), L_V6);
	bpf_jump(&a, BI_JA(), L_OUT);
	if (m->v4) {
		bpf_label(&a, L_V4);
		bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_3, BPF_REG_10, S_IP + 9));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_3, IPPROTO_UDP), L_OUT);
		/* a fragment past the first has no UDP header */
		bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_3, BPF_REG_10, S_IP + 6));
		bpf_emit(&a, BI_AND32_IMM(BPF_REG_3, htons(0x1fff)));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_3, 0), L_OUT);
		bpf_emit(&a, BI_AND64_IMM(BPF_REG_2, 0xf));
		bpf_emit(&a, BI_LSH64_IMM(BPF_REG_2, 2));
		bpf_emit(&a, BI_ADD64_REG(BPF_REG_9, BPF_REG_2));
		bpf_jump(&a, BI_JA(), L_UDP);
	}
	if (m->v6) {
		bpf_label(&a, L_V6);
		bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_3, BPF_REG_10, S_IP + 6));
		bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_3, IPPROTO_UDP), L_OUT);
		bpf_emit(&a, BI_ADD64_IMM(BPF_REG_9, 40));
	}
	/* r9: the UDP header, then blast's: magic, version, type, flow, run id; when blast's is not
	 * in the linear part (a GSO skb's payload is in page fragments) the port alone is matched,
	 * under run 0: the run is then whichever suck is counting (drops_settle) */
	bpf_label(&a, L_UDP);
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, (int16_t)(S_WIN + (int)(l->head - wlo))));
	if (l->end_size == 4) {
		bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_3, BPF_REG_10, (int16_t)(S_WIN + (int)(l->tail - wlo))));
		bpf_emit(&a, BI_ADD64_REG(BPF_REG_2, BPF_REG_3));
	} else {
		bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, (int16_t)(S_WIN + (int)(l->tail - wlo))));
	}
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_3, BPF_REG_9));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_3, 20));
	bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_3, BPF_REG_2), L_PAGED);
	probe(&a, S_UDP, 20, BPF_REG_9, 0);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_2, BPF_REG_10, S_UDP + 2));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_2, htons(m->port)), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_UDP + 8));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_2, (int32_t)magic), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_2, BPF_REG_10, S_UDP + 8 + 4));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_2, WIRE_VERSION), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_3, BPF_REG_10, S_UDP + 8 + 5));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JGT, BPF_REG_3, WIRE_REQ), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_UDP + 8 + 8));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_8, S_KEY + 4));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_3, S_KEY + 8));
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_4, BPF_REG_10, S_MEM));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_4, 0), L_SEGS);
	/* a frag_list member: of the counted skb's run and type, counted with it */
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_4, BPF_REG_10, S_HKEY));
	bpf_jump(&a, BI_JMP_REG(BPF_JNE, BPF_REG_4, BPF_REG_2), L_MOVE);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_4, BPF_REG_10, S_HKEY + 8));
	bpf_jump(&a, BI_JMP_REG(BPF_JEQ, BPF_REG_4, BPF_REG_3), L_OUT);
	bpf_label(&a, L_MOVE);
	/* else one fewer there (if it is there: else left where it was), one more here */
	bpf_emit(&a, map[0]);
	bpf_emit(&a, map[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_HKEY));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, -1));
	bpf_emit(&a, BI_ATOMIC_ADD64(BPF_REG_0, BPF_REG_2, 0));
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_6, 1));
	bpf_jump(&a, BI_JA(), L_COUNT);
	bpf_label(&a, L_PAGED);
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_6, 0), L_OUT); /* the port alone: suck's namespace only */
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_4, BPF_REG_10, S_MEM));
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_4, 0), L_OUT); /* a member's type is not known here */
	probe(&a, S_UDP, 8, BPF_REG_9, 0);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_2, BPF_REG_10, S_UDP + 2));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_2, htons(m->port)), L_OUT);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_8, S_KEY + 4));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, S_KEY + 8));
	/* r6: the datagrams it holds, gso_segs of a GSO (GRO) skb, else 1 */
	bpf_label(&a, L_SEGS);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_6, 1));
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_9, BPF_REG_10, (int16_t)(S_WIN + (int)(l->head - wlo))));
	if (l->end_size == 4) {
		bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_10, (int16_t)(S_WIN + (int)(l->end - wlo))));
		bpf_emit(&a, BI_ADD64_REG(BPF_REG_9, BPF_REG_2));
	} else {
		bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_9, BPF_REG_10, (int16_t)(S_WIN + (int)(l->end - wlo))));
	}
	probe(&a, S_GSO, (int)(ghi - glo), BPF_REG_9, (int)glo);
	bpf_jump(&a, BI_JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_COUNT);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_2, BPF_REG_10, (int16_t)(S_GSO + (int)(l->gso_size - glo))));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_2, 0), L_COUNT);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_2, BPF_REG_10, (int16_t)(S_GSO + (int)(l->gso_segs - glo))));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_2, 0), L_COUNT);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_6, BPF_REG_2));
	/* a frag_list: its first member is the next drop expected on this CPU, with this key */
	bpf_emit(&a, BI_LDX(BPF_DW, BPF_REG_9, BPF_REG_10, (int16_t)(S_GSO + (int)(l->frag_list - glo))));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_9, 0), L_COUNT);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_2, S_VAL));
	bpf_emit(&a, chain[0]);
	bpf_emit(&a, chain[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_VAL));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_COUNT);
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_0, BPF_REG_9, 0));
	for (int k = 0; k < 12; k += 4) {
		bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_10, (int16_t)(S_KEY + k)));
		bpf_emit(&a, BI_STX(BPF_W, BPF_REG_0, BPF_REG_2, (int16_t)(8 + k)));
	}
	/* count[key] += r6: an entry there is added to, else made (another CPU may make it first) */
	bpf_label(&a, L_COUNT);
	bpf_emit(&a, BI_STX(BPF_DW, BPF_REG_10, BPF_REG_6, S_VAL));
	bpf_emit(&a, map[0]);
	bpf_emit(&a, map[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_INSERT);
	bpf_emit(&a, BI_ATOMIC_ADD64(BPF_REG_0, BPF_REG_6, 0));
	bpf_jump(&a, BI_JA(), L_OUT);
	bpf_label(&a, L_INSERT);
	bpf_emit(&a, map[0]);
	bpf_emit(&a, map[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_3, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_3, S_VAL));
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_4, BPF_NOEXIST));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_update_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, map[0]);
	bpf_emit(&a, map[1]);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, S_KEY));
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_OUT);
	bpf_emit(&a, BI_ATOMIC_ADD64(BPF_REG_0, BPF_REG_6, 0));
	bpf_label(&a, L_OUT);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(&a, BI_EXIT());
	if (bpf_asm_end(&a) < 0)
		return -1;
	memcpy(insn, a.insn, a.n * sizeof *insn);
	return (int)a.n;
}

/* --- the MIB --------------------------------------------------------------------------------- */

/* /proc/net/snmp's two "Udp:" lines, names then values. */
static int mib4(struct drops_mib *m)
{
	char names[512], vals[512], line[512];
	int have = 0;
	FILE *f = fopen("/proc/net/snmp", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "Udp: ", 5)) {
			snprintf(have ? vals : names, sizeof names, "%s", line + 5);
			if (++have == 2)
				break;
		}
	fclose(f);
	if (have != 2)
		return -1;
	char *sn = NULL, *sv = NULL;
	for (char *n = strtok_r(names, " \n", &sn), *v = strtok_r(vals, " \n", &sv); n && v;
	     n = strtok_r(NULL, " \n", &sn), v = strtok_r(NULL, " \n", &sv)) {
		uint64_t x = strtoull(v, NULL, 10);
		if (!strcmp(n, "RcvbufErrors"))
			m->rcvbuf_errors += x;
		else if (!strcmp(n, "InCsumErrors"))
			m->in_csum_errors += x;
		else if (!strcmp(n, "NoPorts"))
			m->no_ports += x;
		else if (!strcmp(n, "MemErrors"))
			m->mem_errors += x;
	}
	return 0;
}

/* /proc/net/snmp6's "Udp6Name value" lines; a kernel without IPv6 has none (0, not an error). */
static void mib6(struct drops_mib *m)
{
	char name[64];
	unsigned long long x;
	FILE *f = fopen("/proc/net/snmp6", "r");

	if (!f)
		return;
	while (fscanf(f, "%63s %llu", name, &x) == 2) {
		if (!strcmp(name, "Udp6RcvbufErrors"))
			m->rcvbuf_errors += x;
		else if (!strcmp(name, "Udp6InCsumErrors"))
			m->in_csum_errors += x;
		else if (!strcmp(name, "Udp6NoPorts"))
			m->no_ports += x;
		else if (!strcmp(name, "Udp6MemErrors"))
			m->mem_errors += x;
	}
	fclose(f);
}

void drops_mib_read(struct drops_mib *m)
{
	memset(m, 0, sizeof *m);
	m->ok = mib4(m) == 0;
	if (m->ok)
		mib6(m);
}

/* --- open, settle, close ------------------------------------------------------------------------ */

/* An errno of a bpf() or perf_event_open call that means "not here" rather than "went wrong". */
static int missing(int e)
{
	return e == EPERM || e == EACCES || e == ENOSYS || e == EOPNOTSUPP || e == ENOENT;
}

static const char *privilege(int e)
{
	return e == EPERM || e == EACCES ? ": --drops needs root (CAP_BPF and CAP_PERFMON)" :
	       e == ENOSYS ? ": a kernel without BPF (CONFIG_BPF_SYSCALL)" : "";
}

int drops_open(struct drops **dp, int fd)
{
	static struct bpf_insn insn[BPF_ASM_MAX];
	static char log[LOG_LEN];
	struct drops *d;
	struct drops_layout l;
	struct drops_match m = { 0 };
	struct net_addr bound;
	struct btf *b;
	const char *test = getenv("BS_DROPS_TEST");
	uint64_t id;
	char why[128];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int st, n, e;

	*dp = NULL;
	if (!(d = calloc(1, sizeof *d))) {
		warn("--drops: malloc");
		return 1;
	}
	d->map = d->chain = d->prog = d->pfd = d->stats = -1;
	if ((st = tracepoint(&id, &d->fmt))) {
		drops_close(d);
		return st;
	}
	if (!(b = btf_load(test && !strcmp(test, "btf") ? "/nonexistent/vmlinux" : BTF_PATH))) {
		e = errno;
		warnx("--drops: %s: %s%s", BTF_PATH, strerror(e),
		      e == ENOENT ? " (a kernel built without CONFIG_DEBUG_INFO_BTF)" : "");
		drops_close(d);
		return e == ENOMEM ? 1 : 4;
	}
	st = drops_layout(b, &l, why, sizeof why);
	/* names the kernel left as symbols: their values from its enum */
	for (unsigned i = 0; i < d->fmt.n; i++)
		if (d->fmt.r[i].value < 0 && btf_enum(b, "skb_drop_reason", d->fmt.r[i].sym, &d->fmt.r[i].value) < 0)
			d->fmt.r[i].value = -1;
	btf_free(b);
	if (st < 0) {
		warnx("--drops: the kernel's BTF: %s", why);
		drops_close(d);
		return 4;
	}
	if (net_local(fd, &bound) < 0) {
		warn("--drops: getsockname");
		drops_close(d);
		return 1;
	}
	if (bound.ss.ss_family == AF_INET) {
		m.port = ntohs(((struct sockaddr_in *)&bound.ss)->sin_port);
		m.v4 = 1;
	} else {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&bound.ss;
		int v6only = 0;
		socklen_t len = sizeof v6only;
		m.port = ntohs(s6->sin6_port);
		m.v4 = IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) ||
		       (IN6_IS_ADDR_UNSPECIFIED(&s6->sin6_addr) &&
			getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &len) == 0 && !v6only);
		m.v6 = !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr);
	}
	struct stat ns;
	if (stat("/proc/self/ns/net", &ns) < 0) {
		warn("--drops: /proc/self/ns/net");
		drops_close(d);
		return 1;
	}
	m.netns = (uint32_t)ns.st_ino;
	if ((d->map = bpf_map_new(BPF_MAP_TYPE_HASH, sizeof(struct drops_key), sizeof(uint64_t), MAP_ENTRIES,
				  "suck_drops")) < 0) {
		e = errno;
		warn("--drops: bpf BPF_MAP_CREATE%s", privilege(e));
		drops_close(d);
		return missing(e) ? 4 : 1;
	}
	if ((d->chain = bpf_map_new(BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(uint32_t), DROPS_CHAIN_SIZE, 1,
				    "suck_chain")) < 0) {
		e = errno;
		warn("--drops: bpf BPF_MAP_CREATE (a per-CPU array)%s", privilege(e));
		drops_close(d);
		return missing(e) ? 4 : 1;
	}
	if ((n = drops_prog(&d->fmt, &l, &m, d->map, d->chain, insn)) < 0) {
		warnx("--drops: the sk_buff fields lie too far apart for this program (head %u, data %u, "
		      "network_header %u, end %u)", l.head, l.data, l.network_header, l.end);
		drops_close(d);
		return 4;
	}
	if ((d->prog = bpf_prog_new(BPF_PROG_TYPE_TRACEPOINT, insn, (unsigned)n, "suck_drops", log, sizeof log)) < 0) {
		e = errno;
		if (e == EPERM || e == ENOSYS) {
			warn("--drops: bpf BPF_PROG_LOAD%s", privilege(e));
			drops_close(d);
			return 4;
		}
		fprintf(stderr, "suck: --drops: the verifier refused the program (bpf BPF_PROG_LOAD: %s); the "
			"verifier's log:\n%s%s", strerror(e), log, log[0] && log[strlen(log) - 1] != '\n' ? "\n" : "");
		drops_close(d);
		return 1;
	}
	/* One perf event is enough, and a second is refused: the program goes into the
	 * tracepoint's own array (EEXIST for the same program twice), which runs at its hits on
	 * every CPU; the event's CPU only says where the event lives. The first online CPU's. */
	if (ncpu < 1)
		ncpu = 1;
	for (long cpu = 0; cpu < ncpu && d->pfd < 0; cpu++) {
		if ((d->pfd = bpf_perf_tp(d->prog, id, (int)cpu)) >= 0)
			break;
		e = errno;
		if (e == ENODEV) /* an offline CPU */
			continue;
		warn("--drops: perf_event_open of skb:kfree_skb on CPU %ld%s", cpu,
		     e == EACCES || e == EPERM ? ": --drops needs root (CAP_PERFMON)" : "");
		drops_close(d);
		return missing(e) || e == EINVAL ? 4 : 1;
	}
	if (d->pfd < 0) {
		warnx("--drops: perf_event_open of skb:kfree_skb: no CPU took it");
		drops_close(d);
		return 4;
	}
	drops_mib_read(&d->base);
	/* the program's own cost, where the kernel will time it (else drops_prog_* are "-") */
	if ((d->stats = bpf_stats_on()) >= 0 && bpf_prog_runs(d->prog, &d->runs0, &d->ns0) < 0) {
		close(d->stats);
		d->stats = -1;
	}
	*dp = d;
	return 0;
}

void drops_close(struct drops *d)
{
	if (!d)
		return;
	if (d->pfd >= 0)
		close(d->pfd);
	if (d->prog >= 0)
		close(d->prog);
	if (d->map >= 0)
		close(d->map);
	if (d->chain >= 0)
		close(d->chain);
	if (d->stats >= 0)
		close(d->stats);
	free(d);
}

static const char *reason_name(const struct drops_fmt *f, uint32_t value, char *buf, size_t len)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->r[i].value == (int64_t)value)
			return f->r[i].name;
	snprintf(buf, len, "REASON_%u", value);
	return buf;
}

void drops_sum(const struct drops_fmt *f, const uint32_t *values, const uint64_t *counts, unsigned n,
	       uint64_t fins, struct drops_run *out)
{
	unsigned order[64], k = 0;
	size_t len = 0;
	char buf[24];

	memset(out->fixed, 0, sizeof out->fixed);
	out->attributed = 0;
	out->fins = fins;
	out->detail[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		const char *name = reason_name(f, values[i], buf, sizeof buf);
		unsigned j = 0;
		while (j < NFIXED && strcmp(name, fixed_names[j]))
			j++;
		out->fixed[j] += counts[i]; /* j == NFIXED: other */
		out->attributed += counts[i];
		if (counts[i] && k < sizeof order / sizeof order[0])
			order[k++] = i;
	}
	/* most first, then by value */
	for (unsigned i = 1; i < k; i++)
		for (unsigned j = i; j > 0 && (counts[order[j]] > counts[order[j - 1]] ||
					       (counts[order[j]] == counts[order[j - 1]] &&
						values[order[j]] < values[order[j - 1]])); j--) {
			unsigned t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (unsigned i = 0; i < k; i++) {
		char item[80];
		int w = snprintf(item, sizeof item, "%s%s:%llu", i ? "," : "",
				 reason_name(f, values[order[i]], buf, sizeof buf),
				 (unsigned long long)counts[order[i]]);
		/* what does not fit is said as +N more */
		if (len + (size_t)w + 8 >= sizeof out->detail && i + 1 < k) {
			snprintf(out->detail + len, sizeof out->detail - len, ",+%u", k - i);
			len = strlen(out->detail);
			break;
		}
		if (len + (size_t)w >= sizeof out->detail) {
			snprintf(out->detail + len, sizeof out->detail - len, ",+%u", k - i);
			break;
		}
		memcpy(out->detail + len, item, (size_t)w + 1);
		len += (size_t)w;
	}
	if (!out->detail[0])
		snprintf(out->detail, sizeof out->detail, "none");
}

void drops_settle(struct drops *d, struct total *t, uint32_t run)
{
	struct drops_key key, next, *prev = NULL, done[64];
	uint32_t values[64];
	uint64_t counts[64], fins = 0, v;
	unsigned n = 0, ndone = 0;
	struct drops_mib now;

	if (!d)
		return;
	while (bpf_map_next(d->map, prev, &next) == 0) {
		key = next;
		prev = &key;
		if ((key.run != htonl(run) && key.run) || bpf_map_get(d->map, &key, &v) < 0)
			continue;
		if (key.run && ndone < sizeof done / sizeof done[0])
			done[ndone++] = key;
		if (!key.run) {
			/* a paged skb's, matched by port alone: what came since the last run's end */
			unsigned u = 0;
			while (u < d->nunk && d->unk[u].reason != key.reason)
				u++;
			if (u == d->nunk && d->nunk < sizeof d->unk / sizeof d->unk[0])
				d->unk[d->nunk++].reason = key.reason;
			if (u == d->nunk)
				continue;
			uint64_t taken = d->unk[u].taken;
			d->unk[u].taken = v;
			v -= taken;
			if (!run || !v)
				continue;
		}
		if (key.type == WIRE_FIN) {
			fins += v;
			continue;
		}
		unsigned i = 0;
		while (i < n && values[i] != key.reason)
			i++;
		if (i == n) {
			if (n == sizeof values / sizeof values[0])
				i = n - 1; /* past 64 reasons in one run: the last holds the rest */
			else
				values[n] = key.reason, counts[n++] = 0;
		}
		counts[i] += v;
	}
	/* the run's keys are read for good: a server's map holds only the runs still to come */
	for (unsigned i = 0; i < ndone; i++)
		bpf_map_del(d->map, &done[i]);
	drops_sum(&d->fmt, values, counts, n, fins, &d->run);
	drops_mib_read(&now);
	d->run.mib.ok = now.ok && d->base.ok;
	d->run.mib.rcvbuf_errors = now.rcvbuf_errors - d->base.rcvbuf_errors;
	d->run.mib.in_csum_errors = now.in_csum_errors - d->base.in_csum_errors;
	d->run.mib.no_ports = now.no_ports - d->base.no_ports;
	d->run.mib.mem_errors = now.mem_errors - d->base.mem_errors;
	d->base = now;
	uint64_t runs, ns;
	d->run.prog_ok = d->stats >= 0 && bpf_prog_runs(d->prog, &runs, &ns) == 0;
	if (d->run.prog_ok) {
		d->run.prog_runs = runs - d->runs0;
		d->run.prog_ns = ns - d->ns0;
		d->runs0 = runs;
		d->ns0 = ns;
	}
	/* the socket's full buffer, counted datagram by datagram (a GRO buffer as its segments) */
	t->dropped = d->run.fixed[0] < t->seq.lost - t->queue_dropped ? d->run.fixed[0] :
		     t->seq.lost - t->queue_dropped;
}

void drops_report(struct report *r, const struct drops *d, const struct total *t)
{
	static const char *const mib_keys[] = { "udp_rcvbuf_errors", "udp_in_csum_errors", "udp_no_ports",
						"udp_mem_errors" };

	report_u64(r, "drops", d != NULL);
	if (!d) {
		report_none(r, "drops_attributed");
		report_none(r, "unexplained");
		for (unsigned i = 0; i <= NFIXED; i++)
			report_none(r, fixed_keys[i]);
		report_none(r, "drop_fins");
		report_none(r, "drop_detail");
		for (unsigned i = 0; i < 4; i++)
			report_none(r, mib_keys[i]);
		report_none(r, "drops_prog_runs");
		report_none(r, "drops_prog_ns");
		return;
	}
	report_u64(r, "drops_attributed", d->run.attributed);
	report_i64(r, "unexplained", (int64_t)(t->seq.lost - t->queue_dropped) - (int64_t)d->run.attributed);
	for (unsigned i = 0; i <= NFIXED; i++)
		report_u64(r, fixed_keys[i], d->run.fixed[i]);
	report_u64(r, "drop_fins", d->run.fins);
	report_str(r, "drop_detail", d->run.detail);
	if (d->run.mib.ok) {
		report_u64(r, mib_keys[0], d->run.mib.rcvbuf_errors);
		report_u64(r, mib_keys[1], d->run.mib.in_csum_errors);
		report_u64(r, mib_keys[2], d->run.mib.no_ports);
		report_u64(r, mib_keys[3], d->run.mib.mem_errors);
	} else {
		for (unsigned i = 0; i < 4; i++)
			report_none(r, mib_keys[i]);
	}
	if (d->run.prog_ok) {
		report_u64(r, "drops_prog_runs", d->run.prog_runs);
		report_f(r, "drops_prog_ns", d->run.prog_runs ? (double)d->run.prog_ns / (double)d->run.prog_runs : 0, 1);
	} else {
		report_none(r, "drops_prog_runs");
		report_none(r, "drops_prog_ns");
	}
}
