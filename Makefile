# blast & suck: libc, GNU make and a C compiler (gcc or clang). gnuplot for plots only.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wvla
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE -Icommon -pthread
LDLIBS  += -pthread

B := bin
O := $(B)/obj
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

COMMON_SRC := $(wildcard common/*.c)
BLAST_SRC  := $(wildcard blast/*.c)
SUCK_SRC   := $(wildcard suck/*.c)
UNIT_SRC   := $(wildcard tests/unit/*.c)

COMMON_OBJ := $(COMMON_SRC:%.c=$(O)/%.o)
BLAST_OBJ  := $(BLAST_SRC:%.c=$(O)/%.o)
SUCK_OBJ   := $(SUCK_SRC:%.c=$(O)/%.o)
SUCK_LIB   := $(filter-out $(O)/suck/main.o,$(SUCK_OBJ))
BLAST_LIB  := $(filter-out $(O)/blast/main.o,$(BLAST_OBJ))
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(B)/test_%)

.PHONY: all test unit check perf profile bench bench-wire reproduce fuzz clean ndr sweep latency underload docs
all: $(B)/blast $(B)/suck $(B)/netdev $(B)/ladder

# The version string changes with every commit: only common/version.o embeds it, so a new
# commit recompiles that one file and relinks.
$(O)/.version: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
FORCE:

$(O)/common/version.o: common/version.c $(O)/.version
	@mkdir -p $(@D)
	@echo "  CC  $<"
	@$(CC) $(ALL_CFLAGS) -DBS_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

$(O)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC  $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(B)/blast: $(BLAST_OBJ) $(COMMON_OBJ)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/suck: $(SUCK_OBJ) $(COMMON_OBJ)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# bare: the bare system-call loops `make perf` sets beside blast and suck; one file, and of
# common/ only the AF_XDP setup its --xdp shares with suck -m xdp.
$(B)/bare: perf/bare.c $(O)/common/bpf.o $(O)/common/xsk.o $(O)/common/nl.o
	@mkdir -p $(@D)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# netdev: the device settings wire mode needs (ethtool features, NAPI threads) through the
# kernel's ioctl, so the scripts need no ethtool; one file, no common/.
$(B)/netdev: tools/netdev.c
	@mkdir -p $(@D)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(LDLIBS) -o $@

# ladder: one drop point of scripts/reproduce cloudflare-2018 (XDP, tc, a socket filter, an
# unread socket; ceilings' XDP drop), held while the flood runs and counted; of common/ only the
# BPF assembler.
$(B)/ladder: tools/ladder.c $(O)/common/bpf.o $(O)/common/nl.o
	@mkdir -p $(@D)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The option tables of docs/manual.md and the man pages' OPTIONS lists, made again from the
# tools' option tables (blast/options.h, suck/options.h); tests/t_docs.sh fails until it is run.
docs: $(B)/blast $(B)/suck
	@sh tools/docs.sh $(B) .

# Unit tests link every object but the two mains.
$(B)/test_%: tests/unit/%.c $(COMMON_OBJ) $(SUCK_LIB) $(BLAST_LIB) tests/unit/unit.h
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) -Isuck -Iblast -Itests/unit $(LDFLAGS) $< $(COMMON_OBJ) $(SUCK_LIB) $(BLAST_LIB) $(LDLIBS) -o $@

# Test-only tools (tests/tools/NAME.c -> bin/NAME): hand-made datagrams for the hostile tests.
TOOL_BIN   := $(patsubst tests/tools/%.c,$(B)/%,$(wildcard tests/tools/*.c))
$(TOOL_BIN): $(B)/%: tests/tools/%.c $(COMMON_OBJ)
	@echo "  LD  $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $< $(COMMON_OBJ) $(LDLIBS) -o $@

unit: $(UNIT_BIN) $(TOOL_BIN)

# The README's test command. Its last line is "N passed, N failed".
# The build first, a job per CPU; then the tests.
test:
	@$(MAKE) --no-print-directory -j$(NPROC) all unit $(B)/bare
	@BIN=$(B) sh tests/run.sh

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer, in a separate build tree,
# then a valgrind memcheck of a short pair for every variant (plain build).
check: all
	$(MAKE) B=bin/san CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' test
	@BIN=$(B) sh tests/valgrind.sh

# A benchmark, not a test: tools beside bare loops, iperf3 and sockperf (about 8 minutes).
perf: all $(B)/bare
	@BIN=$(B) sh scripts/perf

# Where blast's and suck's CPU goes at the top end (perf record), and the copy-bound rate
# (about 20 s; needs perf).
profile: all $(B)/bare
	@BIN=$(B) sh scripts/profile

# libFuzzer (clang) on the receive path: FUZZ_SECONDS of fuzzing from the committed seeds.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
fuzz: $(B)/fuzz_rx
	@mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz_rx -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(B)/fuzz-corpus tests/fuzz/corpus

$(B)/fuzz_rx: tests/fuzz/fuzz_rx.c $(COMMON_SRC) $(filter-out suck/main.c,$(SUCK_SRC))
	@mkdir -p $(@D)
	@echo "  LD  $@"
	@$(FUZZ_CC) -std=gnu11 $(WARN) -O1 -g -D_GNU_SOURCE -Icommon -Isuck -pthread \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $^ -o $@

clean:
	rm -rf $(B)

-include $(wildcard $(O)/*/*.d $(O)/tests/unit/*.d)

# Every receive variant, 1 warm-up + 6 runs of 3 s each (6 so that the rank test in table.md can
# call a difference; README, make bench): under three minutes (scripts/suite says why).
bench: all
	sh scripts/suite

# The same on the wire (as root): suck and blast in two network namespaces joined by a veth pair,
# the receiving NAPI in a kernel thread on suck's CPU and counted (scripts/lib/wire.sh).
bench-wire: all
	sh scripts/suite --wire

# Six published tables beside this machine's (scripts/reproduce all): the 2014 lua-l post
# (3 variants x 3 runs x 10 s), the 2018 UDP GSO and UDP GRO commits (2 rows x 3 runs x 4 s
# each; gso-2018 sends into bare sink), sendmmsg 2011, Cloudflare 2015 and UDP MSG_ZEROCOPY's
# negative control (docs/experiments.md): about 7 min.
reproduce: all $(B)/bare
	@BIN=$(B) sh scripts/reproduce

# Zero-loss rate of every variant (RFC 2544 search, 2 s trials, 2 % resolution): 3 to 4 minutes.
ndr: all
	sh scripts/ndr

# Delivered against offered rate, every variant, 1 + 10 rates of 2 s: under 3 minutes.
sweep: all
	sh scripts/sweep rate

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the tools and their man pages, the GNU way.
# uninstall removes exactly those four files and leaves the directories, which may hold others.
# An empty PREFIX would put them in /bin and /share: refused before anything is built. Every
# path goes to the shell in single quotes, a ' in it as '\'', so a space or a quote in PREFIX
# or DESTDIR is just a character ($ is make's own: write $$).
PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
MAN1DIR  = $(PREFIX)/share/man/man1
INSTALL  = install
MAN1    := man/blast.1 man/suck.1
sq       = '$(subst ','\'',$(1))'
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
ifeq ($(strip $(PREFIX)),)
$(error PREFIX is empty: that would install into /bin and /share; give one, e.g. PREFIX=/usr/local)
endif
endif
.PHONY: install uninstall
install: all
	$(INSTALL) -d $(call sq,$(DESTDIR)$(BINDIR)) $(call sq,$(DESTDIR)$(MAN1DIR))
	$(INSTALL) -m 755 $(B)/blast $(B)/suck $(call sq,$(DESTDIR)$(BINDIR)/)
	$(INSTALL) -m 644 $(MAN1) $(call sq,$(DESTDIR)$(MAN1DIR)/)

uninstall:
	rm -f $(call sq,$(DESTDIR)$(BINDIR)/blast) $(call sq,$(DESTDIR)$(BINDIR)/suck) \
		$(foreach m,$(MAN1:man/%=%),$(call sq,$(DESTDIR)$(MAN1DIR)/$(m)))

# One-way delay against offered rate, every variant (sweep rate --latency), 1 + 8 rates of
# 1.5 s: under 3 minutes. Work histogram:8 (a consumer 8 times slower) puts every variant's knee
# within what blast offers on two CPUs (sendmmsg of 32 tops out near 300k datagrams/s into a live
# receiver), so the delay is seen to leave its floor where the queue starts to build.
latency: all
	sh scripts/sweep rate --latency -w histogram:8 --steps 8 -t 1.5

# Round trips alone and beside a flood into the same socket (suite --under-load): copy, buffer
# and mmsg, 1 warm-up + 6 rounds of both phases x 3 s: about 2 minutes.
underload: all
	sh scripts/suite --under-load
