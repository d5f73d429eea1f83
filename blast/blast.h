/* blast: shared declarations of the sender's parts: main.c (threads, report), options.c and
 * options.h (the options), send.c (one flow's send loop and its fin), gso.c (when and how to
 * use UDP GSO), rate.c (pacing, -r), pattern.c (--pattern: the schedule's shape), progress.c
 * (-i lines); the send modes' table is mode.h's. No part calls back into main.c. */
#ifndef BLAST_H
#define BLAST_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "gaps.h"
#include "hist.h"
#include "key.h"
#include "mark.h"
#include "net.h"
#include "sys.h"
#include "wire.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103        /* <netinet/udp.h> before glibc 2.28 lacks it */
#endif

#define BLAST_MAX_FLOWS 64     /* -j: a thread each; the wire allows WIRE_MAX_FLOWS (256) */
#define BLAST_MAX_BATCH 1024
#define BLAST_MIN_SNDBUF 4096      /* --sndbuf: bytes */
#define BLAST_MAX_SNDBUF (1 << 30)
#define BLAST_MAX_SEGS  128    /* -g: UDP_MAX_SEGMENTS since Linux 6.9; older kernels take 64 */
#define BLAST_OLD_SEGS  64     /* UDP_MAX_SEGMENTS before, and what blast assumes unprobed */
#define BLAST_CALL_BYTES 65536 /* the default shape: a send call carries at least this much */
#define BLAST_MAX_MSGS  16     /* ... in at most this many GSO messages per sendmmsg */
#define BLAST_PLAIN_BATCH 32   /* -b's default without GSO */
#define BLAST_ERRNOS    160    /* errors are counted per errno below this */
#define BLAST_MIN_TIME_S 0.001 /* the shortest -t but 0 */
#define BLAST_MAX_OUTSTANDING 4096 /* --outstanding */
#define BLAST_MIX_CYCLE 65536  /* -s as a mix: sizes in its cycle (the weights' sum, MAX-MIN+1) */
#define BLAST_MIX_KINDS 16     /* ... sizes in a weighted list */
#define ZC_SLOTS        16     /* --zerocopy: send calls' buffers in the ring (zc.c) */
#define BLAST_MAX_BURST 65536  /* --pattern burst:N */
#define BLAST_MAX_FPS   1000000 /* --pattern frames:FPS:MEAN:SD */
#define BLAST_MAX_FRAME (1ull << 30) /* ... MEAN and SD, bytes */
_Static_assert(BLAST_MAX_FLOWS <= WIRE_MAX_FLOWS, "a flow id blast sends must be one suck tracks");

enum blast_payload { BLAST_PAYLOAD_RANDOM, BLAST_PAYLOAD_ZERO, BLAST_PAYLOAD_PATTERN };
enum blast_stop { BLAST_STOP_TIME, BLAST_STOP_COUNT, BLAST_STOP_SIGNAL, BLAST_STOP_ERROR };
enum blast_via { BLAST_VIA_SOCKET, BLAST_VIA_PACKET, BLAST_VIA_XDP }; /* --via; 0 is the UDP socket */

/* -s as a size mix (mix.c): one cycle of n sizes, shuffled once, read by every flow. */
struct blast_mix {
	unsigned n;            /* the cycle's length; 0: one size, -s N */
	unsigned min, max;
	int uniform;           /* MIN-MAX: every size in the range once per cycle */
	unsigned kinds;        /* a weighted list (or imix): its sizes and their weights */
	unsigned size[BLAST_MIX_KINDS], weight[BLAST_MIX_KINDS];
	uint16_t *cycle;       /* every size fits: at most 65527 */
	char spec[81];         /* as given, for the report */
};

/* The report's sections of settings (options.h's BS_*): --check prints them in this order,
 * the report where its keys go. */
enum blast_sec { BS_HEAD = 1, BS_SIZE, BS_SHAPE, BS_RUN, BS_MARKS, BS_RTT, BS_ZC, BS_VIA, BS_END };

