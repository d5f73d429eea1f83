/* suck's options: one row each, the one place an option is declared. Its order is -h's and the
 * docs'; within a report section (SS_*), the order of the keys in the report and in --check.
 * .cap names the variants that take the option (variant.h's flags, CAP_* in options.c), which
 * options.c checks and %V in a text lists. An X-macro table, included twice, so no include
 * guard: suck.h takes from OPT the field the value goes to (struct suck_cfg), options.c the
 * rows (common/optdef.h says each part).
 *   OPT(type, field, ...)  the table declares the field
 *   OPT_ARG(...)           no field: the argument is the rules' (options.c) or an action */
OPT(const char *, addr, .sname = 'a', .name = "addr", .arg = "ADDR", .type = OD_STR,
    .def = "127.0.0.1; with `--join`, the group", .init = "127.0.0.1", .key = "addr", .sec = SS_WHERE,
    .show = show_addr,
    .help = "address to bind: 127.0.0.1, ::1, 0.0.0.0, :: or a host name")
OPT(unsigned, port, .sname = 'p', .name = "port", .arg = "PORT", .type = OD_UINT, .lo = 0, .hi = 65535,
    OD_DEF("22222"), .key = "port", .sec = SS_WHERE, .flags = OD_CHECK_ONLY,
    .help = "port, %R; 0 = a free port, printed on stderr")
OPT(const struct variant *, variant, .sname = 'm', .name = "variant", .arg = "NAME", .type = OD_STR,
    .set = set_variant, OD_DEF("buffer"), .key = "variant", .sec = SS_NAME, .show = show_variant,
    .usage_more = variant_lines,
    .help = "receive strategy; list: names and what they do",
    .doc = "receive strategy, see [variants](#variants); `-m list` prints each name, a tab and what it does")
OPT(struct work, work, .sname = 'w', .name = "work", .arg = "WORK", .type = OD_STR, .lo = 1,
    .hi = WORK_MAX_REPS, .set = set_work, OD_DEF("histogram"), .key = "work", .sec = SS_NAME,
    .show = show_work,
    .help = "per-datagram work: none, histogram, checksum; NAME:N repeats it N times",
    .doc = "`none`, `histogram` or `checksum`; `NAME:N` repeats it N times (%R)")
OPT(unsigned, bufsize, .sname = 's', .name = "size", .arg = "BYTES", .type = OD_BYTES, .lo = 1,
    .hi = SUCK_MAX_BUFSIZE, OD_DEF(OD_NUM(SUCK_MAX_BUFSIZE)), .key = "bufsize", .sec = SS_SHAPE,
    .help = "receive buffer per datagram, %R; larger datagrams are counted as truncated",
    .doc = "receive buffer per datagram, %R; larger datagrams are counted as truncated; fins are read "
	   "whatever the size")
OPT(unsigned, batch, .sname = 'b', .name = "batch", .arg = "N", .type = OD_COUNT, .lo = 1,
    .hi = SUCK_MAX_BATCH, .cap = CAP_BATCH, .def = "%B", .key = "batch", .sec = SS_SHAPE,
    .help = "datagrams (gro: buffers) per receive call, %R (%V; xdp: frames per pass over the RX "
	    "ring)",
    .doc = "datagrams (gro: buffers) per `recvmmsg`, %R, %V only (epoll 1: one `recvmsg` per datagram); "
	   "xdp: frames taken from the RX ring per pass")
OPT(double, time_s, .sname = 't', .name = "time", .arg = "SECS", .type = OD_SECS, .lo = 0, .hi = 1e7,
    .range = "", OD_DEF("0"), .key = "time_limit_s", .sec = SS_TIME,
    .help = "stop after SECS; 0 = no limit")
OPT(double, idle_s, .name = "idle", .arg = "SECS", .type = OD_SECS, .lo = 0, .hi = 1e7, .range = "",
    OD_DEF("0"), .key = "idle_s", .sec = SS_TIME,
    .help = "stop SECS after the last datagram; 0 = never")
OPT(double, stale_s, .name = "stale", .arg = "SECS", .type = OD_SECS, .lo = 0.05, .hi = 3600,
    OD_DEF("1"), .key = "stale_s", .sec = SS_TIME,
    .help = "without a run key or --run-id names: a run without fins this quiet is stale when "
	    "another begins, %R",
    .doc = "without a run key or `--run-id` names: a run without fins (a stranger's datagram, a killed "
	   "blast) that has taken nothing this long is stale when another run's datagram arrives, %R; "
	   "its row says `stop` `stale` and the next run is counted whole")
