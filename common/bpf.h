/* bpf: eBPF without libbpf or a BPF compiler. Instructions are written in C with the macros
 * below (the encoding of the kernel's Documentation/bpf/standardization/instruction-set.rst),
 * into a small assembler that resolves jumps to labels; maps, programs and XDP links are made
 * with the bpf() system call, and XDP is attached with netlink (IFLA_XDP) where the kernel has
 * no BPF links (before 5.9). A tracepoint program is attached to a perf event per CPU
 * (perf_event_open, PERF_EVENT_IOC_SET_BPF). A small BTF reader finds a struct's member offsets
 * in the kernel's own type information (/sys/kernel/btf/vmlinux), so a program that reads
 * kernel memory with bpf_probe_read_kernel needs no headers of the running kernel.
 * Functions return -1 with errno and leave the exit to the tool.
 *
 * Pitfalls: a 64-bit jump compares with its 32-bit immediate sign-extended, so a u32 loaded
 * from a packet is compared with BPF_JMP32 (5.1); a map fd goes into a program as a two-slot
 * BPF_LD_IMM64 marked BPF_PSEUDO_MAP_FD; the verifier wants every packet read proved within
 * data_end before it. */
#ifndef BPF_H
#define BPF_H
#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* One instruction: opcode, destination and source registers, offset, immediate. */
#define BI(op_, dst_, src_, off_, imm_) \
	((struct bpf_insn){ .code = (op_), .dst_reg = (dst_), .src_reg = (src_), .off = (off_), .imm = (imm_) })
#define BI_MOV64_REG(d, s)     BI(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define BI_MOV64_IMM(d, i)     BI(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define BI_ADD64_IMM(d, i)     BI(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define BI_ADD64_REG(d, s)     BI(BPF_ALU64 | BPF_ADD | BPF_X, d, s, 0, 0)
#define BI_RSH64_IMM(d, i)     BI(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define BI_LSH64_IMM(d, i)     BI(BPF_ALU64 | BPF_LSH | BPF_K, d, 0, 0, i)
#define BI_AND64_IMM(d, i)     BI(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define BI_MOD32_IMM(d, i)     BI(BPF_ALU | BPF_MOD | BPF_K, d, 0, 0, i)
#define BI_AND32_IMM(d, i)     BI(BPF_ALU | BPF_AND | BPF_K, d, 0, 0, i)
/* d = *(size *)(s + off), size BPF_B, BPF_H, BPF_W or BPF_DW */
#define BI_LDX(size, d, s, off) BI(BPF_LDX | BPF_MEM | (size), d, s, off, 0)
/* *(size *)(d + off) = s */
#define BI_STX(size, d, s, off) BI(BPF_STX | BPF_MEM | (size), d, s, off, 0)
/* lock *(u64 *)(d + off) += s */
#define BI_ATOMIC_ADD64(d, s, off) BI(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, off, BPF_ADD)
/* The two slots of a 64-bit immediate load of a map's fd, which the kernel turns into the map. */
#define BI_LD_MAP_FD(d, fd)    BI(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), BI(0, 0, 0, 0, 0)
#define BI_CALL(helper)        BI(BPF_JMP | BPF_CALL, 0, 0, 0, helper)
#define BI_EXIT()              BI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Jumps: op is BPF_JEQ, BPF_JNE, BPF_JGT, ...; the offset is filled in by bpf_jump from a label. */
#define BI_JMP_REG(op, d, s)   BI(BPF_JMP | (op) | BPF_X, d, s, 0, 0)
#define BI_JMP32_IMM(op, d, i) BI(BPF_JMP32 | (op) | BPF_K, d, 0, 0, i)
#define BI_JMP_IMM(op, d, i)   BI(BPF_JMP | (op) | BPF_K, d, 0, 0, i)
#define BI_JA()                BI(BPF_JMP | BPF_JA, 0, 0, 0, 0)

#define BPF_ASM_MAX    256 /* instructions: the XDP program here needs fewer than 60, suck
			    * --drops' fewer than 200 */
#define BPF_ASM_LABELS 24

/* A program being written: bpf_emit appends, bpf_jump appends a jump to a label that
 * bpf_label places (before or after), bpf_asm_end resolves every jump. */