/* --pattern (pattern.c): the shape of a paced run's schedule; -r stays its mean rate. */
enum blast_pattern_kind { PATTERN_EVEN, PATTERN_POISSON, PATTERN_BURST, PATTERN_FRAMES };
struct blast_pattern {
	int kind;              /* PATTERN_EVEN: the arithmetic schedule of rate.c, as before patterns */
	unsigned burst;        /* burst:N */
	uint64_t fps, mean, sd; /* frames:FPS:MEAN:SD, MEAN and SD in bytes */
	double frame_dgrams;   /* frames: the mean datagrams of a frame of -s (pattern_frame_dgrams) */
	char spec[64];         /* as given, for the report */
};

struct blast_cfg {
	/* every option's value, each declared by its row in options.h */
#define OPT(type, field, ...) type field;
#define OPT_AT(member, ...)
#define OPT_ARG(...)
#include "options.h"
#undef OPT
#undef OPT_AT
#undef OPT_ARG
	struct net_addr to;    /* -a and -p resolved */
	int gso_auto;          /* segs chosen by blast, not -g: a route that refuses GSO falls
				  back to sendmmsg of BLAST_PLAIN_BATCH instead of failing */
	unsigned max_segs;     /* the most segments a GSO message may have here (probed) */
	struct key key;        /* BS_RUN_KEY or --key-file: tags every fin; never on the command line */
	struct mark_set mark;  /* --tos/--dscp, --ttl, --priority: -1 = the kernel's default */
	int group;             /* -a is a multicast group: TTL 1 unless --ttl, --mc-if, --mc-loop */
	unsigned mc_ifindex;   /* --mc-if's */
	struct blast_mix mix;  /* -s as a mix; last, so the one-size loop's fields stay where they were */
	uint8_t dst_mac[6];    /* --dst-mac: the frames' destination, instead of the neighbour table's */
	int dst_mac_set;
	struct blast_pattern pattern; /* --pattern (its row's setter); even unless given */
};

/* A flow's schedule under --pattern other than even: events (a datagram, a burst, a frame),
 * each due at a time and sent back to back, drawn one after the other as the last is sent. */
struct sched {
	int kind;               /* enum blast_pattern_kind; PATTERN_EVEN: none of the rest is used */
	uint64_t due;           /* the next event with datagrams to send: when it is due */
	unsigned left, size;    /* its datagrams not yet sent, of size */
	uint64_t t0;            /* burst, frames: the flow's first event, event k at t0 + k x period */
	uint64_t k;
	double period;          /* burst, frames: ns between the flow's events; poisson: the mean gap */
	uint64_t x;             /* the flow's xorshift64* state, from a fixed seed */
	const struct blast_pattern *p;
	unsigned dsize;         /* frames: the datagram size frames are cut into (-s) */
	struct gaps_sum drawn;  /* the schedule's gaps as drawn: between events, zeros within one */
};

/* options.c: the command line into cfg, every rule between options checked (a bad one ends
 * blast with exit 2); and the settings of section sec as report keys (check: --check's row,
 * f the flow whose shape is reported). */
void blast_options(struct blast_cfg *cfg, int argc, char **argv);
struct report;
struct flow;
void blast_settings(struct report *r, const struct blast_cfg *cfg, enum blast_sec sec, int check,
		    const struct flow *f);

struct rate {
	double pps;             /* over all flows; not per ns, so due times that are whole come
				   out exact (-r 1: 2 s, not 1.999999999) */
	uint64_t t0, deadline;  /* the run's start and end (0 = none), shared by its flows */
	uint64_t next;          /* this flow's next datagram, counted in its own */
	uint64_t catchup;       /* overdue datagrams that may go at once */
	unsigned flows, phase;  /* this flow takes datagrams phase, phase + flows, ... of the run */
	struct sched sched;     /* --pattern other than even */
};

