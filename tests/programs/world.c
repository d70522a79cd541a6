/* SPDX-License-Identifier: MIT */
/* What a program reads of its world (tests/cli/engine_world.sh), by mode:
 *
 *   descriptors  its own file, through descriptor numbers that were host
 *                files the engine virtualises (dup2, dup3, close_range,
 *                F_DUPFD)
 *   reads        /proc/loadavg and /proc/uptime, by every path to them and
 *                every way of reading them
 *   random       /dev/urandom and /dev/random, by every way of reading
 *   state        the host's state that changes between runs: its own
 *                process's times, the machine's CPU times, boot, memory,
 *                a UUID, the kernel's NTP state, a new file's times and
 *                old ones' (from-2010 and from-2024, if there)
 *   rdrand       rdrand and rdseed, and what cpuid says of them */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static const char data[] = "the program's own data, not the host's\n";

/* What fd reads from where it is, up to n bytes, as text. */
static void show(const char *what, int fd, size_t n)
{
	char buf[256] = "";
	ssize_t got = read(fd, buf, n < sizeof buf - 1 ? n : sizeof buf - 1);
	buf[got > 0 ? got : 0] = 0;
	printf("%s: %zd %s", what, got, buf);
	if (got <= 0 || buf[got - 1] != '\n')
		printf("\n");
}

