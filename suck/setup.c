/* setup: the receive side's sockets and states, for main.c to wire into a run: a socket with
 * the run's options bound to the address (setup_socket, --busy-poll on it), one thread's receive
 * state and its variant's on a socket (setup_rx), the receive buffer the kernel granted
 * (setup_rcvbuf), suck -j's SO_REUSEPORT group made suck's own (setup_group), and --check, a
 * run's setup on one throwaway socket (setup_check; --drops' program attached and detached
 * again). Every failure is said here; the callers get the exit code. */
#include <err.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mark.h"
#include "mcast.h"
#include "net.h"
#include "drops.h"
#include "echo.h"
#include "report.h"
#include "setup.h"
#include "suck.h"
#include "variant.h"
#include "version.h"

/* --busy-poll on a socket: 0, or the exit code with the message said (1; 4 where the kernel was
 * built without busy polling). */
static int busy_poll(const struct suck_cfg *cfg, int fd)
{
	const char *opt = net_busy_poll(fd, cfg->busy_poll, cfg->prefer_busy_poll, cfg->busy_budget);
	int e = errno;

	if (!opt)
		return 0;
	if (e == ENOPROTOOPT) {
		warnx("setsockopt %s: %s: this kernel has no busy polling (CONFIG_NET_RX_BUSY_POLL)", opt,
		      strerror(e));
		return 4;
	}
	if (e == EPERM) {
		warnx("setsockopt %s: %s: %s needs CAP_NET_ADMIN", opt, strerror(e),
		      !strcmp(opt, "SO_BUSY_POLL") ? "raising it above net.core.busy_poll" :
		      !strcmp(opt, "SO_PREFER_BUSY_POLL") ? "--prefer-busy-poll" :
		      "a --busy-poll-budget above the socket's");
		return 1;
	}
	warnx("setsockopt %s: %s", opt, strerror(e));
	return 1;
}

/* --source S on this host, whose datagrams to the group the kernel sends from another address
 * (on lo: 127.0.0.1 has host scope, which a multicast route never picks, so another device's
 * address goes out): that address, which the source filter keeps out; empty when S is not kept
 * out or is another host's. */
static char source_kernel[INET6_ADDRSTRLEN];

const char *setup_source_kernel(void)
{
	return source_kernel;
}

/* A source-specific join said before a datagram is awaited: the source the kernel will give
 * this host's datagrams to the group when it is not --source's, which would otherwise let in
 * nothing, silently. */
static void source_said(const struct suck_cfg *cfg)
{
	struct net_addr k;
	const char *call = "";

	if (mcast_source_kept_out(&cfg->group, &cfg->from, cfg->mc_ifindex, &k, &call) != 1 ||
	    getnameinfo((const struct sockaddr *)&k.ss, k.len, source_kernel, sizeof source_kernel, NULL, 0,
			NI_NUMERICHOST) != 0) {
		source_kernel[0] = 0;
		return;
	}
	fprintf(stderr, "suck: warning: --source %s: a sender on this host sends to %s%s%s from %s, the "
		"address the kernel picks (ip route get %s%s%s), which the source filter keeps out; "
		"--source %s lets it in\n", cfg->source, cfg->join, cfg->mc_if ? " over " : "",
		cfg->mc_if ? cfg->mc_if : "", source_kernel, cfg->join, cfg->mc_if ? " oif " : "",
		cfg->mc_if ? cfg->mc_if : "", source_kernel);
}

/* A socket with the run's options, bound to a. With -j the port is suck's alone: the first
 * socket binds without SO_REUSEPORT, so a port that anyone holds (any listener, another
 * suck -j, a SO_REUSEPORT group) is refused as in use, and -p 0 gets a port nobody is on. Only
 * then does it take SO_REUSEPORT, which lets the others join: the kernel asks the flag of the
 * sockets already bound, at each join. The one exception, explicit: --join shares its port with
 * the group's other receivers (SO_REUSEADDR, below), since each gets every datagram. */