struct flow;
struct rtt_flow;

/* gso.c: the GSO policy. gso_plan picks the shape of the calls at parsing; gso_socket sets this
 * flow's shape and UDP_SEGMENT (-1: -g asked for GSO this kernel lacks, exit 4); gso_refused
 * says whether a failed call means the route refuses GSO, gso_fallback then goes on without
 * it; gso_off turns it off before the fins (-1 with errno). */
void gso_plan(struct blast_cfg *cfg, int batch_set, unsigned max);
/* The most segments this kernel takes in one GSO message: BLAST_MAX_SEGS or BLAST_OLD_SEGS,
 * found once by sending one message of BLAST_MAX_SEGS tiny segments to a socket of its own on
 * 127.0.0.1 (nothing leaves the host); BLAST_OLD_SEGS when that cannot be tried. */
unsigned gso_max_segs(void);
int gso_socket(struct flow *f);
int gso_refused(const struct flow *f, int e);
void gso_fallback(struct flow *f, int e);
int gso_off(struct flow *f);

/* mix.c: -s as a size mix. mix_is_spec: the text is one (else -s N); mix_parse: builds its
 * cycle from sizes within lo..hi (-1 and a message naming what is wrong); mix_fin_size: the
 * fin's size word (wire.h); mix_mean: the mean size of the cycle. */
int mix_is_spec(const char *s);
int mix_parse(const char *spec, unsigned lo, unsigned hi, struct blast_mix *m, char *err, size_t errlen);
uint32_t mix_fin_size(const struct blast_cfg *cfg);
double mix_mean(const struct blast_mix *m);

/* pattern.c: --pattern. pattern_parse: the spec (-1 and a message naming what is wrong);
 * pattern_plan: its rules (below);
 * pattern_frame_dgrams: frames' mean datagrams a frame of size bytes (the mean of 65536 frames
 * drawn with a fixed seed); pattern_init: a flow's schedule (phase of flows, at pps over all of
 * them from t0; datagrams of size bytes), its first event drawn; pattern_next: the next event
 * drawn, once the last is sent. The draws: xorshift64*, -ln(u) and a normal deviate without
 * libm. */
int pattern_parse(const char *spec, struct blast_pattern *p, char *err, size_t errlen);
/* At parsing, after -s and -g, before gso_plan: NULL, or why the pattern does not go with the
 * other options (the rest of a message that begins "--pattern SPEC"). Sets frames' rate, and
 * without -b a call that holds a burst or a frame (then *batch_set, which gso_plan keeps). */
const char *pattern_plan(struct blast_cfg *cfg, int *batch_set);
double pattern_frame_dgrams(const struct blast_pattern *p, unsigned size);
void pattern_init(struct sched *s, const struct blast_pattern *p, double pps, unsigned flows, unsigned phase,
		  unsigned size, uint64_t t0);
void pattern_next(struct sched *s);
uint64_t pattern_rand(uint64_t *x);
double pattern_ln(double x);             /* x > 0 */
double pattern_exp(uint64_t *x);         /* exponential, mean 1 */
double pattern_normal(uint64_t *x);      /* normal, mean 0, deviation 1 */

/* progress.c: -i lines on stderr. progress_start returns when the first is due (0: never). */
uint64_t progress_start(struct flow *fs, unsigned flows, double interval_s, int fmt, uint64_t t0);
uint64_t progress_line(uint64_t now);  /* prints one; returns when the next is due */
void progress_flow_done(void);
void progress_watch(void);             /* returns once every flow is done */

/* A paced run's process setting, once before the flows start: the timer slack of 1 ns. */
void rate_prepare(void);
/* Flow phase of flows paced at pps over all of them, from t0 until deadline (0 = none). */
void rate_init(struct rate *r, double pps, unsigned flows, unsigned phase, uint64_t t0, uint64_t deadline);
/* Up to want datagrams that may go now. When none is due it sleeps, until one is, the
 * deadline or at most 20 ms, updates *now and returns 0: the caller checks its stop
 * conditions (a signal, the deadline) and asks again. With a pattern, the datagrams of the
 * events due by now (pattern_init set r->sched after rate_init). */
