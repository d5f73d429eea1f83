/* echoer: a misbehaving suck --echo for the round-trip tests. Not part of the product; built by
 * `make unit` as bin/echoer.
 *
 *   echoer ADDR   binds ADDR (127.0.0.1 or ::1) on a free port, says "listening on ADDR:PORT"
 *                 on stderr as suck does, and answers blast --rtt's requests by their sequence
 *                 number s: s % 10 == 3 never (lost), == 5 twice (the second late), == 7 with
 *                 a reply one byte too long (foreign; the request is then lost), the others
 *                 once, of the size asked for. Ends at the first fin, or 5 s after the last
 *                 datagram. Prints, as tsv, what blast must count: transactions, rtt_lost,
 *                 rtt_late, rtt_foreign.
 *   echoer ADDR NS  the same, each reply stamped as suck --echo stamps it (WIRE_ECHO), with a
 *                 wall clock NS nanoseconds ahead of this host's: blast's clock_offset_us must
 *                 find NS / 1000, within its clock_offset_err_us.
 *   echoer ADDR NS block  and each reply carries the echo block (wire.h): the requests taken so
 *                 far (every one, answered or not) and the time; blast must find every loss on
 *                 the way back (rtt_lost_up 0, rtt_lost_down rtt_lost), printed too.
 *   echoer ADDR NS forge  the same, but s % 20 == 1 claims more requests than were sent and
 *                 s % 20 == 11 sends before it receives: blast counts those blocks in rtt_forged
 *                 and uses none of them; s % 10 == 8 has times at the epoch, believable on their
 *                 own (the offset estimate takes them: nonsense, but numbers). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "wire.h"

int main(int argc, char **argv)
{
	static uint8_t buf[65536], out[65536];
	struct sockaddr_storage me = { 0 }, from;
	socklen_t len = sizeof me, flen;
	struct timeval idle = { 5, 0 };
	uint64_t answered = 0, lost = 0, late = 0, foreign = 0;
	int v6 = argc > 1 && strchr(argv[1], ':'), fd;
	long long ahead = argc >= 3 ? atoll(argv[2]) : 0;
	int block = argc == 4, forge = argc == 4 && strcmp(argv[3], "forge") == 0;
	uint64_t taken = 0, forged = 0;

	if (argc < 2 || argc > 4 || (argc == 4 && !forge && strcmp(argv[3], "block") != 0)) {
		fprintf(stderr, "usage: echoer 127.0.0.1|::1 [NS [block|forge]]\n");
		return 2;
	}
	me.ss_family = v6 ? AF_INET6 : AF_INET;
	if (v6)
		inet_pton(AF_INET6, argv[1], &((struct sockaddr_in6 *)&me)->sin6_addr);
	else
		inet_pton(AF_INET, argv[1], &((struct sockaddr_in *)&me)->sin_addr);
	fd = socket(me.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&me, &len) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &idle, sizeof idle) < 0) {
		perror("echoer: socket");
		return 1;
	}
	fprintf(stderr, "echoer: listening on %s:%u\n", argv[1],
		ntohs(v6 ? ((struct sockaddr_in6 *)&me)->sin6_port : ((struct sockaddr_in *)&me)->sin_port));
	for (;;) {
		struct wire_hdr h;
		ssize_t n;
		size_t reply;

		flen = sizeof from;
		n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
		if (n < 0)
			break;
		if (wire_get_hdr(buf, (size_t)n, &h) < 0)
			continue;
		if (h.type == WIRE_FIN)
			break;
		reply = wire_get_reply(buf) ? wire_get_reply(buf) : (size_t)n;
		memset(out, 0, reply + 1);
		memcpy(out, buf, (size_t)n < reply ? (size_t)n : reply);
		taken++;
		if (argc >= 3) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + (uint64_t)ahead;
			wire_put_echo(out, now);
			if (block && reply >= WIRE_ECHO_END) {
				int lie = forge && h.seq % 10 == 1;
				wire_put_echo_count(out, lie && h.seq % 20 == 1 ? 1ull << 40 : taken);
				wire_put_echo_rx(out, lie && h.seq % 20 == 11 ? now + 1000 : now);
				if (forge && h.seq % 10 == 8) {
					wire_put_echo_rx(out, 1);
					wire_put_echo(out, 1);
				}
				forged += (uint64_t)lie;
			}
		}
		switch (h.seq % 10) {
		case 3:
			lost++;
			continue;
		case 5:
			sendto(fd, out, reply, 0, (struct sockaddr *)&from, flen);
			late++;
			break;
		case 7:
			reply++;
			foreign++;
			lost++;
			break;
		default:
			break;
		}
		if (h.seq % 10 != 7)
			answered++;
		sendto(fd, out, reply, 0, (struct sockaddr *)&from, flen);
	}
	if (block)
		printf("transactions\trtt_lost\trtt_late\trtt_foreign\trtt_lost_up\trtt_lost_down\trtt_forged\n"
		       "%llu\t%llu\t%llu\t%llu\t0\t%llu\t%llu\n", (unsigned long long)answered,
		       (unsigned long long)lost, (unsigned long long)late, (unsigned long long)foreign,
		       (unsigned long long)lost, (unsigned long long)forged);
	else
		printf("transactions\trtt_lost\trtt_late\trtt_foreign\n%llu\t%llu\t%llu\t%llu\n",
		       (unsigned long long)answered, (unsigned long long)lost, (unsigned long long)late,
		       (unsigned long long)foreign);
	return 0;
}
