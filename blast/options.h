/* blast's options: one row each, the one place an option is declared. Its order is -h's and the
 * docs'; within a report section (BS_*), the order of the keys in the report and in --check.
 * An X-macro table, included twice, so no include guard: blast.h takes from OPT the field
 * the value goes to (struct blast_cfg), options.c the rows (common/optdef.h says each part).
 *   OPT(type, field, ...)  the table declares the field
 *   OPT_AT(member, ...)    the value goes to a member blast.h declares (the marks)
 *   OPT_ARG(...)           no field: the argument is the rules' (options.c) or an action */
OPT(const char *, host, .sname = 'a', .name = "addr", .arg = "ADDR", .type = OD_STR, OD_DEF("127.0.0.1"),
    .key = "addr", .sec = BS_HEAD, .show = show_addr,
    .help = "destination: IPv4, IPv6 or a host name; or a multicast group (224.0.0.0/4, ff00::/8: "
	    "TTL 1 unless --ttl)",
    .doc = "destination: IPv4, IPv6 or a host name; or a multicast group (224.0.0.0/4, ff00::/8: TTL 1 "
	   "unless `--ttl`; see `--mc-if`, `--mc-loop`)")
OPT(unsigned, port, .sname = 'p', .name = "port", .arg = "PORT", .type = OD_UINT, .lo = 1, .hi = 65535,
    OD_DEF("22222"), .key = "port", .sec = BS_HEAD, .flags = OD_CHECK_ONLY,
    .help = "destination port, %R")
OPT(unsigned, size, .sname = 's', .name = "size", .arg = "BYTES", .type = OD_BYTES, .lo = WIRE_HDR_LEN,
    .hi = 65527, .range = "32..65507 (IPv4) or ..65527 (IPv6)", .flags = OD_LATE, OD_DEF("1450"),
    .key = "size", .sec = BS_SIZE, .show = show_size,
    .help = "datagram size, %R; with --raw from 1; or a size mix, one datagram a message (no GSO): "
	    "SIZE:WEIGHT,... (64:7,576:4,1500:1), imix (32:7,524:4,1472:1: 64/570/1518-byte frames over "
	    "IPv4) or MIN-MAX (uniform)",
    .doc = "datagram size, 32..65507 (IPv4, and a v4-mapped IPv6 address such as `::ffff:127.0.0.1`, "
	   "which goes out as IPv4) or ..65527 (IPv6); 1.. with `--raw`; or a size mix: `SIZE:WEIGHT,...`, "
	   "`imix` or `MIN-MAX` ([size mixes](#size-mixes)); keys `size` (`mix` for a mix), `mix`, `mix_mean`")
OPT(unsigned, flows, .sname = 'j', .name = "flows", .arg = "N", .type = OD_UINT, .lo = 1, .hi = BLAST_MAX_FLOWS,
    OD_DEF("1"), .key = "flows", .sec = BS_SHAPE,
    .help = "N flows, one thread and one socket each, %R",
    .doc = "N flows, one thread and one socket (own source port, sequence, fin) each, %R")
OPT(unsigned, batch, .sname = 'b', .name = "batch", .arg = "N", .type = OD_COUNT, .lo = 1,
    .hi = BLAST_MAX_BATCH, .def = OD_NUM(BLAST_PLAIN_BATCH) "; with GSO, 1", .init = OD_NUM(BLAST_PLAIN_BATCH),
    .key = "batch", .sec = BS_SHAPE, .show = show_batch,
    .help = "messages per send call: 1 = one sendto each, like the 2014 blast.c; more = sendmmsg, %R",
    .doc = "messages per send call, %R: 1 = one `sendto` per datagram, like the 2014 blast.c; more = "
	   "`sendmmsg`; a GSO message is up to 64 KiB already")
OPT(unsigned, segs, .sname = 'g', .name = "gso", .arg = "SEGS", .type = OD_UINT, .lo = 1, .hi = BLAST_MAX_SEGS,
    .flags = OD_LATE, .def = "without `-b` and `-r`, as many as fit in 64 KiB", .key = "gso", .sec = BS_SHAPE,
    .show = show_gso,
    .help = "UDP GSO: SEGS datagrams per message, %R (64 where the kernel takes no more); 1 = off; "
	    "sendmmsg -b 32 where the kernel or the route refuses GSO",
    .doc = "UDP GSO: SEGS datagrams per message, each with its own header, %R (1..64 on kernels before "
	   "6.9: blast finds the limit and reports it as `gso_max_segs`); 1 = off; keys `gso`, `gso_auto` "
	   "(`--check`: 1 when blast chose GSO), `gso_max_segs`")
