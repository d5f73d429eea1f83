/* dropper: drops some of a run's datagrams at a known place, for suck --drops' test
 * (tests/t_drops.sh). Not part of the product; built by `make unit` as bin/dropper.
 *
 *   dropper csum PORT RUN_ID SIZE N M  a whole run of N datagrams on flow 0 from one UDP socket,
 *                                      the sequence numbers s with s % M == 0 sent instead with a
 *                                      wrong UDP checksum through a raw socket (IPPROTO_RAW: it
 *                                      receives nothing, so no copy of the run is dropped at it)
 *                                      from the same address and port, then the fins; prints
 *                                      "bad K", the datagrams sent with a wrong checksum
 *   dropper tc DEV PORT N              a cls_bpf program in direct-action mode on DEV's clsact
 *                                      ingress (the qdisc made beforehand: tc qdisc add dev DEV
 *                                      clsact) that drops the data datagrams to PORT whose
 *                                      sequence number s has s % N == 0 (TC_ACT_SHOT); the filter
 *                                      holds the program after dropper ends (tc qdisc del ...)
 *   dropper tc DEV PORT N egress       the same on DEV's clsact egress: dropped before the device,
 *                                      which a UDP send call does not hear of (ENOBUFS is kept
 *                                      from a socket without IP_RECVERR)
 *   dropper xdp DEV PORT N skb|drv     the same as an XDP program (XDP_DROP), generic (skb) or
 *                                      native (drv), attached with netlink until taken off
 *                                      (ip link set dev DEV xdp off)
 *   dropper prog ID                    exits 0 when the BPF program of that id is loaded, else 1
 *
 * csum goes to ::1 instead of 127.0.0.1 when DROPPER_V6 is set and not empty. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf.h"
#include "wire.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* --- csum -------------------------------------------------------------------------------- */

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n % 2)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void pace(unsigned i)
{
	if (i % 32 == 31) { /* suck's buffer never fills: only the checksums are dropped */
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
}

static int csum(int v6, unsigned port, uint32_t run, size_t size, uint64_t n, uint64_t m)
{
	static uint8_t buf[3000], pkt[3100];
	struct sockaddr_storage to, me;
	socklen_t tolen, melen = sizeof me;
	int u, r, one = 1;
	uint64_t bad = 0;
	unsigned sport, ip = v6 ? 40 : 20;

	memset(&to, 0, sizeof to);
	if (v6) {
		struct sockaddr_in6 *t = (struct sockaddr_in6 *)&to;
		t->sin6_family = AF_INET6;
		t->sin6_addr = in6addr_loopback;
		t->sin6_port = htons((uint16_t)port);
		tolen = sizeof *t;
	} else {
		struct sockaddr_in *t = (struct sockaddr_in *)&to;
		t->sin_family = AF_INET;
		t->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		t->sin_port = htons((uint16_t)port);
		tolen = sizeof *t;
	}
	if ((u = socket(to.ss_family, SOCK_DGRAM, 0)) < 0 || connect(u, (struct sockaddr *)&to, tolen) < 0 ||
	    getsockname(u, (struct sockaddr *)&me, &melen) < 0)
		die("dropper: udp socket");
	sport = ntohs(v6 ? ((struct sockaddr_in6 *)&me)->sin6_port : ((struct sockaddr_in *)&me)->sin_port);
	/* a raw socket's port is a protocol number (IPv6: one not its own is refused) */
	struct sockaddr_storage rto = to;
	if (v6)
		((struct sockaddr_in6 *)&rto)->sin6_port = 0;
	else
		((struct sockaddr_in *)&rto)->sin_port = 0;
	if ((r = socket(to.ss_family, SOCK_RAW, IPPROTO_RAW)) < 0)
		die("dropper: raw socket");
	if (!v6 && setsockopt(r, IPPROTO_IP, IP_HDRINCL, &one, sizeof one) < 0)
		die("dropper: IP_HDRINCL");
	for (uint64_t s = 0; s < n; s++) {
		struct wire_hdr h = { .type = WIRE_DATA, .flow = 0, .run_id = run, .seq = s, .send_ns = 0 };
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		h.send_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		memset(buf, 0xab, size);
		wire_put_hdr(buf, &h);
		if (s % m) {
			while (send(u, buf, size, 0) < 0)
				if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
					die("dropper: send");
			pace((unsigned)s);
			continue;
		}
		/* the same datagram by hand: IP header, UDP header, payload, a wrong checksum */
		uint8_t *udp = pkt + ip;
		size_t ulen = 8 + size;
		uint32_t ph;
		memset(pkt, 0, ip + 8);
		if (v6) {
			pkt[0] = 0x60;
			pkt[4] = (uint8_t)(ulen >> 8);
			pkt[5] = (uint8_t)ulen;
			pkt[6] = IPPROTO_UDP;
			pkt[7] = 64;
			memcpy(pkt + 8, &in6addr_loopback, 16);
			memcpy(pkt + 24, &in6addr_loopback, 16);
			ph = sum16(pkt + 8, 32, 0);
		} else {
			uint32_t lo = htonl(INADDR_LOOPBACK);
			pkt[0] = 0x45;
			pkt[2] = (uint8_t)((ip + ulen) >> 8);
			pkt[3] = (uint8_t)(ip + ulen);
			pkt[8] = 64;
			pkt[9] = IPPROTO_UDP;
			memcpy(pkt + 12, &lo, 4);
			memcpy(pkt + 16, &lo, 4);
			ph = sum16(pkt + 12, 8, 0);
		}
		ph += IPPROTO_UDP + (uint32_t)ulen;
		udp[0] = (uint8_t)(sport >> 8);
		udp[1] = (uint8_t)sport;
		udp[2] = (uint8_t)(port >> 8);
		udp[3] = (uint8_t)port;
		udp[4] = (uint8_t)(ulen >> 8);
		udp[5] = (uint8_t)ulen;
		memcpy(udp + 8, buf, size);
		uint16_t good = fold(sum16(udp, ulen, ph)), wrong;
		if (!good)
			good = 0xffff; /* 0 on the wire is "no checksum" */
		wrong = (uint16_t)(good ^ 0x5a5a);
		if (wrong == 0 || wrong == good)
			wrong = (uint16_t)(good + 1) ? (uint16_t)(good + 1) : 1;
		udp[6] = (uint8_t)(wrong >> 8);
		udp[7] = (uint8_t)wrong;
		while (sendto(r, pkt, ip + ulen, 0, (struct sockaddr *)&rto, tolen) < 0)
			if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
				die("dropper: sendto raw");
		bad++;
		pace((unsigned)s);
	}
	for (int i = 0; i < 3; i++) {
		uint8_t fin[WIRE_FIN_LEN];
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		struct wire_hdr h = { .flow = 0, .run_id = run,
				      .send_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec };
		struct wire_fin f = { .sent = n, .bytes = n * size, .duration_ns = 1000, .flows = 1,
				      .size = (uint32_t)size };
		if (send(u, fin, wire_put_fin(fin, &h, &f, NULL), 0) < 0 && errno != ECONNREFUSED)
			die("dropper: send fin");
	}
	printf("bad %llu\n", (unsigned long long)bad);
	return 0;
}

/* --- tc and xdp ---------------------------------------------------------------------------- */

enum { L_PASS, L_V4, L_V6 };

/* The datagram's UDP header at packet offset u (bounds checked to u + 32 by the caller): to
 * port, blast's data, sequence number s % n == 0: drop. */
static void match(struct bpf_asm *a, int u, unsigned port, unsigned n, int drop)
{
	uint32_t magic;

	memcpy(&magic, "BLST", 4);
	bpf_emit(a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, (int16_t)(u + 2)));
	bpf_jump(a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, htons((uint16_t)port)), L_PASS);
	bpf_emit(a, BI_LDX(BPF_W, BPF_REG_5, BPF_REG_2, (int16_t)(u + 8)));
	bpf_jump(a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, (int32_t)magic), L_PASS);
	bpf_emit(a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, (int16_t)(u + 8 + 5)));
	bpf_jump(a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, WIRE_DATA), L_PASS);
	/* the sequence number's low word, in network order at header offset 20 */
	bpf_emit(a, BI_LDX(BPF_W, BPF_REG_5, BPF_REG_2, (int16_t)(u + 8 + 20)));
	bpf_emit(a, BI(BPF_ALU | BPF_END | BPF_TO_BE, BPF_REG_5, 0, 0, 32));
	bpf_emit(a, BI_MOD32_IMM(BPF_REG_5, (int32_t)n));
	bpf_jump(a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, 0), L_PASS);
	bpf_emit(a, BI_MOV64_IMM(BPF_REG_0, drop));
	bpf_emit(a, BI_EXIT());
}