unsigned rate_take(struct rate *r, unsigned want, uint64_t *now);
/* When this flow's next datagram is due. */
uint64_t rate_due_ns(const struct rate *r);
/* rate_take of one, even pacing, without its sleep, for a sender that waits on something else
 * as well (--rtt's replies): 1 when a datagram is due by now (taken), else 0. */
unsigned rate_poll(struct rate *r, uint64_t now);


struct flow {
	pthread_t tid;
	unsigned id;
	int fd;
	const struct blast_cfg *cfg;
	uint64_t deadline_ns;   /* the run's end by -t, the same for every flow; 0 = none */
	struct rate rate;       /* with -r */
	unsigned batch, segs;   /* this flow's send calls: cfg's, or plain after a GSO fallback */
	uint64_t quota;         /* datagrams this flow may send: -n shared out, or WIRE_SEQ_LIMIT */
	uint8_t *bufs;          /* batch * segs datagrams, back to back (at least 32 with
				   automatic GSO: room for the fallback) */
	struct mmsghdr *msgs;
	struct iovec *iov;

	uint64_t sent, bytes, calls, errors, fins;
	uint64_t err_by[BLAST_ERRNOS];
	uint64_t start_ns, end_ns;
	struct hist gaps;        /* gaps between send calls */
	enum blast_stop stop;
	struct sys_error error; /* the call that ended the flow, if one did */
	int refused_warned;
	_Atomic uint64_t progress_sent;
	_Atomic uint64_t progress_rtt_ns, progress_rtt_n; /* --rtt: round trips' sum and count so far */
	uint64_t progress_ns;   /* one flow on the main thread: its next progress line, 0 = none */
	struct rtt_flow *rtt;   /* --rtt: the requests in flight and the round trips (rtt.c) */
	unsigned mix_pos;       /* a size mix: the cycle's next size (last: see blast_cfg's mix) */
	/* --zerocopy (zc.c): bufs is a ring of ZC_SLOTS slots of zc_slot_bytes each */
	struct zc *zc;
	size_t zc_slot_bytes;
	uint64_t zc_sends;       /* messages sent with MSG_ZEROCOPY */
	uint64_t zc_completions; /* of those, reported complete on the error queue */
	uint64_t zc_copied;      /* of those, with SO_EE_CODE_ZEROCOPY_COPIED */
	uint64_t zc_enobufs;     /* send calls refused with ENOBUFS (then sent again) */
	uint64_t zc_waits;       /* calls that waited for their slot's completions */
	uint64_t zc_foreign;     /* error-queue entries that were not blast's completions */
	struct pkt *pkt;         /* --via packet: the flow's ring and its counts (packet.c) */
	struct xtx *xtx;         /* --via xdp: the flow's AF_XDP socket and its counts (xdp.c) */
};

/* The flows of a run added up, apart from printing them. */
struct flow_total {
	uint64_t sent, bytes, calls, errors, fins, start_ns, end_ns;
	uint64_t zc_sends, zc_completions, zc_copied, zc_enobufs, zc_waits, zc_foreign;
	enum blast_stop stop;   /* the most severe of the flows' */
	struct hist gaps;
	char detail[256];       /* errors per errno name */
};
void flow_sum(const struct flow *fs, unsigned n, struct flow_total *t);

/* A datagram's payload as --payload asks (random, zero, or byte i of a datagram i mod 251). */
void fill_payload(const struct blast_cfg *cfg, uint8_t *p, size_t len);

/* A flow's buffers, shaped for its send calls (every mode's setup; with --zerocopy a ring of
 * ZC_SLOTS calls' buffers): 0, -1 with errno; flow_free frees them. The send loops themselves
 * are the modes' (mode.h). */