OPT(int, sndbuf, .name = "sndbuf", .arg = "BYTES", .type = OD_BYTES, .lo = BLAST_MIN_SNDBUF,
    .hi = BLAST_MAX_SNDBUF, .def = "the kernel's", .key = "sndbuf", .sec = BS_SHAPE, .show = show_sndbuf,
    .help = "the UDP socket's send buffer, SO_SNDBUF, %R",
    .doc = "the UDP socket's send buffer (SO_SNDBUF), %R; as root past `net.core.wmem_max`; what a "
	   "send waits on when the path holds its datagrams (a veth's ring keeps them charged to it); "
	   "the key says what the kernel granted (`--check`: what was asked)")
OPT(uint64_t, rate, .sname = 'r', .name = "rate", .arg = "PPS", .type = OD_COUNT, .lo = 0, .hi = 1e9,
    OD_DEF("0"), .key = "rate", .sec = BS_SHAPE,
    .help = "datagrams per second over all flows, %R; 0 = as fast as possible")
OPT_AT(pattern, .name = "pattern", .arg = "SPEC", .type = OD_STR, .set = set_pattern, OD_DEF("even"),
       .key = "pattern", .sec = BS_SHAPE, .show = show_pattern,
       .help = "the paced schedule's shape, -r its mean rate: even (as -r alone), poisson (exponential "
	       "gaps), burst:N (N back to back, 1.." OD_NUM(BLAST_MAX_BURST) "), frames:FPS:MEAN:SD (FPS "
	       "frames a second, each MEAN bytes with a normal deviation of SD, cut into datagrams of -s; "
	       "the rate follows, no -r)",
       .doc = "the paced schedule's shape, `-r` its mean rate: `even`, `poisson`, `burst:N` (1.."
	      OD_NUM(BLAST_MAX_BURST) ") or `frames:FPS:MEAN:SD` (FPS 1.." OD_NUM(BLAST_MAX_FPS) ", MEAN "
	      "1..1G and SD 0..1G bytes; sets the rate, no `-r`) ([send patterns](#send-patterns)); not with "
	      "`--rtt` or `--via packet`; keys `pattern`, `pattern_gap_mean_us`, `pattern_gap_cv` (`-` "
	      "unpaced)")
OPT(int, payload, .name = "payload", .arg = "KIND", .type = OD_NAMES, .names = payload_names,
    OD_DEF("random"), .key = "payload", .sec = BS_SHAPE,
    .help = "random, zero or pattern",
    .doc = "`random`, `zero` or `pattern` (byte i is i mod 251)")
OPT(int, raw, .name = "raw", .type = OD_FLAG, .def = "off", .key = "raw", .sec = BS_SHAPE,
    .help = "no header: random bytes only, like blast.c (suck cannot count loss)",
    .doc = "no header: random bytes only, like blast.c; no fin; suck cannot attribute loss (stop it "
	   "with `--idle`)")
OPT(double, time_s, .sname = 't', .name = "time", .arg = "SECS", .type = OD_SECS, .lo = 0, .hi = 1e7,
    .range = "", OD_DEF("10"), .set = set_time, .key = "time_limit_s", .sec = BS_SHAPE,
    .help = "run time, at least 1ms, decimals allowed; 0 = until -n",
    .doc = "run time, decimals and units allowed, at least 1 ms; 0 = until `-n`")
OPT(uint64_t, count, .sname = 'n', .name = "count", .arg = "N", .type = OD_COUNT, .lo = 1, .hi = WIRE_SEQ_LIMIT,
    .range = "1..2^48", .def = "no limit", .key = "count_limit", .sec = BS_SHAPE,
    .help = "stop after N datagrams in all, %R; alone, exactly N with no time limit",
    .doc = "stop after N datagrams in all, %R, no fewer than `-j`; alone, it means exactly N (no time limit)")
OPT(double, fin_time_s, .name = "fin-time", .arg = "SECS", .type = OD_SECS, .lo = 0.1, .hi = 60,
    OD_DEF("2"), .key = "fin_time_s", .sec = BS_SHAPE,
    .help = "how long the fins are repeated to a receiver that stays, %R",
    .doc = "how long the fins are repeated, with a doubling gap, to a receiver that stays (`suck "
	   "--serve`, a group), %R; a receiver that is gone ends them at once")
OPT(uint32_t, run_id, .name = "run-id", .arg = "ID", .type = OD_UINT, .lo = 1, .hi = UINT32_MAX,
    .def = "random", .key = "run_id", .sec = BS_HEAD, .show = show_run_id,
    .help = "run id in every header, %R",
    .doc = "run id in every header, %R; give suck the same `--run-id`; key `run_id` in hex (`random` in "
	   "`--check` when blast would draw one, `raw` with `--raw`)")