int setup_socket(const struct suck_cfg *cfg, const struct net_addr *a, int first)
{
	int fd = socket(a->ss.ss_family, SOCK_DGRAM, 0), one = 1, st;
	const char *call;
	struct timeval tick = { .tv_sec = 0, .tv_usec = RX_TICK_MS * 1000 };

	if (fd < 0) {
		warn("socket");
		return -1;
	}
	if (!first && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEPORT");
		return -1;
	}
	/* --join: every receiver of a group gets each of its datagrams, so the receivers of one
	 * group share the port: this is the one case where suck binds a port another socket may
	 * hold, and only another that asks for it too (SO_REUSEADDR on both). */
	if (cfg->join && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEADDR");
		return -1;
	}
	/* The tick bounds how long a blocked receive can miss a stop condition. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick) < 0) {
		warn("setsockopt SO_RCVTIMEO");
		return -1;
	}
	/* --latency, --jitter, --gaps: the kernel stamps every datagram as it receives it (software,
	 * the realtime clock, as blast's send time), delivered as a control message. */
	if ((cfg->latency || cfg->jitter || cfg->gaps) && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) < 0) {
		warn("setsockopt SO_TIMESTAMPNS");
		return -1;
	}
	/* --marks: the TOS and TTL of every datagram, as control messages. */
	if (cfg->marks && mark_receive(fd, a->ss.ss_family, &call) < 0) {
		warn("%s", call);
		return -1;
	}
	if (cfg->rcvbuf && net_rcvbuf(fd, cfg->rcvbuf) < 0) {
		warn("setsockopt SO_RCVBUF");
		return -1;
	}
	if (cfg->busy_poll && (st = busy_poll(cfg, fd)))
		return -st;
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) < 0) {
		char where[80];
		int e = errno;
		net_format(a, where, sizeof where);
		fprintf(stderr, "suck: bind %s: %s%s\n", where, strerror(e), e != EADDRINUSE ? "" : cfg->join ?
			" (another socket has the port and is no receiver of a group: --join shares it only with "
			"sockets that set SO_REUSEADDR too)" :
			" (another socket has the port; suck shares it with none, -j too)");
		return -1;
	}
	if (first && cfg->threads > 1 && !cfg->one_socket &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
		warn("setsockopt SO_REUSEPORT");
		return -1;
	}
	if (cfg->join && mcast_join(fd, &cfg->group, cfg->source ? &cfg->from : NULL, cfg->mc_ifindex, &call) < 0) {
		warn("%s %s", call, cfg->join);
		return -1;
	}
	if (cfg->join && cfg->source)
		source_said(cfg);
	return fd;
}

/* One receive thread's state and its variant's, on socket fd: 0, or the exit code (1, or 4
 * where the kernel does not offer the variant) with the message said. */
int setup_rx(struct rx *rx, int fd, unsigned id, const struct suck_cfg *cfg, struct rx_shared *sh,
	     struct carry *carry)
{
	const struct variant *v = cfg->variant;
	int st;

	if (rx_init(rx, fd, id, cfg, sh) < 0) {
		warn("mmap for the sequence tracker");
		return 1;
	}
	rx->carry = carry;
	st = v->setup(rx);
	if (st && rx->error.call) {
		/* the variant named the call that failed */
		warnx("-m %s: %s: %s", v->name, rx->error.call, strerror(rx->error.err));
		return st == VARIANT_UNSUPPORTED || st == VARIANT_NOT_HERE ? 4 : 1;
	}
	if (st == VARIANT_NOT_HERE)
		return 4;
	if (st == VARIANT_UNSUPPORTED) {
		warn("-m %s: this kernel does not offer it", v->name);
		return 4;
	}
	if (st == VARIANT_USAGE)
		return 2;
	if (st < 0) {
		warn("-m %s: setting up", v->name);
		return 1;
	}
	return 0;
}

/* The receive buffer the kernel granted the socket, with a warning when it is less than -R. */
int setup_rcvbuf(const struct suck_cfg *cfg, int fd)
{
	int rcvbuf = net_rcvbuf(fd, 0);

	if (cfg->rcvbuf && rcvbuf < cfg->rcvbuf)
		fprintf(stderr, "suck: warning: asked for -R %d, the kernel granted %d (net.core.rmem_max)\n",
			cfg->rcvbuf, rcvbuf);
	return rcvbuf;
}