int flow_setup(struct flow *f);
void flow_free(struct flow *f);
void flow_fins(struct flow *f, uint64_t duration_ns); /* the fins, repeated until suck is gone */

/* zc.c: --zerocopy. zc_socket sets SO_ZEROCOPY (-1: this kernel has none, f->error says
 * it); zc_setup/zc_free the ring's state; zc_take returns the slot the next call lays out in,
 * waiting for its completions, and the call's flags (NULL: the flow stops, f->stop says why);
 * zc_result takes the call's outcome (n, its errno, the messages sent); zc_drain waits for the
 * last completions, at most 2 s; zc_say warns, at the end, when no message was sent zero-copy. */
int zc_socket(struct flow *f);
int zc_setup(struct flow *f);
void zc_free(struct flow *f);
uint8_t *zc_take(struct flow *f, int *flags);
void zc_result(struct flow *f, long n, int e, unsigned msgs, int flags);
void zc_drain(struct flow *f);
void zc_say(const struct flow_total *t, const struct blast_cfg *cfg);

/* rtt.c: --rtt, the mode_rtt row (mode.h): its flows keep requests in flight and time their
 * replies; rtt_sum adds the flows' round trips up. */
struct rtt_total {
	uint64_t transactions, lost, late, foreign;
	uint64_t short_;        /* of lost: ended by a reply shorter than asked */
	struct hist rtt;        /* round trips, ns */
	uint64_t stamped;       /* replies with suck's time */
	uint64_t best_rtt;      /* the fastest of those, ns */
	int64_t offset;         /* suck's clock - blast's, ns, within best_rtt / 2 */
	/* from the echo block (wire.h): set when a reply of the run carried one */
	uint64_t blocks;        /* replies with a block believed */
	uint64_t forged;        /* replies whose block cannot be true: not used */
	uint64_t lost_up, lost_down; /* of lost: never taken by the echo; taken, no reply in time */
	uint64_t lost_tail;     /* of lost_up: after the last request whose block came back */
	struct hist up, down, echo; /* one-way delays with the offset applied, the echo's time, ns */
	uint64_t offset_err;    /* the most the offset applied to up and down can be off, ns */
};
void rtt_sum(const struct flow *fs, unsigned n, struct rtt_total *t);

/* packet.c: --via packet, the mode_packet row (mode.h), and the path --via xdp takes too.
 * packet_prepare finds the path once (the device, the MACs, the source address; a run may ask
 * for the neighbour's entry, run 0 sends nothing) and, for packet, tries one ring: 0, or the
 * exit code after saying why (1; 2: -s above the device's MTU, xdp: a frame above
 * XT_FRAME_MAX; 4: no CAP_NET_RAW, xdp: no AF_XDP, loopback, a device with no Ethernet
 * header). packet_mac
 * parses --dst-mac (-1: not six hex bytes with ':'). packet_dev and packet_dst_mac say the path
 * found (the reports' dev and dst_mac; NULL before packet_prepare, or no neighbour entry yet);
 * packet_report adds a run's keys tx_frames, tx_outstanding, ring_full, ring_refused.
 * The frame builder, for the flows and the unit tests: pkt_headers writes the Ethernet, IP and
 * UDP headers of a UDP payload of len bytes (the UDP checksum 0) and returns their length;
 * pkt_udp_base is the folded sum of the pseudo-header and the UDP datagram at udp (its checksum
 * 0); pkt_stamp writes seq and send time into blast's header after udp and the checksum for
 * them from base, the sum with both 0; pkt_udp_csum writes the checksum of what udp holds. */
