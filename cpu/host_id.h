/*
 * cpu/host_id.h - which host wrote a file: its hostname and its machine ID,
 * so that `baretma report` tells hosts apart by what each file says of
 * itself, never by the file's name or directory.
 *
 *  - hostname: uname(2)'s nodename, the host's name in its UTS namespace
 *    (uts_namespaces(7); what hostname(1) prints and sets).  Labs name
 *    their nodes by it (Slurm's NodeName is the short hostname, slurm.conf(5)).
 *  - machine ID: /etc/machine-id, "a single newline-terminated, hexadecimal,
 *    32-character, lowercase ID" (machine-id(5)), unique per installation,
 *    so two hosts given the same hostname by mistake still differ.  Read
 *    under $BARETMA_SYSROOT (cpu/sysfs.c) so a test can give each simulated
 *    host its own; a file that is absent, unreadable or not of that form
 *    gives no machine ID (never a guess).
 * Library code: never prints; 0 or -errno.
 */
#ifndef BARETMA_HOST_ID_H
#define BARETMA_HOST_ID_H

#define CPU_HOSTNAME_MAX 65   /* HOST_NAME_MAX (64, limits.h) + NUL */
#define CPU_MACHINE_ID_LEN 32 /* hex digits of machine-id(5) */

struct cpu_host_id {
	char hostname[CPU_HOSTNAME_MAX];          /* raw bytes, NUL-ended, may be "" */
	char machine_id[CPU_MACHINE_ID_LEN + 1];  /* 32 lowercase hex digits, or "" */
};

/*
 * cpu_host_id_read - this host's identity into *@out (both fields always
 * NUL-ended; "" where unknown).  Returns 0, or -errno of uname(2) (hostname
 * ""); an absent or malformed machine-id is not an error (machine_id "").
 */
int cpu_host_id_read(struct cpu_host_id *out);

/* cpu_machine_id_valid - @s is machine-id(5)'s form: exactly 32 lowercase
 * hexadecimal digits (the newline already removed). */
int cpu_machine_id_valid(const char *s);

#endif
