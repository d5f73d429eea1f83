/* bpf: eBPF without libbpf or a BPF compiler. Instructions are written in C with the macros
 * below (the encoding of the kernel's Documentation/bpf/standardization/instruction-set.rst),
 * into a small assembler that resolves jumps to labels; maps, programs and XDP links are made
 * with the bpf() system call, and XDP is attached with netlink (IFLA_XDP) where the kernel has
 * no BPF links (before 5.9). Functions return -1 with errno and leave the exit to the tool.
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
#define BI_AND32_IMM(d, i)     BI(BPF_ALU | BPF_AND | BPF_K, d, 0, 0, i)
/* d = *(size *)(s + off), size BPF_B, BPF_H, BPF_W or BPF_DW */
#define BI_LDX(size, d, s, off) BI(BPF_LDX | BPF_MEM | (size), d, s, off, 0)
/* The two slots of a 64-bit immediate load of a map's fd, which the kernel turns into the map. */
#define BI_LD_MAP_FD(d, fd)    BI(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), BI(0, 0, 0, 0, 0)
#define BI_CALL(helper)        BI(BPF_JMP | BPF_CALL, 0, 0, 0, helper)
#define BI_EXIT()              BI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Jumps: op is BPF_JEQ, BPF_JNE, BPF_JGT, ...; the offset is filled in by bpf_jump from a label. */
#define BI_JMP_REG(op, d, s)   BI(BPF_JMP | (op) | BPF_X, d, s, 0, 0)
#define BI_JMP32_IMM(op, d, i) BI(BPF_JMP32 | (op) | BPF_K, d, 0, 0, i)
#define BI_JA()                BI(BPF_JMP | BPF_JA, 0, 0, 0, 0)

#define BPF_ASM_MAX    128 /* instructions: the XDP program here needs fewer than 60 */
#define BPF_ASM_LABELS 16

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

#endif