struct pkt_path {
	int family;                 /* the frames': AF_INET (also for a v4-mapped -a) or AF_INET6 */
	char dev[16];
	unsigned ifindex, mtu;
	int up;
	uint8_t src_mac[6], dst_mac[6];
	int dst_known;              /* dst_mac is known (--check may find no entry yet) */
	uint8_t src[16], dst[16];   /* 4 or 16 bytes */
	uint16_t dport;
	uint8_t tos, ttl;
	unsigned hdr_len;           /* Ethernet + IP + UDP: 42 or 62 */
	struct sockaddr_storage src_ss, dst_ss;
	socklen_t src_len, dst_len;
	int test_badsum;            /* BS_VIA_TEST=badsum: every data frame's UDP checksum off by one */
};
struct report;
/* packet_path: the path found, for --via xdp's flows (NULL before packet_prepare); packet_port:
 * a UDP socket bound to the path's source address and connected to -a, which holds the frames'
 * source port (*sport, host order) and takes the ICMP errors for it (-1 with errno);
 * packet_refused: such a socket was told the port is closed (ECONNREFUSED: the fins end). */
const struct pkt_path *packet_path(void);
int packet_port(const struct blast_cfg *cfg, uint16_t *sport);
int packet_refused(int port_fd);
/* A frame ring's run (--via packet, --via xdp): the loop both share, packet.c's ring_run,
 * calling the mode's own code once a batch: fill (up to want data frames stamped at send_ns,
 * the number written), flush (hand them to the kernel), queued (data frames written so far:
 * what -n counts), sent (those the report counts sent), settle (after the loop: wait for the
 * kernel's frames; 1 when it waited), fins_ok (the fins may go) and fins. */
struct ring_ops {
	unsigned (*fill)(struct flow *f, unsigned want, uint64_t send_ns, uint64_t deadline);
	void (*flush)(struct flow *f);
	uint64_t (*queued)(const struct flow *f);
	uint64_t (*sent)(const struct flow *f);
	int (*settle)(struct flow *f);
	int (*fins_ok)(const struct flow *f);
	void (*fins)(struct flow *f, uint64_t duration_ns);
};
void ring_run(struct flow *f, const struct ring_ops *o);
int packet_prepare(const struct blast_cfg *cfg, int run);
int packet_mac(const char *s, uint8_t mac[6]);
const char *packet_dev(void);
const char *packet_dst_mac(char *buf, size_t len);
void packet_report(struct report *r, const struct blast_cfg *cfg, const struct flow *fs, unsigned n);
uint64_t pkt_sum(uint64_t sum, const uint8_t *p, size_t len);
uint16_t pkt_fold(uint64_t sum);
size_t pkt_headers(const struct pkt_path *p, uint8_t *f, uint16_t sport, size_t len);
uint32_t pkt_udp_base(const struct pkt_path *p, const uint8_t *udp);
void pkt_stamp(uint8_t *udp, uint32_t base, uint64_t seq, uint64_t send_ns);
void pkt_udp_csum(const struct pkt_path *p, uint8_t *udp);

/* xdp.c: --via xdp, the mode_xdp row (mode.h), on the path packet_prepare found. xdptx_probe
 * (after packet_prepare) opens and binds one throwaway AF_XDP socket as a flow would: 0, or
 * the exit code after saying why (2: more flows than the device has TX queues; 4: no AF_XDP
 * here); xdptx_mode says what it and the flows got ("copy" or "zerocopy"; NULL before);
 * xdptx_report adds a run's tx_frames (completed), tx_outstanding, ring_full (waits for a free
 * frame) and ring_refused (kicks that moved nothing) through packet_report_frames, which
 * packet_report uses too (tx_outstanding 0; on 0: every key '-'). */
#define XT_FRAME_MAX 4096      /* an AF_XDP frame: one UMEM chunk, at most a page */
int xdptx_probe(const struct blast_cfg *cfg);
const char *xdptx_mode(void);
void xdptx_report(struct report *r, const struct flow *fs, unsigned n);
void packet_report_frames(struct report *r, int on, uint64_t frames, uint64_t outstanding, uint64_t full,
			  uint64_t refused);

#endif
