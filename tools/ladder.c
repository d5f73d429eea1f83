/* ladder: one drop point of scripts/reproduce cloudflare-2018 (the 2018 drop ladder; ceilings,
 * the sending ladder, uses its xdp), held while a flood runs and counted. Run inside the receiving network namespace (ip netns exec NS ...).
 *
 *   ladder xdp DEV PORT SECS      an XDP program in native (driver) mode on DEV that drops every
 *                                 IPv4 UDP datagram to PORT (XDP_DROP), counted in an array map
 *   ladder tc DEV PORT SECS       the same as a cls_bpf filter in direct-action mode on DEV's
 *                                 clsact ingress (TC_ACT_SHOT); the qdisc is the caller's (tc
 *                                 qdisc add dev DEV clsact), and deleting it removes the filter
 *   ladder filter ADDR PORT SECS  a UDP socket bound to ADDR:PORT with a classic BPF socket
 *                                 filter "ret #0" (SO_ATTACH_FILTER): every datagram dropped at
 *                                 the socket, counted in its drops (SO_MEMINFO)
 *   ladder unread ADDR PORT SECS  a UDP socket bound to ADDR:PORT that nobody reads: once its
 *                                 buffer is full every datagram is dropped there, counted the same
 *
 * Each prints "ready" once the drop point is in place, holds it until SIGTERM or SIGINT or SECS
 * (0: none; at most 3600), then prints "dropped N" (the datagrams dropped at that point) and,
 * for the sockets, "queued N" (bytes left in the buffer), and exits. The XDP program is held by
 * a BPF link, so it goes with this process however it ends (a kernel without XDP links: netlink,
 * taken off before the exit; a SIGKILL then leaves it on DEV until the namespace goes).
 * Exit: 0 done; 1 a call failed (named, with errno); 2 bad usage; 4 the kernel or the device
 * refused the drop point (no native XDP on DEV, no cls_bpf, no BPF), so scripts can skip.
 *
 * Pitfalls: only IPv4 datagrams with a 20-byte IP header match (blast's, over the wire's veth);
 * anything else passes. The counter is one array slot with an atomic add: the flood lands on one
 * CPU (the veth's NAPI thread), so the add is not contended. */
/* first: its include guard is BPF_H, which linux/bpf_common.h also defines (an opcode) */
#include "bpf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void fail(const char *what, int code)
{
	fprintf(stderr, "ladder: %s: %s\n", what, strerror(errno));
	exit(code);
}

/* --- the XDP and tc programs ------------------------------------------------------------------ */

enum { L_PASS, L_DROP };

/* Drops IPv4 UDP to port, counting each in slot 0 of map. */
static int drop_prog(int tc, unsigned port, int map)
{
	static char log[1 << 16];
	const struct bpf_insn ld_map[2] = { BI_LD_MAP_FD(BPF_REG_1, map) };
	struct bpf_asm a;
	int16_t data = tc ? (int16_t)offsetof(struct __sk_buff, data) : (int16_t)offsetof(struct xdp_md, data);
	int16_t end = tc ? (int16_t)offsetof(struct __sk_buff, data_end) : (int16_t)offsetof(struct xdp_md, data_end);
	int fd;

	bpf_asm_init(&a);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_1, data));
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_3, BPF_REG_1, end));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, 14 + 20 + 8));
	bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, 12));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, htons(ETH_P_IP)), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, 14));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, 0x45), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, 14 + 9));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, IPPROTO_UDP), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, 14 + 20 + 2));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, htons((uint16_t)port)), L_PASS);
	/* the count: slot 0 of the map, its key on the stack */
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_1, 0));
	bpf_emit(&a, BI_STX(BPF_W, BPF_REG_10, BPF_REG_1, -4));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_2, -4));
	bpf_emit(&a, ld_map[0]);
	bpf_emit(&a, ld_map[1]);
	bpf_emit(&a, BI_CALL(BPF_FUNC_map_lookup_elem));
	bpf_jump(&a, BI_JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_DROP);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_1, 1));
	bpf_emit(&a, BI_ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0));
	bpf_label(&a, L_DROP);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_0, tc ? TC_ACT_SHOT : XDP_DROP));
	bpf_emit(&a, BI_EXIT());
	bpf_label(&a, L_PASS);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_0, tc ? TC_ACT_OK : XDP_PASS));
	bpf_emit(&a, BI_EXIT());
	if (bpf_asm_end(&a) < 0) {
		fprintf(stderr, "ladder: the program does not assemble\n");
		exit(1);
	}
	fd = bpf_prog_new(tc ? BPF_PROG_TYPE_SCHED_CLS : BPF_PROG_TYPE_XDP, a.insn, a.n, "bs_ladder", log, sizeof log);
	if (fd < 0) {
		int e = errno;
		fprintf(stderr, "ladder: BPF_PROG_LOAD: %s\n%s", strerror(e), log);
		exit(e == EPERM || e == ENOSYS ? 4 : 1);
	}
	return fd;
}