OPT(int, serve, .name = "serve", .type = OD_FLAG, .def = "off", .key = "serve", .sec = SS_SERVE,
    .flags = OD_CHECK_ONLY,
    .help = "after a run ends on its fins, report it and wait for the next on the same sockets, a "
	    "report row per run (not xdp)",
    .doc = "after a run ends on its fins, print its report and serve the next on the same sockets, a "
	   "report per run (see [serving](#a-receiver-that-stays---serve)); not with `-m xdp`")
OPT(uint64_t, runs, .name = "runs", .arg = "N", .type = OD_COUNT, .lo = 1, .hi = SUCK_MAX_RUNS,
    .def = "no limit", .needs = "serve", .key = "runs", .sec = SS_SERVE, .flags = OD_CHECK_ONLY,
    .help = "--serve: stop after N runs, %R",
    .doc = "`--serve`: stop after N runs, %R")
OPT(double, run_timeout_s, .name = "run-timeout", .arg = "SECS", .type = OD_SECS, .lo = 0, .hi = 1e7,
    .range = "", OD_DEF("0"), .needs = "serve", .key = "run_timeout_s", .sec = SS_SERVE,
    .flags = OD_CHECK_ONLY,
    .help = "--serve: end a run SECS after it locked, unfinished, report it and serve the next; 0 = "
	    "never",
    .doc = "`--serve`: end a run SECS after it locked (`stop: run_timeout`), report it, serve the next; "
	   "0 = never")
OPT(unsigned, senders, .name = "senders", .arg = "N", .type = OD_UINT, .lo = 1, .hi = SUCK_MAX_SENDERS,
    .def = "one run", .key = "senders", .sec = SS_SENDERS,
    .help = "fan-in: count N runs (blasts) at once, each locked on its own first datagram, a report "
	    "row each and a total row, %R (not with --serve, --echo)",
    .doc = "fan-in: count up to N runs (blasts) at once, each on its own, a report row per run and a "
	   "total row, %R (N × `-j` at most 256; not with `--serve`, `--echo`; see [many "
	   "senders](#many-senders-at-once---senders-n))")
OPT(int, rcvbuf, .sname = 'R', .name = "rcvbuf", .arg = "BYTES", .type = OD_BYTES, .lo = SUCK_MIN_RCVBUF,
    .hi = SUCK_MAX_RCVBUF, .def = "the kernel's", .key = "rcvbuf", .sec = SS_RCVBUF, .show = show_rcvbuf,
    .help = "socket receive buffer, SO_RCVBUF, %R",
    .doc = "socket receive buffer (SO_RCVBUF), %R; as root past `net.core.rmem_max`; the key says what "
	   "the kernel granted")
OPT(unsigned, threads, .sname = 'j', .name = "threads", .arg = "N", .type = OD_UINT, .lo = 1,
    .hi = SUCK_MAX_THREADS, OD_DEF("1"), .key = "threads", .sec = SS_SHAPE,
    .help = "N sockets with SO_REUSEPORT, one thread each, %R",
    .doc = "N sockets with SO_REUSEPORT, one thread each, %R; flow f goes to socket f mod N, so give "
	   "blast several flows; the port is suck's alone")
OPT(int, one_socket, .name = "one-socket", .type = OD_FLAG, .cap = CAP_SHARE, .def = "off",
    .key = "one_socket", .sec = SS_SHAPE,
    .help = "-j: the N threads share one socket (no SO_REUSEPORT), each batch counted under one lock "
	    "(%V; not with --serve, --senders, --jitter, --gaps, --echo, --join)",
    .doc = "with `-j N` (2 or more): the N threads share one socket, no SO_REUSEPORT; each batch counted "
	   "under one lock; %V only, not with `--serve`, "
	   "`--senders`, `--jitter`, `--gaps`, `--echo`, `--join`")
OPT(unsigned, retain, .name = "retain", .arg = "N", .type = OD_COUNT, .lo = 0, .hi = SUCK_MAX_RETAIN,
    OD_DEF("0"), .cap = CAP_RETAIN, .key = "retain", .sec = SS_RETAIN,
    .help = "%V: keep the last N copies alive, %R",
    .doc = "%V only: keep the last N copies alive, %R, like a garbage collector that runs late")