OPT_ARG(.name = "key-file", .arg = "FILE", .type = OD_STR,
	.def = "the environment's `BS_RUN_KEY`, else none", .key = "keyed", .sec = BS_HEAD, .show = show_keyed,
	.help = "the run key, 32 hex digits, from FILE ('-' = stdin): tags every fin",
	.doc = "the run key (32 hex digits) from FILE, `-` = standard input; tags every fin (see [the run "
	       "key](output.md#the-run-key)); never from the command line, which any local user can read; key "
	       "`keyed`, 1 when a key was read")
OPT(int, rtt, .name = "rtt", .type = OD_FLAG, .def = "off", .key = "rtt", .sec = BS_RTT,
    .help = "round trips to suck --echo instead of a stream: requests in flight, each timed from its "
	    "send to its reply (CLOCK_MONOTONIC)",
    .doc = "round trips to suck `--echo` instead of a stream, each request timed from its send call to its "
	   "reply; `-r` paces the requests evenly (while fewer than `--outstanding` are in flight); not "
	   "with `-b`, `-g`, `--raw`, `--zerocopy`, `--pattern`, `--via packet`, a size mix or a group; "
	   "under a run key `-s` 36 or more (a request carries the run's proof)")
OPT(unsigned, outstanding, .name = "outstanding", .arg = "N", .type = OD_COUNT, .lo = 1,
    .hi = BLAST_MAX_OUTSTANDING, OD_DEF("1"), .needs = "rtt", .key = "outstanding", .sec = BS_RTT,
    .when = rtt_on,
    .help = "--rtt: requests in flight per flow, %R",
    .doc = "`--rtt`: requests in flight per flow, %R")
OPT(unsigned, reply_size, .name = "reply-size", .arg = "BYTES", .type = OD_BYTES, .lo = WIRE_HDR_LEN,
    .hi = 65527, .range = "32..65507 (IPv4) or ..65527 (IPv6)", .flags = OD_LATE, .def = "as `-s`",
    .needs = "rtt", .key = "reply_size", .sec = BS_RTT, .show = show_reply_size,
    .help = "--rtt: the size of the reply asked for, %R; larger than -s needs suck --echo-max BYTES, "
	    "else replies come back cut to -s (rtt_short)",
    .doc = "`--rtt`: the size of the reply asked for, %R; suck cuts the request to it or pads it with "
	   "zeros, larger than `-s` only when started with `--echo-max BYTES` (replies cut short are "
	   "counted in `rtt_short`)")
OPT(double, rtt_timeout_s, .name = "rtt-timeout", .arg = "SECS", .type = OD_SECS, .lo = 0.001, .hi = 60,
    OD_DEF("1s"), .needs = "rtt", .key = "rtt_timeout_s", .sec = BS_RTT, .when = rtt_on,
    .help = "--rtt: a request unanswered this long is lost, %R",
    .doc = "`--rtt`: a request unanswered this long is lost, %R")
OPT_AT(mark.tos, .name = "tos", .arg = "N", .type = OD_HEX, .lo = 0, .hi = 255, .flags = OD_UNSET_NONE,
       .def = "the kernel's, 0", .key = "tos", .sec = BS_MARKS,
       .help = "TOS byte (IPv4) or traffic class (IPv6) of every datagram, %R (decimal, or hexadecimal "
	       "as 0x10; --dscp and --priority too)",
       .doc = "TOS byte (IPv4) or traffic class (IPv6) of every datagram, %R (DSCP × 4 + ECN), set "
	      "before the first; N (and `--dscp`'s, `--priority`'s) decimal or hex after 0x, `0x10` = 16 (a "
	      "leading 0 is decimal); key `-` where the kernel's default was left")
OPT_ARG(.name = "dscp", .arg = "N", .type = OD_HEX, .lo = 0, .hi = 63, .set = set_dscp,
	.help = "the same as --tos N*4: DSCP %R, ECN bits 0",
	.doc = "the same as `--tos N*4`: DSCP %R, ECN 0 (46 is EF); not with `--tos`; key `tos`")
OPT_AT(mark.ttl, .name = "ttl", .arg = "N", .type = OD_UINT, .lo = 1, .hi = 255, .flags = OD_UNSET_NONE,
       .def = "the kernel's; a group's 1", .key = "ttl", .sec = BS_MARKS, .show = show_ttl,
       .help = "TTL (IPv4) or hop limit (IPv6), %R",
       .doc = "TTL (IPv4) or hop limit (IPv6), %R; to a group, the multicast TTL")
OPT_AT(mark.priority, .name = "priority", .arg = "N", .type = OD_HEX, .lo = 0, .hi = INT_MAX,
       .flags = OD_UNSET_NONE, .def = "the kernel's, 0", .key = "priority", .sec = BS_MARKS,
       .help = "SO_PRIORITY of the socket, %R (above 6: CAP_NET_ADMIN)",
       .doc = "SO_PRIORITY of every socket, %R (above 6: CAP_NET_ADMIN)")