static int prog(int tc, unsigned port, unsigned n)
{
	static char log[1 << 16];
	struct bpf_asm a;
	int16_t data = tc ? (int16_t)offsetof(struct __sk_buff, data) : (int16_t)offsetof(struct xdp_md, data);
	int16_t end = tc ? (int16_t)offsetof(struct __sk_buff, data_end) : (int16_t)offsetof(struct xdp_md, data_end);
	int drop = tc ? TC_ACT_SHOT : XDP_DROP, pass = tc ? TC_ACT_OK : XDP_PASS, fd;

	bpf_asm_init(&a);
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_2, BPF_REG_1, data));
	bpf_emit(&a, BI_LDX(BPF_W, BPF_REG_3, BPF_REG_1, end));
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, 14));
	bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_H, BPF_REG_5, BPF_REG_2, 12));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_5, htons(ETH_P_IP)), L_V4);
	bpf_jump(&a, BI_JMP32_IMM(BPF_JEQ, BPF_REG_5, htons(ETH_P_IPV6)), L_V6);
	bpf_jump(&a, BI_JA(), L_PASS);
	bpf_label(&a, L_V4);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, 14 + 20 + 8 + 32));
	bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, 14));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, 0x45), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, 14 + 9));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, IPPROTO_UDP), L_PASS);
	match(&a, 14 + 20, port, n, drop);
	bpf_label(&a, L_V6);
	bpf_emit(&a, BI_MOV64_REG(BPF_REG_4, BPF_REG_2));
	bpf_emit(&a, BI_ADD64_IMM(BPF_REG_4, 14 + 40 + 8 + 32));
	bpf_jump(&a, BI_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3), L_PASS);
	bpf_emit(&a, BI_LDX(BPF_B, BPF_REG_5, BPF_REG_2, 14 + 6));
	bpf_jump(&a, BI_JMP32_IMM(BPF_JNE, BPF_REG_5, IPPROTO_UDP), L_PASS);
	match(&a, 14 + 40, port, n, drop);
	bpf_label(&a, L_PASS);
	bpf_emit(&a, BI_MOV64_IMM(BPF_REG_0, pass));
	bpf_emit(&a, BI_EXIT());
	if (bpf_asm_end(&a) < 0) {
		fprintf(stderr, "dropper: the program does not assemble\n");
		exit(1);
	}
	fd = bpf_prog_new(tc ? BPF_PROG_TYPE_SCHED_CLS : BPF_PROG_TYPE_XDP, a.insn, a.n, "bs_dropper", log, sizeof log);
	if (fd < 0) {
		fprintf(stderr, "dropper: BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
		exit(1);
	}
	return fd;
}

