/* netdev: the few device settings wire mode needs that iproute2's ip does not make, through the
 * kernel's ethtool ioctl (SIOCETHTOOL) and sched_setaffinity, so the scripts need no ethtool
 * program. Run inside the device's network namespace (ip netns exec NS netdev ...).
 *
 *   netdev features DEV                 every feature the device has, "name on|off [fixed]"
 *   netdev set DEV NAME on|off ...      set features by their kernel names (rx-gro,
 *                                       tx-udp-segmentation, ...); prints what the kernel kept
 *   netdev napi DEV                     pid and name of each threaded-NAPI kernel thread
 *   netdev pin DEV CPU                  pins each of them to CPU; prints how many
 *
 * Exit: 0 done; 1 a call failed (named, with errno); 2 bad usage; 4 the device or the kernel
 * lacks what was asked (no such feature, no NAPI thread), so scripts can skip. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

static int ethtool(int fd, const char *dev, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", dev);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

/* The feature names, in the kernel's order: n of them, ETH_GSTRING_LEN bytes each. */
static char *feature_names(int fd, const char *dev, unsigned *n)
{
	/* ethtool_sset_info ends in a flexible array: one __u32 after it, in a buffer of its own
	 * (a struct around it is a GNU extension that clang refuses under -Werror). */
	union { struct ethtool_sset_info hdr; __u32 w[sizeof(struct ethtool_sset_info) / 4 + 1]; } sset;
	struct ethtool_gstrings *gs;

	memset(&sset, 0, sizeof sset);
	sset.hdr.cmd = ETHTOOL_GSSET_INFO;
	sset.hdr.sset_mask = 1ull << ETH_SS_FEATURES;
	if (ethtool(fd, dev, &sset) < 0 || !sset.hdr.sset_mask)
		return NULL;
	*n = sset.hdr.data[0];
	gs = calloc(1, sizeof *gs + (size_t)*n * ETH_GSTRING_LEN);
	if (!gs)
		return NULL;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = *n;
	if (ethtool(fd, dev, gs) < 0) {
		free(gs);
		return NULL;
	}
	memmove(gs, gs->data, (size_t)*n * ETH_GSTRING_LEN);
	return (char *)gs;
}

static struct ethtool_gfeatures *get_features(int fd, const char *dev, unsigned n)
{
	unsigned blocks = (n + 31) / 32;
	struct ethtool_gfeatures *gf = calloc(1, sizeof *gf + blocks * sizeof gf->features[0]);

	if (!gf)
		return NULL;
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	if (ethtool(fd, dev, gf) < 0) {
		free(gf);
		return NULL;
	}
	return gf;
}

static int bit(const struct ethtool_gfeatures *gf, unsigned i, int which)
{
	const struct ethtool_get_features_block *b = &gf->features[i / 32];
	__u32 m = 1u << (i % 32);

	return !!((which == 0 ? b->active : which == 1 ? b->available : b->never_changed) & m);
}

static int features(int fd, const char *dev, int argc, char **argv, int set)
{
	unsigned n, blocks;
	char *names = feature_names(fd, dev, &n);
	struct ethtool_gfeatures *gf;
	int rc = 0;

	if (!names) {
		fprintf(stderr, "netdev: ETHTOOL_GSTRINGS on %s: %s\n", dev, strerror(errno));
		return errno == ENODEV ? 4 : 1;
	}
	gf = get_features(fd, dev, n);
	if (!gf) {
		fprintf(stderr, "netdev: ETHTOOL_GFEATURES on %s: %s\n", dev, strerror(errno));
		free(names);
		return 1;
	}
	blocks = (n + 31) / 32;
	if (set) {
		struct ethtool_sfeatures *sf = calloc(1, sizeof *sf + blocks * sizeof sf->features[0]);
		if (!sf)
			return 1;
		sf->cmd = ETHTOOL_SFEATURES;
		sf->size = blocks;
		for (int a = 0; a + 1 < argc; a += 2) {
			unsigned i;
			int on = strcmp(argv[a + 1], "on") == 0;
			if (!on && strcmp(argv[a + 1], "off") != 0) {
				fprintf(stderr, "netdev: '%s': on or off\n", argv[a + 1]);
				return 2;
			}
			for (i = 0; i < n && strncmp(names + i * ETH_GSTRING_LEN, argv[a], ETH_GSTRING_LEN); i++)
				;
			if (i == n || !bit(gf, i, 1)) {
				fprintf(stderr, "netdev: %s has no changeable feature %s\n", dev, argv[a]);
				rc = 4;
				continue;
			}
			sf->features[i / 32].valid |= 1u << (i % 32);
			if (on)
				sf->features[i / 32].requested |= 1u << (i % 32);
		}
		if ((argc % 2) != 0) {
			fprintf(stderr, "netdev: set DEV NAME on|off ...\n");
			return 2;
		}
		/* A positive return says some request was not taken as asked: the list below tells. */
		if (ethtool(fd, dev, sf) < 0) {
			fprintf(stderr, "netdev: ETHTOOL_SFEATURES on %s: %s\n", dev, strerror(errno));
			return 1;
		}
		free(sf);
		free(gf);
		gf = get_features(fd, dev, n);
		if (!gf)
			return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		const char *name = names + i * ETH_GSTRING_LEN;
		int wanted = !set;
		for (int a = 0; set && a + 1 < argc; a += 2)
			wanted |= strncmp(name, argv[a], ETH_GSTRING_LEN) == 0;
		if (*name && wanted)
			printf("%.*s %s%s\n", ETH_GSTRING_LEN, name, bit(gf, i, 0) ? "on" : "off",
			       bit(gf, i, 1) ? "" : " [fixed]");
	}
	free(gf);
	free(names);
	return rc;
}

