// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-socctl: send one command to a running SoC model's control
 * socket and print the reply.
 *
 *   ampsoc-socctl SOCKET.ctl state|violations|energy|timeline|report|quit
 *   ampsoc-socctl SOCKET.ctl fault stuck l4per
 *
 * Exit status: 0, 1 if the model answered "error: ...", 2 if it could not
 * be reached.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char cmd[512] = "", buf[4096];
	size_t len = 0;
	bool first = true, error = false;
	ssize_t n;
	int i, s;

	if (argc < 3) {
		fprintf(stderr, "usage: %s CONTROL_SOCKET COMMAND [ARG...]\n",
			argv[0]);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		int w = snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
				 i > 2 ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(cmd) - len - 1) {
			fprintf(stderr, "%s: command too long\n", argv[0]);
			return 2;
		}
		len += w;
	}
	cmd[len++] = '\n';
	if (strlen(argv[1]) >= sizeof(a.sun_path)) {
		fprintf(stderr, "%s: socket path too long\n", argv[0]);
		return 2;
	}
	strcpy(a.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1],
			strerror(errno));
		return 2;
	}
	if (write(s, cmd, len) != (ssize_t)len) {
		fprintf(stderr, "%s: write: %s\n", argv[0], strerror(errno));
		return 2;
	}
	while ((n = read(s, buf, sizeof(buf))) > 0) {
		if (first && n >= 6 && !memcmp(buf, "error:", 6))
			error = true;
		first = false;
		fwrite(buf, 1, n, stdout);
	}
	close(s);
	return error ? 1 : 0;
}