/* Whether the BPF program of that id is loaded: exit 0 yes, 1 no. */
static int prog_loaded(uint32_t id)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.prog_id = id;
	fd = (int)syscall(__NR_bpf, BPF_PROG_GET_FD_BY_ID, &a, sizeof a);
	if (fd < 0 && errno != ENOENT)
		die("dropper: BPF_PROG_GET_FD_BY_ID");
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "prog"))
		return prog_loaded((uint32_t)strtoul(argv[2], NULL, 0));
	if (argc == 7 && !strcmp(argv[1], "csum")) {
		uint64_t m = strtoull(argv[6], NULL, 0);
		size_t size = strtoul(argv[4], NULL, 0);
		if (size < WIRE_FIN_LEN || size > 3000 || !m) {
			fprintf(stderr, "dropper: SIZE %d..3000, M at least 1\n", WIRE_FIN_LEN);
			return 2;
		}
		return csum(getenv("DROPPER_V6") && *getenv("DROPPER_V6"), (unsigned)strtoul(argv[2], NULL, 0),
			    (uint32_t)strtoul(argv[3], NULL, 0), size, strtoull(argv[5], NULL, 0), m);
	}
	if (((argc == 5 || (argc == 6 && !strcmp(argv[5], "egress"))) && !strcmp(argv[1], "tc")) ||
	    (argc == 6 && !strcmp(argv[1], "xdp"))) {
		unsigned ifindex = if_nametoindex(argv[2]), n = (unsigned)strtoul(argv[4], NULL, 0);
		int tc = argv[1][0] == 't', fd;
		if (!ifindex || !n) {
			fprintf(stderr, "dropper: no device %s, or N 0\n", argv[2]);
			return 2;
		}
		fd = prog(tc, (unsigned)strtoul(argv[3], NULL, 0), n);
		if (tc) {
			if (bpf_tc_attach(ifindex, fd, argc == 6, "bs_dropper") < 0)
				die("dropper: RTM_NEWTFILTER");
			return 0;
		}
		if (bpf_xdp_netlink(ifindex, fd, strcmp(argv[5], "drv") ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE) < 0)
			die("dropper: IFLA_XDP");
		return 0;
	}
	fprintf(stderr, "usage: dropper csum PORT RUN_ID SIZE N M\n"
			"       dropper tc DEV PORT N [egress]\n"
			"       dropper xdp DEV PORT N skb|drv\n"
			"       dropper prog ID\n");
	return 2;
}