struct bpf_asm {
	struct bpf_insn insn[BPF_ASM_MAX];
	unsigned n;
	int at[BPF_ASM_LABELS];           /* instruction index of each label, -1 unplaced */
	int8_t target[BPF_ASM_MAX];       /* the label a jump goes to, -1 for other instructions */
	int overflow;                     /* more than BPF_ASM_MAX instructions were emitted */
};
void bpf_asm_init(struct bpf_asm *a);
void bpf_emit(struct bpf_asm *a, struct bpf_insn i);
void bpf_jump(struct bpf_asm *a, struct bpf_insn i, unsigned label);
void bpf_label(struct bpf_asm *a, unsigned label);
/* 0, or -1 (EINVAL) when a jump's label was never placed or the program overflowed. */
int bpf_asm_end(struct bpf_asm *a);

/* A map; name is shown by bpftool and in /proc (at most 15 characters). The fd, or -1. */
int bpf_map_new(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t entries,
		const char *name);
int bpf_map_put(int map, const void *key, const void *value);
/* The value of key: 0, or -1 (ENOENT: no such key). */
int bpf_map_get(int map, const void *key, void *value);
/* Removes key: 0, or -1 (ENOENT: no such key). */
int bpf_map_del(int map, const void *key);
/* The key after key (NULL: the first) into next: 0, or -1 (ENOENT: there is none). */
int bpf_map_next(int map, const void *key, void *next);
/* Loads a program of type with the verifier's log at level 1 into log (len bytes, NUL-ended;
 * empty when the verifier said nothing). The fd, or -1 with errno (EACCES, EINVAL: the
 * verifier refused it, and log says why). */
int bpf_prog_new(uint32_t type, const struct bpf_insn *insn, unsigned n, const char *name,
		 char *log, size_t len);
/* An XDP link from prog to the device ifindex (flags: XDP_FLAGS_DRV_MODE, XDP_FLAGS_SKB_MODE):
 * the program stays attached as long as the link's fd is open, and goes with the process that
 * holds it, however it ends. The fd, or -1 (EINVAL on a kernel without XDP links). */
int bpf_xdp_link(int prog, unsigned ifindex, uint32_t flags);
/* The pre-link way: netlink RTM_SETLINK with IFLA_XDP. prog -1 detaches (with the same flags).
 * Nothing removes a program attached this way when the process dies. 0, or -1 with errno. */
int bpf_xdp_netlink(unsigned ifindex, int prog, uint32_t flags);
/* prog (BPF_PROG_TYPE_SCHED_CLS) as a bpf filter named name in direct-action mode on the clsact
 * qdisc of ifindex (the caller's: tc qdisc add dev DEV clsact), ingress or egress (RTM_NEWTFILTER);
 * deleting the qdisc removes it. 0, or -1 with errno (the kernel's answer). */
int bpf_tc_attach(unsigned ifindex, int prog, int egress, const char *name);

/* A perf event of the tracepoint id (tracefs' events/GROUP/NAME/id) on one CPU, every process,
 * with prog (BPF_PROG_TYPE_TRACEPOINT) attached and the event enabled: the program runs at
 * every hit on that CPU until the fd is closed, which detaches it. The fd, or -1 with errno
 * (ENODEV: the CPU is offline; EACCES, EPERM: no CAP_PERFMON). */
int bpf_perf_tp(int prog, uint64_t id, int cpu);
/* The kernel's count of every program's runs and their time, while the returned fd is open
 * (BPF_ENABLE_STATS, Linux 5.8): -1 with errno where it is refused. */
int bpf_stats_on(void);
/* A program's runs and their total time in ns so far (0 without bpf_stats_on): 0, or -1. */
int bpf_prog_runs(int prog, uint64_t *runs, uint64_t *ns);

/* BTF: the kernel's type information, read once (a few MB) and kept until btf_free. */
struct btf;
/* Reads the BTF at path (the kernel's: /sys/kernel/btf/vmlinux): NULL with errno (ENOENT: a
 * kernel without CONFIG_DEBUG_INFO_BTF; EINVAL: not BTF, or a kind this reader does not know). */
struct btf *btf_load(const char *path);
/* The same from memory (len bytes, copied). */
struct btf *btf_parse(const void *data, size_t len);
void btf_free(struct btf *b);
/* The byte offset and size of member name of the struct or union sname, found also inside its
 * anonymous members (struct_group, unions of alternatives), offsets added: 0, or -1 when there
 * is no such struct, no such member, or it is a bit field. size is the member's type's size
 * through typedefs and qualifiers (a pointer: 8). */
int btf_member(const struct btf *b, const char *sname, const char *name, unsigned *off, unsigned *size);
/* The value of the enumerator name of the enum ename: 0, or -1. */
int btf_enum(const struct btf *b, const char *ename, const char *name, int64_t *value);

#endif
