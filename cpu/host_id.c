/*
 * cpu/host_id.c - the host's name and machine ID (cpu/host_id.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cpu/cpu.h"
#include "cpu/host_id.h"

int cpu_machine_id_valid(const char *s)
{
	size_t i;

	for (i = 0; i < CPU_MACHINE_ID_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[CPU_MACHINE_ID_LEN] == '\0';
}

int cpu_host_id_read(struct cpu_host_id *out)
{
	/* One byte more than an ID and its NUL, so that a longer line is seen
	 * as longer (and refused) rather than cut to 32 digits. */
	char line[CPU_MACHINE_ID_LEN + 3];
	struct utsname u;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (uname(&u) < 0)
		rc = -errno;
	else
		snprintf(out->hostname, sizeof(out->hostname), "%s", u.nodename);
	if (cpu_sysfs_read_line("/etc/machine-id", line, sizeof(line)) == 0 &&
	    cpu_machine_id_valid(line))
		memcpy(out->machine_id, line, CPU_MACHINE_ID_LEN + 1);
	return rc;
}