OPT_ARG(.name = "run-id", .arg = "ID[,ID...]", .type = OD_STR, .lo = 1, .hi = UINT32_MAX,
	.set = set_run_ids, .def = "the run of the first data datagram that may start one", .key = "run_id",
	.sec = SS_WHERE, .show = show_run_id,
	.help = "accept only this run (blast --run-id), %R; --serve and --senders N: the runs expected, "
		"up to " OD_NUM(SUCK_MAX_RUN_IDS) " (--senders: N of them), no other may start",
	.doc = "accept only this run (blast's `--run-id`), %R; with `--serve` or `--senders N`, the runs "
	       "expected (up to " OD_NUM(SUCK_MAX_RUN_IDS) "; N with `--senders`), only those may start; key "
	       "`run_id` in hex (`first` in `--check` when suck would take the first run's)")
OPT_ARG(.name = "key-file", .arg = "FILE", .type = OD_STR,
	.def = "the environment's `BS_RUN_KEY`, else none", .key = "keyed", .sec = SS_KEYED,
	.show = show_keyed,
	.help = "the run key, 32 hex digits, from FILE ('-' = stdin): believe only fins it tags",
	.doc = "the run key (32 hex digits) from FILE (`-` = standard input); believe only the fins it tags; "
	       "key `keyed`, 1 when a key was read")
OPT(int, latency, .name = "latency", .type = OD_FLAG, .def = "off", .key = "latency", .sec = SS_LATENCY,
    .flags = OD_CHECK_ONLY,
    .help = "one-way delay of every datagram, from blast's send time to the work, split at the "
	    "kernel's receive stamp (a clock read each)",
    .doc = "one-way delay of every valid datagram, split into stack and queue (see [latency](#latency-how-"
	   "long-a-datagram-waits)); a clock read per datagram; keys `lat_*`, `stack_*`, `queue_*`")
OPT(const char *, join, .name = "join", .arg = "GROUP", .type = OD_STR, .def = "off", .key = "group",
    .sec = SS_GROUP,
    .help = "join a multicast group (224.0.0.0/4, ff00::/8) and receive its datagrams; other receivers "
	    "of the group share the port",
    .doc = "join a multicast group (224.0.0.0/4, ff00::/8), any-source, and receive its datagrams; the "
	   "group's other receivers share the port (see [multicast](#multicast)); not with `-j`")
OPT(const char *, source, .name = "source", .arg = "ADDR", .type = OD_STR, .def = "any source",
    .needs = "join", .key = "source", .sec = SS_GROUP,
    .help = "--join: from this source only (source-specific multicast)",
    .doc = "`--join`: from this source only (source-specific multicast)")
OPT(const char *, mc_if, .name = "mc-if", .arg = "IFNAME", .type = OD_STR, .set = set_mc_if,
    .def = "the route's", .needs = "join", .key = "mc_if", .sec = SS_GROUP,
    .help = "--join: the interface to join on",
    .doc = "`--join`: the interface to join on")
OPT(int, echo, .name = "echo", .type = OD_FLAG, .cap = CAP_ECHO, .def = "off", .key = "echo",
    .sec = SS_ECHO,
    .help = "send every valid datagram back to its source after the work, for blast --rtt (%V); a "
	    "reply is never larger than its request unless --echo-max allows it",
    .doc = "send every valid datagram back to its source after the work, as large as a request asks "
	   "but no larger than the request (blast `--rtt`; see [echo](#echo)); %V only; keys `echoed`, "
	   "`echo_errors`, `echo_clipped`, `echo_limited`")
OPT(unsigned, echo_max, .name = "echo-max", .arg = "BYTES", .type = OD_BYTES, .lo = 0, .hi = WIRE_MAX_REPLY,
    OD_DEF("0"), .needs = "echo", .key = "echo_max", .sec = SS_ECHO, .when = echo_on,
    .help = "--echo: a reply may be as large as a request asks, up to BYTES, %R; 0: no larger than "
	    "the request",
    .doc = "`--echo`: a reply may be as large as its request asks up to BYTES even when the request is "
	   "smaller, %R (0: never larger than its request)")
OPT(uint64_t, echo_budget, .name = "echo-budget", .arg = "BYTES", .type = OD_BYTES, .lo = 1,
    .hi = SUCK_MAX_ECHO_BUDGET, OD_DEF("64M"), .needs = "echo", .key = "echo_budget", .sec = SS_ECHO,
    .when = echo_on,
    .help = "--echo: bytes a second that replies to one source address may carry beyond their "
	    "requests; a reply over it is not sent, %R",
    .doc = "`--echo`: bytes a second that replies to one source address may carry beyond their requests "
	   "(a bucket of one second's); a reply over it is not sent (`echo_limited`), %R")