/* --- the sockets ---------------------------------------------------------------------------- */

static int bound(const char *addr, unsigned port, int filter)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sock_filter none[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog fp = { .len = 1, .filter = none };
	int s;

	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "ladder: '%s': not an IPv4 address\n", addr);
		exit(2);
	}
	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		fail("socket", 1);
	if (filter && setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof fp) < 0)
		fail("SO_ATTACH_FILTER", errno == ENOPROTOOPT ? 4 : 1);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) < 0)
		fail("bind", 1);
	return s;
}

/* --- the hold ------------------------------------------------------------------------------- */

static void hold(double secs)
{
	struct timespec t0, now, nap = { 0, 20 * 1000 * 1000 };

	printf("ready\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!stop) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
			break;
		nanosleep(&nap, NULL);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: ladder xdp|tc DEV PORT SECS\n"
			"       ladder filter|unread ADDR PORT SECS\n"
			"Holds one drop point of the 2018 drop ladder while a flood runs; prints \"ready\",\n"
			"then at SIGTERM, SIGINT or SECS \"dropped N\" (scripts/reproduce cloudflare-2018).\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	char *e1, *e2;
	unsigned long port;
	double secs;
	int xdp, tc, sock;

	if (argc != 5)
		usage();
	xdp = !strcmp(argv[1], "xdp");
	tc = !strcmp(argv[1], "tc");
	sock = !strcmp(argv[1], "filter") || !strcmp(argv[1], "unread");
	port = strtoul(argv[3], &e1, 10);
	secs = strtod(argv[4], &e2);
	if ((!xdp && !tc && !sock) || *e1 || port < 1 || port > 65535 || *e2 || e2 == argv[4] || secs < 0 || secs > 3600)
		usage();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (sock) {
		uint32_t mem[SK_MEMINFO_VARS];
		socklen_t len = sizeof mem;
		int s = bound(argv[2], (unsigned)port, argv[1][0] == 'f');
		hold(secs);
		memset(mem, 0, sizeof mem);
		if (getsockopt(s, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0)
			fail("SO_MEMINFO", 1);
		printf("dropped %u\nqueued %u\n", mem[SK_MEMINFO_DROPS], mem[SK_MEMINFO_RMEM_ALLOC]);
		return 0;
	}

	unsigned ifindex = if_nametoindex(argv[2]);
	uint32_t key = 0;
	uint64_t count = 0;
	int map, prog, link = -1, via_netlink = 0;

	if (!ifindex) {
		fprintf(stderr, "ladder: no device '%s' in this network namespace\n", argv[2]);
		return 2;
	}
	if ((map = bpf_map_new(BPF_MAP_TYPE_ARRAY, 4, 8, 1, "bs_ladder")) < 0)
		fail("BPF_MAP_CREATE", errno == EPERM || errno == ENOSYS ? 4 : 1);
	prog = drop_prog(tc, (unsigned)port, map);
	if (tc) {
		if (bpf_tc_attach(ifindex, prog, 0, "bs_ladder") < 0)
			fail("RTM_NEWTFILTER (a clsact qdisc on the device first)", errno == EOPNOTSUPP || errno == ENOENT ? 4 : 1);
	} else if ((link = bpf_xdp_link(prog, ifindex, XDP_FLAGS_DRV_MODE)) < 0) {
		/* a kernel without XDP links (before 5.9): netlink, taken off at the end */
		if (bpf_xdp_netlink(ifindex, prog, XDP_FLAGS_DRV_MODE) < 0)
			fail("native XDP on the device (IFLA_XDP, driver mode)", 4);
		via_netlink = 1;
	}
	hold(secs);
	if (bpf_map_get(map, &key, &count) < 0)
		fail("BPF_MAP_LOOKUP_ELEM", 1);
	if (via_netlink && bpf_xdp_netlink(ifindex, -1, XDP_FLAGS_DRV_MODE) < 0)
		fail("taking XDP off the device", 1);
	printf("dropped %llu\n", (unsigned long long)count);
	return 0;
}