/* Each kernel thread "napi/DEV-ID" (threaded NAPI, /sys/class/net/DEV/threaded): calls fn on
 * its pid; returns how many there were, -1 when /proc cannot be read. */
static int each_napi(const char *dev, int (*fn)(int pid, const char *comm, void *arg), void *arg)
{
	char want[64], path[300], comm[64];
	DIR *d = opendir("/proc");
	struct dirent *e;
	int count = 0;

	if (!d)
		return -1;
	snprintf(want, sizeof want, "napi/%s-", dev);
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof comm, f)) {
			comm[strcspn(comm, "\n")] = 0;
			/* comm holds 15 characters: a long DEV is cut, compare what is there */
			size_t k = strlen(want) < strlen(comm) ? strlen(want) : strlen(comm);
			if (strncmp(comm, want, k) == 0 && strncmp(comm, "napi/", 5) == 0 && k >= 6) {
				count++;
				if (fn && fn(atoi(e->d_name), comm, arg) < 0)
					count = -1000000;
			}
		}
		fclose(f);
	}
	closedir(d);
	return count < 0 ? -1 : count;
}

static int print_napi(int pid, const char *comm, void *arg)
{
	(void)arg;
	printf("%d %s\n", pid, comm);
	return 0;
}

static int pin_napi(int pid, const char *comm, void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(*(int *)arg, &set);
	if (sched_setaffinity(pid, sizeof set, &set) < 0) {
		fprintf(stderr, "netdev: sched_setaffinity %s (%d): %s\n", comm, pid, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: netdev features DEV | set DEV NAME on|off ... | napi DEV | pin DEV CPU\n");
		return 2;
	}
	if (strlen(argv[2]) >= IFNAMSIZ) {
		fprintf(stderr, "netdev: '%s': a device name is at most %d characters\n", argv[2], IFNAMSIZ - 1);
		return 2;
	}
	if (strcmp(argv[1], "napi") == 0 || strcmp(argv[1], "pin") == 0) {
		int cpu = 0, n;
		char *end;
		if (argv[1][0] == 'p') {
			if (argc != 4 || (cpu = (int)strtol(argv[3], &end, 10)) < 0 || *end || end == argv[3] ||
			    cpu >= CPU_SETSIZE) {
				fprintf(stderr, "netdev: pin DEV CPU\n");
				return 2;
			}
		}
		n = each_napi(argv[2], argv[1][0] == 'p' ? pin_napi : print_napi, &cpu);
		if (n < 0)
			return 1;
		if (n == 0) {
			fprintf(stderr, "netdev: %s has no NAPI kernel thread (is /sys/class/net/%s/threaded 1?)\n",
				argv[2], argv[2]);
			return 4;
		}
		if (argv[1][0] == 'p')
			printf("%d\n", n);
		return 0;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("netdev: socket");
		return 1;
	}
	if (strcmp(argv[1], "features") == 0 && argc == 3)
		return features(fd, argv[2], 0, NULL, 0);
	if (strcmp(argv[1], "set") == 0 && argc >= 5)
		return features(fd, argv[2], argc - 3, argv + 3, 1);
	fprintf(stderr, "usage: netdev features DEV | set DEV NAME on|off ... | napi DEV | pin DEV CPU\n");
	return 2;
}