OPT(int, jitter, .name = "jitter", .type = OD_FLAG, .def = "off", .key = "jitter", .sec = SS_JITTER,
    .help = "RFC 3550 interarrival jitter of every flow, and the percentiles of the delay variation "
	    "|D|, from the kernel's receive stamps",
    .doc = "RFC 3550 interarrival jitter of every flow and the percentiles of the delay variation |D|, "
	   "from the kernel's receive stamps (see [jitter](#jitter-and-loss-runs))")
OPT(int, gaps, .name = "gaps", .type = OD_FLAG, .def = "off", .key = "gaps", .sec = SS_GAPS,
    .help = "the gaps between each flow's datagrams as they arrived, from the kernel's receive "
	    "stamps: mean, variation, percentiles",
    .doc = "the gaps between each flow's datagrams as they arrived, from the kernel's receive stamps: "
	   "mean, coefficient of variation, median and 99th percentile, the largest ([send "
	   "patterns](#send-patterns)); keys `arrival_gap_*`")
OPT(int, marks, .name = "marks", .type = OD_FLAG, .def = "off", .key = "marks", .sec = SS_MARKS,
    .help = "read the TOS (traffic class) and TTL (hop limit) of every valid datagram: the first's, "
	    "and how many differ from it",
    .doc = "read the TOS (traffic class) and TTL (hop limit) of every valid datagram from its control "
	   "messages; report the first's and how many differed (see [marking](#marking-what-the-path-did-"
	   "to-the-tos-and-ttl))")
OPT(int, spin, .name = "spin", .type = OD_FLAG, .cap = CAP_SPIN, .def = "off", .key = "spin",
    .sec = SS_TIME,
    .help = "never block: poll with MSG_DONTWAIT (%V)",
    .doc = "never block: receive with `MSG_DONTWAIT` in a loop, a polling receiver that burns a CPU "
	   "(%V; xdp: never poll, the RX ring looked at in a loop)")
OPT(const char *, rx_dev, .name = "rx-dev", .arg = "DEV", .type = OD_STR, .set = set_dev, .def = "off",
    .key = "rx_dev", .sec = SS_RXDEV, .flags = OD_CHECK_ONLY, .show = show_dash,
    .help = "count the receiving device's NAPI threads' CPU and the softirq time of the --cpu CPUs as "
	    "the kernel's receive work",
    .doc = "count the receiving device's threaded-NAPI threads' CPU (and the softirq time of the `--cpu` "
	   "CPUs) as the kernel's receive work: wire mode; keys `rx_*`")
OPT(int, drops, .name = "drops", .type = OD_FLAG, .def = "off", .key = "drops", .sec = SS_DROPS,
    .help = "count where the kernel dropped the run's datagrams, by reason (a BPF program on the "
	    "tracepoint skb:kfree_skb; root; not xdp, --senders)",
    .doc = "count where the kernel dropped the run's datagrams and why (a BPF program on the "
	   "tracepoint `skb:kfree_skb`; root; see [Where the kernel dropped them](#where-the-kernel-"
	   "dropped-them)); not with `-m xdp`, `--senders`; keys `drops_attributed`, `unexplained`, "
	   "`drop_*`, `udp_*`")
OPT(int, edge, .name = "edge", .type = OD_FLAG, .cap = CAP_EVENTS, .def = "level-triggered",
    .key = "edge", .sec = SS_POOL, .when = has_events,
    .help = "%V: edge-triggered (EPOLLET), each wakeup drained to EAGAIN",
    .doc = "%V only: edge-triggered (`EPOLLET`), every wakeup drained to `EAGAIN`")
OPT(unsigned, workers, .name = "workers", .arg = "N", .type = OD_UINT, .lo = 1, .hi = SUCK_MAX_WORKERS,
    OD_DEF("1"), .cap = CAP_POOL, .key = "workers", .sec = SS_POOL, .when = has_pool,
    .help = "%V: worker threads that run the work, %R",
    .doc = "%V only: worker threads that run the work, %R (per receiving thread)")
OPT(unsigned, queue, .name = "queue", .arg = "SLOTS", .type = OD_COUNT, .lo = 1, .hi = SUCK_MAX_QUEUE,
    OD_DEF("8"), .cap = CAP_POOL, .key = "queue", .sec = SS_POOL, .when = has_pool,
    .help = "%V: batches that may wait for a worker, %R",
    .doc = "%V only: batches that may wait for a worker, %R")
