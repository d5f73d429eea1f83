/* carry: the next run's first datagrams, held over a stale run's end (see carry.h). Each entry
 * is its length, its source and its bytes, 8-byte aligned, one after the other. */
#include "carry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rx.h"

struct carry {
	uint8_t *mem;
	size_t size, used;
	unsigned n;
};

struct entry {
	uint64_t len;
	struct rx_name src;
};

static size_t entry_bytes(size_t len)
{
	return sizeof(struct entry) + ((len + 7) & ~(size_t)7);
}

struct carry *carry_new(size_t n, size_t cap)
{
	struct carry *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->size = n * entry_bytes(cap);
	/* mapped, not allocated: untouched, it costs no memory, and it is not the strategy's heap */
	c->mem = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->mem == MAP_FAILED) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

int carry_add(struct carry *c, const uint8_t *buf, size_t len, const void *src)
{
	struct entry e = { .len = len };

	if (c->used + entry_bytes(len) > c->size)
		return -1;
	memcpy(e.src.b, src, RX_NAME_LEN);
	memcpy(c->mem + c->used, &e, sizeof e);
	memcpy(c->mem + c->used + sizeof e, buf, len);
	c->used += entry_bytes(len);
	c->n++;
	return 0;
}

void carry_feed(struct carry *c, struct rx *rx)
{
	struct carry *own = rx->carry;

	rx->carry = NULL; /* what is fed is this run's, never carried again */
	for (size_t off = 0; off < c->used;) {
		struct entry e;
		memcpy(&e, c->mem + off, sizeof e);
		(void)rx_take_as(rx, c->mem + off + sizeof e, (size_t)e.len, &e.src, 1);
		off += entry_bytes((size_t)e.len);
	}
	c->used = 0;
	c->n = 0;
	rx->carry = own;
}

unsigned carry_count(const struct carry *c)
{
	return c ? c->n : 0;
}

void carry_free(struct carry *c)
{
	if (!c)
		return;
	munmap(c->mem, c->size);
	free(c);
}
