/* SPDX-License-Identifier: MIT */
/* Benchmark code that hunts for the CI's tokens: from its own process up
 * to pid 1 (each one's parent from /proc/PID/stat), reads every process's
 * environment (/proc/PID/environ) and reports each variable whose value is
 * one of the tokens listed in the file argv[1].  Writes to argv[2]
 * "process PID COMM" for each process it visits, "found PID COMM NAME"
 * for each token it finds, "unreadable PID COMM" where it could not look.
 * A pull request's benchmark can do all of this (tests/cli/ci_secrets.sh):
 * no process it descends from may hold a token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tokens[16][256];
static char env[1 << 20];

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int nt = 0;
	FILE *f = fopen(argv[1], "r");
	while (f && nt < 16 && fgets(tokens[nt], sizeof tokens[nt], f))
		if ((tokens[nt][strcspn(tokens[nt], "\n")] = '\0', tokens[nt][0]))
			nt++;
	if (f)
		fclose(f);
	FILE *out = fopen(argv[2], "w");
	if (!out)
		return 2;
	for (int pid = getpid(); pid > 0;) {
		char path[64], stat[1024], comm[64];
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		if (!(f = fopen(path, "r")))
			break;
		size_t n = fread(stat, 1, sizeof stat - 1, f);
		fclose(f);
		stat[n] = '\0';
		/* "PID (COMM) STATE PPID ...": COMM may hold anything, ')' too. */
		char *open = strchr(stat, '('), *close = strrchr(stat, ')');
		if (!open || !close || close < open)
			break;
		snprintf(comm, sizeof comm, "%.*s", (int)(close - open - 1), open + 1);
		fprintf(out, "process %d %s\n", pid, comm);
		snprintf(path, sizeof path, "/proc/%d/environ", pid);
		if (!(f = fopen(path, "r"))) {
			fprintf(out, "unreadable %d %s\n", pid, comm);
		} else {
			n = fread(env, 1, sizeof env - 1, f);
			fclose(f);
			env[n] = '\0';
			for (char *v = env; v < env + n; v += strlen(v) + 1) {
				char *eq = strchr(v, '=');
				for (int i = 0; eq && i < nt; i++)
					if (!strcmp(eq + 1, tokens[i]))
						fprintf(out, "found %d %s %.*s\n", pid, comm, (int)(eq - v), v);
			}
		}
		pid = pid == 1 ? 0 : atoi(close + 4);
	}
	fclose(out);
	return 0;
}