OPT(int, queue_drop, .name = "queue-full", .arg = "HOW", .type = OD_NAMES, .names = queue_full_names,
    OD_DEF("block"), .cap = CAP_POOL, .key = "queue_full", .sec = SS_POOL, .when = has_pool,
    .help = "%V, a full queue: block (the receiver waits, the kernel drops) or drop (suck drops the "
	    "batch: queue_dropped)",
    .doc = "%V only: `block` (the receiver waits, the kernel drops: `dropped`) or `drop` (suck throws "
	   "the batch away: `queue_dropped`)")
OPT(unsigned, busy_poll, .name = "busy-poll", .arg = "USECS", .type = OD_UINT, .lo = 1,
    .hi = SUCK_MAX_BUSY_POLL, .cap = CAP_BUSY, .def = "off", .key = "busy_poll_us", .sec = SS_POOL,
    .help = "SO_BUSY_POLL: a blocking receive (epoll: epoll_wait) polls the device's NAPI for up to "
	    "USECS, %R (%V)",
    .doc = "kernel busy polling, `SO_BUSY_POLL` (epoll: also its instance's, `EPIOCSPARAMS`): a "
	   "blocking receive polls the device for up to USECS, %R; %V; needs a device with NAPI "
	   "(`napi_id`), none on loopback")
OPT(int, prefer_busy_poll, .name = "prefer-busy-poll", .type = OD_FLAG, .def = "off",
    .needs = "busy-poll", .needs_msg = "--prefer-busy-poll and --busy-poll-budget need --busy-poll USECS",
    .key = "prefer_busy_poll", .sec = SS_POOL,
    .help = "SO_PREFER_BUSY_POLL, with --busy-poll",
    .doc = "with `--busy-poll`: `SO_PREFER_BUSY_POLL` (needs CAP_NET_ADMIN)")
OPT(unsigned, busy_budget, .name = "busy-poll-budget", .arg = "N", .type = OD_UINT, .lo = 1,
    .hi = SUCK_MAX_BUSY_BUDGET, .def = "the kernel's, 8", .needs = "busy-poll",
    .needs_msg = "--prefer-busy-poll and --busy-poll-budget need --busy-poll USECS",
    .key = "busy_poll_budget", .sec = SS_POOL,
    .help = "SO_BUSY_POLL_BUDGET, with --busy-poll, %R",
    .doc = "with `--busy-poll`: `SO_BUSY_POLL_BUDGET`, packets per poll, %R (needs CAP_NET_ADMIN)")
OPT(const char *, xdp_dev, .name = "xdp-dev", .arg = "DEV", .type = OD_STR, .set = set_dev,
    .cap = CAP_DEVICE, .def = "the one that holds `-a`'s address",
    .help = "%V: the device to attach to",
    .doc = "%V: the device to attach the XDP program to and take frames from; a wildcard `-a` needs it")
OPT(int, xdp_zc, .name = "xdp-zc", .type = OD_FLAG, .cap = CAP_DEVICE, .def = "copy mode",
    .help = "%V: AF_XDP in zero-copy mode, where the driver offers it",
    .doc = "%V: bind the AF_XDP socket in zero-copy mode (exit 4 where the driver has none; veth has "
	   "none)")
OPT(int, cpu, .name = "cpu", .arg = "N", .type = OD_CPU, .def = "not pinned", .key = "cpu", .sec = SS_RUN,
    .flags = OD_CHECK_ONLY,
    .help = "pin thread i to CPU N+i",
    .doc = "pin thread i to CPU N+i, N 0..CPUs-1; a pool's workers take their receiving thread's")
OPT(double, interval_s, .sname = 'i', .name = "interval", .arg = "SECS", .type = OD_SECS, .lo = 0.01,
    .hi = 1e6, .range = "", .def = "off", .key = "interval_s", .sec = SS_RUN, .flags = OD_CHECK_ONLY,
    .help = "progress line on stderr every SECS",
    .doc = "a progress line on stderr every SECS (10 ms and up); with `-o tsv` or `-o json` a row of that "
	   "format (`tool`, `t_s`, counts, `jitter_us`, `pps` of the interval; tsv: a header line first)")
OPT(int, check, .name = "check", .type = OD_FLAG,
    .help = "check the options, bind one socket and set up the variant as a run would, print the "
	    "settings as one report row (check 1), close it and exit; nothing is received",
    .doc = "check every option, bind one socket and set up the variant as a run would (same exit and "
	   "message), print the settings as one report row (`check` 1), close it and exit; nothing is "
	   "received")
#include "opttail.h"
