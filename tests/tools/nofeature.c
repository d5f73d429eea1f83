/* nofeature: runs a command as on a kernel without one feature, for the tests of exit 4. A
 * seccomp filter fails the one system call the feature needs, the way such a kernel does:
 * uring: io_uring_setup with ENOSYS (a kernel built without io_uring); gro, gso: setsockopt
 * SOL_UDP UDP_GRO or UDP_SEGMENT with ENOPROTOOPT (before Linux 5.0 and 4.18); xdp: socket
 * AF_XDP with EAFNOSUPPORT (a kernel built without XDP sockets). Everything else passes, so the
 * tools do exactly what they do there. Usage: nofeature uring|gro|gso|xdp CMD ARGS...
 * Exit 77 where the filter cannot be installed (another architecture, no seccomp): skip. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#if defined(__x86_64__)
#define NF_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NF_ARCH AUDIT_ARCH_AARCH64
#endif

/* The low 32 bits of argument i: the int the caller passed. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#else
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#endif

#define LD(off)         BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define JEQ(k, t, f)    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define RET(v)          BPF_STMT(BPF_RET | BPF_K, (v))

int main(int argc, char **argv)
{
#ifdef NF_ARCH
	int uring, xdp;
	unsigned optname = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: nofeature uring|gro|gso|xdp CMD ARGS...\n");
		return 2;
	}
	uring = strcmp(argv[1], "uring") == 0;
	xdp = strcmp(argv[1], "xdp") == 0;
	if (strcmp(argv[1], "gro") == 0)
		optname = UDP_GRO;
	else if (strcmp(argv[1], "gso") == 0)
		optname = UDP_SEGMENT;
	else if (!uring && !xdp) {
		fprintf(stderr, "nofeature: '%s': accepted: uring, gro, gso, xdp\n", argv[1]);
		return 2;
	}
	struct sock_filter no_uring[] = {
		LD(offsetof(struct seccomp_data, arch)),
		JEQ(NF_ARCH, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(offsetof(struct seccomp_data, nr)),
		JEQ((unsigned)__NR_io_uring_setup, 0, 1),
		RET(SECCOMP_RET_ERRNO | ENOSYS),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sock_filter no_sockopt[] = {
		LD(offsetof(struct seccomp_data, arch)),
		JEQ(NF_ARCH, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(offsetof(struct seccomp_data, nr)),
		JEQ((unsigned)__NR_setsockopt, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(ARG_LO(1)),
		JEQ(IPPROTO_UDP, 1, 0), /* SOL_UDP */
		RET(SECCOMP_RET_ALLOW),
		LD(ARG_LO(2)),
		JEQ(optname, 0, 1),
		RET(SECCOMP_RET_ERRNO | ENOPROTOOPT),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sock_filter no_xdp[] = {
		LD(offsetof(struct seccomp_data, arch)),
		JEQ(NF_ARCH, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(offsetof(struct seccomp_data, nr)),
		JEQ((unsigned)__NR_socket, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(ARG_LO(0)),
		JEQ(44, 0, 1), /* AF_XDP */
		RET(SECCOMP_RET_ERRNO | EAFNOSUPPORT),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fp = {
		.len = uring ? sizeof no_uring / sizeof *no_uring : xdp ? sizeof no_xdp / sizeof *no_xdp :
		       sizeof no_sockopt / sizeof *no_sockopt,
		.filter = uring ? no_uring : xdp ? no_xdp : no_sockopt,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) < 0) {
		perror("nofeature: seccomp");
		return 77;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "nofeature: no seccomp filter for this architecture\n");
	return 77;
#endif
}