static int own_file(void)
{
	int fd = open("data.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, sizeof data - 1) != sizeof data - 1)
		exit(1);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static void descriptors(void)
{
	int r = open("/dev/urandom", O_RDONLY), f = own_file();
	dup2(f, r);
	show("dup2 over /dev/urandom", r, 100);
	close(r);
	r = open("/proc/loadavg", O_RDONLY);
	lseek(f, 0, SEEK_SET);
	dup3(f, r, O_CLOEXEC);
	show("dup3 over /proc/loadavg", r, 100);
	close(r);
	close(f);
	r = open("/proc/loadavg", O_RDONLY);
	close_range(r, r, 0);
	f = own_file();
	printf("the same number again: %d\n", f == r);
	show("after close_range", f, 100);
	close(f);
	r = open("/dev/urandom", O_RDONLY);
	f = own_file();
	close(r);
	int d = fcntl(f, F_DUPFD, r);
	lseek(d, 0, SEEK_SET);
	show("F_DUPFD onto /dev/urandom's number", d, 100);
	close(d);
	close(f);
}

static void reads(void)
{
	static const char *const paths[] = {"/proc/loadavg", "/proc//loadavg", "/proc/self/../loadavg"};
	char buf[128];
	for (int i = 0; i < 3; i++) {
		int fd = open(paths[i], O_RDONLY);
		show(paths[i], fd, 100);
		lseek(fd, 0, SEEK_SET);
		show("... lseek and read", fd, 100);
		ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
		buf[n > 0 ? n : 0] = 0;
		printf("... pread: %s", buf);
		int d = dup(fd);
		lseek(d, 0, SEEK_SET);
		show("... dup", d, 100);
		close(d);
		close(fd);
	}
	int fd = open("/proc/loadavg", O_RDONLY);
	char a[5] = "", b[64] = "";
	struct iovec iov[2] = {{a, 4}, {b, sizeof b - 1}};
	ssize_t n = readv(fd, iov, 2);
	printf("readv: %zd %s|%s", n, a, b);
	memset(a, 0, sizeof a), memset(b, 0, sizeof b);
	n = preadv(fd, iov, 2, 5);
	printf("preadv at 5: %zd %s|%s", n, a, b);
	int p[2];
	if (pipe(p) == 0) {
		off_t off = 0;
		n = sendfile(p[1], fd, &off, 100);
		printf("sendfile: %zd\n", n);
		if (n > 0)
			show("... through a pipe", p[0], (size_t)n);
	}
	close(fd);
	int dir = open("/proc", O_RDONLY | O_DIRECTORY);
	fd = openat(dir, "uptime", O_RDONLY);
	show("openat(/proc, uptime)", fd, 100);
	fd = open("/proc/loadavg", O_RDONLY);
	n = read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	double load = strtod(buf, NULL);
	printf("load %.2f, %s\n", load, load == 0 ? "none" : "some");
}

/* Field n (from 1) of /proc/self/stat. */
static unsigned long long stat_field(const char *text, int n)
{
	const char *p = strrchr(text, ')');
	for (int field = 2; p && field < n; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

static void read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
}

static unsigned long long meminfo(const char *text, const char *name)
{
	const char *p = strstr(text, name);
	return p ? strtoull(p + strlen(name) + 1, NULL, 10) : 0;
}

static void state(void)
{
	static char buf[65536];
	read_file("/proc/self/stat", buf, sizeof buf);
	printf("/proc/self/stat: utime %llu stime %llu starttime %llu\n", stat_field(buf, 14), stat_field(buf, 15),
	       stat_field(buf, 22));
	read_file("/proc/self/schedstat", buf, sizeof buf);
	printf("/proc/self/schedstat: %s", buf);
	read_file("/proc/stat", buf, sizeof buf);
	printf("/proc/stat: %.*s", (int)(strchr(buf, '\n') + 1 - buf), buf);
	printf("... %s", strstr(buf, "btime"));
	read_file("/proc/meminfo", buf, sizeof buf);
	printf("/proc/meminfo: all free %d\n", meminfo(buf, "MemFree:") == meminfo(buf, "MemTotal:") &&
						       meminfo(buf, "MemAvailable:") == meminfo(buf, "MemTotal:"));
	struct sysinfo si;
	sysinfo(&si);
	printf("sysinfo: all free %d\n", si.freeram == si.totalram && si.freeswap == si.totalswap);
	read_file("/proc/sys/kernel/random/uuid", buf, sizeof buf);
	printf("uuid: %s", buf);
	struct timex tx = {0};
	int state = adjtimex(&tx);
	time_t now = time(NULL);
	printf("adjtimex: %d, %ld s from time(), offset %ld, maxerror %ld\n", state, (long)(tx.time.tv_sec - now),
	       tx.offset, tx.maxerror);
	struct ntptimeval ntv;
	state = ntp_gettime(&ntv);
	printf("ntp_gettime: %d, %ld s from time()\n", state, (long)(ntv.time.tv_sec - time(NULL)));
	int fd = own_file();
	struct stat a, b, c;
	struct statx x;
	syscall(SYS_fstat, fd, &a);
	stat("data.txt", &b);
	fstatat(AT_FDCWD, "data.txt", &c, 0);
	statx(AT_FDCWD, "data.txt", 0, STATX_MTIME, &x);
	now = time(NULL);
	printf("a new file: mtime %lld.%09ld, %lld s before time(); the same in stat, fstatat and statx: %d\n",
	       (long long)a.st_mtime, a.st_mtim.tv_nsec, (long long)(now - a.st_mtime),
	       a.st_mtime == b.st_mtime && a.st_mtime == c.st_mtime && a.st_mtime == x.stx_mtime.tv_sec &&
		       a.st_mtim.tv_nsec == (long)x.stx_mtime.tv_nsec);
	close(fd);
	/* Files the test made before the run, dated 2010 and 2024. */
	static const char *const old[] = {"from-2010", "from-2024"};
	for (int i = 0; i < 2; i++)
		if (stat(old[i], &a) == 0)
			printf("%s: mtime %lld.%09ld\n", old[i], (long long)a.st_mtime, a.st_mtim.tv_nsec);
}

static void rdrand(void)
{
	unsigned a, b, c, d;
	__cpuid(1, a, b, c, d);
	printf("cpuid: rdrand %u", c >> 30 & 1);
	__cpuid_count(7, 0, a, b, c, d);
	printf(" rdseed %u\n", b >> 18 & 1);
	uint64_t q;
	uint32_t l;
	uint16_t w;
	unsigned char ok[4];
	__asm__ volatile("rdrand %0; setc %1" : "=r"(q), "=qm"(ok[0]));
	__asm__ volatile("rdrand %0; setc %1" : "=r"(l), "=qm"(ok[1]));
	__asm__ volatile("rdrand %0; setc %1" : "=r"(w), "=qm"(ok[2]));
	printf("rdrand: %016llx %08x %04x, carry %d %d %d\n", (unsigned long long)q, l, w, ok[0], ok[1], ok[2]);
	__asm__ volatile("rdseed %0; setc %1" : "=r"(q), "=qm"(ok[3]));
	printf("rdseed: %016llx, carry %d\n", (unsigned long long)q, ok[3]);
}

/* n bytes as hex. */
static void hex(const char *what, const unsigned char *p, ssize_t n)
{
	printf("%s: %zd ", what, n);
	for (ssize_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static void random_reads(void)
{
	unsigned char buf[16], more[8];
	int fd = open("/dev/urandom", O_RDONLY);
	hex("read", buf, read(fd, buf, 8));
	hex("pread", buf, pread(fd, buf, 8, 0));
	struct iovec iov[2] = {{buf, 4}, {more, 4}};
	ssize_t n = readv(fd, iov, 2);
	hex("readv", buf, n > 4 ? 4 : n);
	hex("... its second buffer", more, n > 4 ? n - 4 : 0);
	hex("preadv2", buf, preadv2(fd, iov, 1, -1, 0));
	int d = dup(fd);
	hex("dup", buf, read(d, buf, 8));
	int p[2];
	if (pipe(p) == 0) {
		n = sendfile(p[1], fd, NULL, 8);
		printf("sendfile: %zd %s\n", n, n < 0 ? strerror(errno) : "");
		if (n > 0)
			hex("... through a pipe", buf, read(p[0], buf, (size_t)n));
	}
	fd = open("/dev/random", O_RDONLY);
	hex("/dev/random", buf, read(fd, buf, 8));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "descriptors") == 0)
		descriptors();
	else if (strcmp(mode, "reads") == 0)
		reads();
	else if (strcmp(mode, "random") == 0)
		random_reads();
	else if (strcmp(mode, "state") == 0)
		state();
	else if (strcmp(mode, "rdrand") == 0)
		rdrand();
	else
		return 2;
	return 0;
}
