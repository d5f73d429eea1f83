/* drops: suck --drops, where the kernel dropped this run's datagrams and why. A BPF program of
 * type BPF_PROG_TYPE_TRACEPOINT on skb:kfree_skb (a perf event per CPU) reads each freed skb's
 * IP and UDP headers and the first bytes of the payload with bpf_probe_read_kernel, at the
 * struct sk_buff offsets the kernel's BTF gives, and counts the datagrams to suck's port that
 * carry a blast header, in a hash map keyed by run id, drop reason and datagram type; a GSO or
 * GRO skb counts as its segments (skb_shinfo gso_segs), and the members of its frag_list, freed
 * after it, are not counted again. The reasons' names come from the
 * tracepoint's format file (its __print_symbolic list). Around each run the UDP MIB counters of
 * /proc/net/snmp and snmp6 are read too. Nothing of this is on the receive path: suck's own
 * code pays nothing per datagram, with or without --drops; the program runs in the kernel at
 * each drop, anyone's.
 *
 * The report's ledger: lost == queue_dropped + drops_attributed + unexplained. */
#ifndef DROPS_H
#define DROPS_H
#include <stddef.h>
#include <stdint.h>

#include "bpf.h"
#include "report.h"
#include "total.h"

#define DROPS_MAX_REASONS 512 /* names in the format file's list (6.18: 129) */

/* The tracepoint's format file: where the fields are in its record, and the reasons' names. */
struct drops_fmt {
	unsigned skb_off, skb_size;       /* skbaddr */
	unsigned rx_sk_off, rx_sk_size;   /* rx_sk, the receiving socket: 0 size before 6.11 */
	unsigned reason_off, reason_size; /* reason: 0 size when the tracepoint has none (< 5.17) */
	unsigned n;                       /* reasons named */
	struct drops_name {
		int64_t value;            /* -1: given as a symbol, resolved through BTF (sym) */
		char sym[64];
		char name[48];            /* as printed: SOCKET_RCVBUFF */
	} r[DROPS_MAX_REASONS];
};
/* Parses a format file's text: 0, or -1 with what is missing in *why. */
int drops_parse_format(const char *text, struct drops_fmt *f, const char **why);

/* The struct sk_buff and skb_shared_info offsets the program reads at. */
struct drops_layout {
	unsigned head, data, network_header, end, tail;
	unsigned end_size;                                  /* end and tail: offsets from head (4) or pointers (8) */
	unsigned gso_size, gso_segs, frag_list;               /* in skb_shared_info */
	unsigned next;                                        /* sk_buff.next: a frag_list's link */
	unsigned dev, skc_net, nd_net;    /* sk_buff.dev, sock_common.skc_net, net_device.nd_net */
	unsigned net_inum, ns_inum;       /* net.ns.inum (ns_inum: its offset in ns_common) */
};
/* From the kernel's BTF: 0, or -1 with the member missing in why (len bytes). */
int drops_layout(const struct btf *b, struct drops_layout *l, char *why, size_t len);

/* What the program matches: the UDP destination port and the IP versions of suck's socket, in
 * suck's network namespace (its inode number). */
struct drops_match {
	uint16_t port;
	int v4, v6;
	uint32_t netns;
};
/* The program into insn (room for BPF_ASM_MAX): the number of instructions, or -1 (a layout
 * whose fields lie too far apart for one read). map_fd: the counts; chain_fd: a per-CPU array
 * of one DROPS_CHAIN_SIZE value, the next frag_list member of a counted skb and its key. */
#define DROPS_CHAIN_SIZE 24
int drops_prog(const struct drops_fmt *f, const struct drops_layout *l, const struct drops_match *m,
	       int map_fd, int chain_fd, struct bpf_insn *insn);

/* The map's key and value: a run's datagrams of one type dropped for one reason. */
struct drops_key {
	uint32_t run;    /* as on the wire (network order) */
	uint32_t reason; /* enum skb_drop_reason */
	uint32_t type;   /* wire type: 0 data, 1 fin, 2 request */
};

/* The UDP MIB counters of the namespace (IPv4 and IPv6 added up). */
struct drops_mib {
	int ok;
	uint64_t rcvbuf_errors, in_csum_errors, no_ports, mem_errors;
};
void drops_mib_read(struct drops_mib *m);

/* One run's figures, from the map and the MIB. */
struct drops_run {
	uint64_t attributed;    /* data and requests of the run, every reason */
	uint64_t fins;          /* fins of the run, every reason (not part of lost) */
	uint64_t fixed[8];      /* the report's fixed reasons (drops.c: fixed_names), the last other */
	char detail[96];        /* NAME:count,... every reason with a count, most first */
	struct drops_mib mib;   /* the run's deltas */
	int prog_ok;            /* the program's own cost could be read (BPF_ENABLE_STATS) */
	uint64_t prog_runs, prog_ns; /* its runs (every skb the host freed as a drop) and their time */
};

struct drops;
/* Reads what the program needs, loads it and attaches it on every CPU, for the socket fd (its
 * family and port) and takes the MIB's first reading: 0, or the exit code with the message
 * said: 4 when the tracepoint, BPF, BTF or the privilege is missing, 1 for a failure (a
 * verifier's refusal, printed with its log). */
int drops_open(struct drops **dp, int fd);
/* Detaches and closes everything (NULL: nothing). */
void drops_close(struct drops *d);
/* After the run of run id run (host order; 0: none locked) was added up: its drops read from
 * the map, the MIB's deltas since the last call, and t->dropped set to its datagrams the
 * socket's full receive buffer dropped, exact for gro too (capped at lost - queue_dropped). */
void drops_settle(struct drops *d, struct total *t, uint32_t run);
/* The keys (drops, drops_attributed, unexplained, drop_*, udp_*); "-" for every figure when
 * d is NULL (no --drops, or a row no run's drops are counted for). */
void drops_report(struct report *r, const struct drops *d, const struct total *t);
/* The arithmetic drops_settle does on a run's counts: reasons[i] datagrams of reason values[i]
 * (n of them), named by f, into out (its mib left alone). For the unit tests. */
void drops_sum(const struct drops_fmt *f, const uint32_t *values, const uint64_t *counts, unsigned n,
	       uint64_t fins, struct drops_run *out);

#endif
