/* key: the run key that blast and suck share, and the tag it puts on every fin. Whoever can read
 * a command line (ps, /proc/PID/cmdline) knows the run id and the port; the key is never on a
 * command line: it comes from the environment (BS_RUN_KEY, readable only by the same user and
 * root) or a file (--key-file, '-' for standard input, which also crosses ssh). The tag is
 * SipHash-2-4 (Aumasson and Bernstein, 2012), a keyed 64-bit MAC made for short inputs: a fin is
 * 62 bytes, and one fin per flow is tagged, so its cost does not matter; what matters is that a
 * forger without the key guesses a tag with probability 2^-64. A data datagram carries no tag:
 * see docs/output.md, "The run key", for what an attacker can still do. */
#ifndef KEY_H
#define KEY_H
#include <stddef.h>
#include <stdint.h>

#define KEY_LEN 16        /* bytes: 32 hex digits */
#define KEY_ENV "BS_RUN_KEY"

struct key {
	int set;              /* 0: no key; fins are not tagged (tag 0) and not checked */
	uint8_t k[KEY_LEN];
};

/* SipHash-2-4 of len bytes under a 16-byte key. */
uint64_t key_siphash(const uint8_t k[KEY_LEN], const void *msg, size_t len);
/* NULL and k filled when text is 32 hex digits (surrounding white space allowed), otherwise why
 * it is not a key. */
const char *key_parse(const char *text, struct key *k);
/* The key of this run: from the file path (when not NULL; "-" is standard input), else from
 * the environment variable KEY_ENV, else none (k->set 0). NULL on success, otherwise a message
 * for the tool to print (exit 2). */
const char *key_load(const char *path, struct key *k);

#endif