OPT(const char *, mc_if, .name = "mc-if", .arg = "IFNAME", .type = OD_STR, .set = set_mc_if,
    .def = "the route's", .key = "mc_if", .sec = BS_MARKS, .show = show_mc_if,
    .help = "a group's outgoing interface",
    .doc = "a group's outgoing interface (IP_MULTICAST_IF, IPV6_MULTICAST_IF); keys `group` (1: `-a` is "
	   "a group) and `mc_if`")
OPT(int, mc_loop, .name = "mc-loop", .type = OD_FLAG, .def = "off", .key = "mc_loop", .sec = BS_MARKS,
    .when = is_group,
    .help = "a group's datagrams also to receivers on this host",
    .doc = "a group's datagrams also to receivers on this host (IP_MULTICAST_LOOP)")
OPT(int, zerocopy, .name = "zerocopy", .type = OD_FLAG, .def = "off", .key = "zerocopy", .sec = BS_ZC,
    .help = "MSG_ZEROCOPY on every send call (SO_ZEROCOPY): the kernel sends from blast's pages where it "
	    "can; completions counted (zc_*)",
    .doc = "MSG_ZEROCOPY on every send call (SO_ZEROCOPY), the send buffer a ring of 16 calls' buffers, "
	   "each used again once the kernel has completed its messages ([zero copy](#zero-copy-sends)); one "
	   "size, not with `--rtt`; exit 4 without kernel support")
OPT(int, via, .name = "via", .arg = "PATH", .type = OD_NAMES, .names = via_names, OD_DEF("socket"),
    .key = "via", .sec = BS_VIA,
    .help = "socket (UDP), packet: Ethernet frames built by blast, sent through an AF_PACKET TX "
	    "ring beneath the socket, or xdp: the same frames through an AF_XDP socket's TX ring (root)",
    .doc = "`socket` (UDP sockets), `packet`: Ethernet frames built by blast, sent through an "
	   "AF_PACKET TX ring beneath the socket ([below](#beneath-the-socket---via-packet)), or `xdp`: "
	   "the same frames through an AF_XDP socket's TX ring ([below](#an-af_xdp-socket---via-xdp)); "
	   "root; one size, not with `--rtt`, `--zerocopy`, `--pattern` or a group; `-g` is 1; keys "
	   "`via`, `xdp_mode`, and for a run `tx_frames`, `tx_outstanding`, `ring_full`, `ring_refused`")
OPT(const char *, dev, .name = "dev", .arg = "DEV", .type = OD_STR, .set = set_dev,
    .def = "the route's to `-a`", .key = "dev", .sec = BS_VIA, .show = show_dev,
    .help = "--via packet, xdp: the device to send on",
    .doc = "`--via packet`, `xdp`: the device to send on; key `dev`, the device used")
OPT_ARG(.name = "dst-mac", .arg = "MAC", .type = OD_STR, .def = "the neighbour table's", .key = "dst_mac",
	.sec = BS_VIA, .show = show_dst_mac,
	.help = "--via packet, xdp: the frames' destination",
	.doc = "`--via packet`, `xdp`: the frames' destination MAC, `02:62:73:00:00:02`; key `dst_mac`, the one "
	       "used (`-` where none is known yet)")
OPT(int, cpu, .name = "cpu", .arg = "N", .type = OD_CPU, .def = "not pinned", .key = "cpu", .sec = BS_RUN,
    .flags = OD_CHECK_ONLY,
    .help = "pin flow i to CPU N+i",
    .doc = "pin flow i to CPU N+i, N 0..CPUs-1")
OPT(double, interval_s, .sname = 'i', .name = "interval", .arg = "SECS", .type = OD_SECS, .lo = 0.01,
    .hi = 1e6, .range = "", .def = "off", .key = "interval_s", .sec = BS_RUN, .flags = OD_CHECK_ONLY,
    .help = "progress line on stderr every SECS",
    .doc = "a progress line on stderr every SECS (10 ms and up); with `-o tsv` or `-o json` a row of that "
	   "format (`tool`, `t_s`, counts, `pps` of the interval; with `--rtt` also `rtt_mean_us`, the mean "
	   "round trip of the interval's replies, `-` with none; tsv: a header line first)")
OPT(int, check, .name = "check", .type = OD_FLAG,
    .help = "check the options, the address and GSO, print the settings as one report row (check 1) "
	    "and exit; nothing is sent",
    .doc = "check every option, the address and GSO as a run would (same exit and message), print the "
	   "settings as one report row (`check` 1) and exit; nothing is sent")
#include "opttail.h"