/* -j: datagrams go to suck's own sockets only. A reuseport program hands each to socket (flow
 * id mod N) of the group, so a flow stays on one thread and its datagrams are spread evenly
 * (the kernel's hash of the addresses can put two flows on one socket, and the CPU a datagram
 * arrives on changes under a sending thread that migrates). The first N of the group are suck's
 * unless a stranger joined between the first bind and the last, which the socket tables tell
 * once the program is attached; whoever joins later sits beyond N and receives nothing.
 * 0, or 1 with the message said. */
int setup_group(const struct rx *rxs, unsigned threads, const char *where)
{
	int fds[SUCK_MAX_THREADS], n;

	for (unsigned i = 0; i < threads; i++)
		fds[i] = rxs[i].fd;
	if (net_steer(fds[0], WIRE_FLOW_OFF, threads) < 0) {
		warn("setsockopt SO_ATTACH_REUSEPORT_CBPF");
		return 1;
	}
	n = net_strangers(fds, threads);
	if (n > 0) {
		warnx("%s: %d other socket%s joined suck's SO_REUSEPORT group while it was set up; suck "
		      "shares its port with none", where, n, n == 1 ? "" : "s");
		return 1;
	}
	if (n < 0)
		warnx("warning: %s: /proc/net/udp unreadable: no check that the group is suck's alone", where);
	return 0;
}

/* --check: a run's setup on one throwaway socket, bound to -a and -p as a run's first socket
 * is (a port in use fails as a run would), with the variant's own setup (UDP_GRO,
 * io_uring_setup: exit 4 where the kernel lacks them), then everything closed before the
 * settings are printed, so a suck started right after can bind the port. Nothing is read from
 * the socket; a datagram that arrives in the instant it is bound is lost with it. */
int setup_check(const struct suck_cfg *cfg)
{
	static struct rx scratch;
	static struct rx_shared sh;
	struct rx *rx = &scratch;
	struct report r;
	char run[9 * SUCK_MAX_RUN_IDS + 1], where[80];
	struct suck_show show = { .where = where, .run = run };
	const char *mech;
	int fd = setup_socket(cfg, &cfg->to, 1), st;

	if (fd < 0)
		return -fd;
	st = setup_rx(rx, fd, 0, cfg, &sh, NULL);
	if (!st && cfg->drops) { /* attached and detached again, as a run's */
		struct drops *d = NULL;
		st = drops_open(&d, fd);
		drops_close(d);
	}
	show.rcvbuf = setup_rcvbuf(cfg, fd);
	mech = rx->mech;
	cfg->variant->teardown(rx);
	rx_free(rx);
	echo_budget_free(sh.echo_budget);
	sh.echo_budget = NULL;
	close(fd);
	if (st)
		return st;
	snprintf(run, sizeof run, "%08x", cfg->run_id);
	for (unsigned i = 0, n = 0; i < cfg->nrun_ids && !cfg->run_id; i++) /* named runs: a list */
		n += (unsigned)snprintf(run + n, sizeof run - n, "%s%08x", i ? "," : "", cfg->run_ids[i]);
	if (!cfg->run_id && !cfg->nrun_ids)
		show.run = "first";
	net_format(&cfg->to, where, sizeof where);
	report_init(&r);
	report_str(&r, "tool", "suck");
	report_str(&r, "version", version_text);
	report_u64(&r, "check", 1);
	for (int sec = SS_NAME; sec < SS_END; sec++)
		suck_settings(&r, cfg, (enum suck_sec)sec, 1, &show);
	report_str(&r, "uring_setup", mech && !cfg->variant->device ? mech : "-");
	report_str(&r, "xdp_setup", mech && cfg->variant->device ? mech : "-");
	if (report_write(&r, (enum report_fmt)cfg->fmt, stdout) < 0) {
		warn("writing the report");
		return 1;
	}
	return 0;
}
