# t/guard-fixture.sh - the machine the t/038x guard tests leave as found
# (sourced after t/tap.sh): an Ice Lake client as the real CPUID dump
# describes it, a state file standing in for its MSRs, a fake sysroot with
# the three settings baretma may change, and helpers to follow a run.
#
# Everything expected comes from these files, never from baretma:
#   - CPUs, arch perfmon version and GP counters from the dump's own
#     "CPUID 0000000A:" line (EAX[7:0] version, EAX[15:8] counters:
#     linux perf_event.h union cpuid10_eax) and its "Logical CPU #" sections;
#   - registers as firmware leaves them (linux arch/x86/kvm/pmu.c
#     kvm_pmu_refresh: "At RESET, [...] CPUs set all enable bits for general
#     purpose counters"; Intel PCM's cleanup leaves FC0-2 running):
#     PERFEVTSELx, PMCx, A_PMCx 0, FC0-2 counting OS+USR (IA32_FIXED_CTR_CTRL 0x333),
#     no overflow pending (IA32_PERF_GLOBAL_STATUS 0; _RESET and, arch
#     perfmon v4+, _SET present: linux msr-index.h),
#     GLOBAL_CTRL 0x70000000f (GP0-3, FC0-2), INUSE 0 (nothing in use);
#     FC3 0x100N on cpu N and PERF_METRICS 0x1f3a5c47 (stale counts);
#   - programmed values hand-worked from the kernel's order as in t/0320:
#     IA32_FIXED_CTR_CTRL (0x333 & ~0xf000) | 0x3 << 12 = 0x3333,
#     IA32_PERF_GLOBAL_CTRL 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f.
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

leafA=$(awk '/^CPUID 0000000A:/ { split($3, r, "-"); print r[1]; exit }' "$ICL")
VER=$((0x$(printf '%s' "$leafA" | cut -c7-8)))
GP=$((0x$(printf '%s' "$leafA" | cut -c5-6)))
NCPU=$(grep -c 'Logical CPU #' "$ICL")

BARETMA_MSR=state:$tmp/state
BARETMA_STATE_DIR=$tmp/run
BARETMA_SYSROOT=$tmp/root
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_SYSROOT
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_TEST_HOOKS

WD=$tmp/root/proc/sys/kernel/nmi_watchdog
RDPMC=$tmp/root/sys/bus/event_source/devices/cpu/rdpmc
ALLOW=$tmp/root/sys/module/msr/parameters/allow_writes

# gp_regs, sim_regs CPU: t/sim-regs.sh (sim_regs: the simulator's clean registers)
. "$T_SRC/sim-regs.sh"

# regs CPU: one CPU's registers as found (IA32_PMCx and its full-width
# alias IA32_A_PMCx too, 0: Ice Lake's recipe counts two events beside
# PERF_METRICS, msr/recipe/recipes_intel_pm.c)
regs() {
	gp_regs "$1"
	printf '%s 0x30c 0x%x\n%s 0x329 0x1f3a5c47\n%s 0x345 0xf4c5\n%s 0x38d 0x333\n' \
		"$1" $((0x1000 + $1)) "$1" "$1" "$1"
	printf '%s 0x38e 0x0\n%s 0x38f 0x70000000f\n%s 0x390 0x0\n%s 0x391 0x0\n%s 0x392 0x0\n' \
		"$1" "$1" "$1" "$1" "$1"
}

# sim_profile: the simulated PMU's profile of the sim tests (35/12/23/30 %
# level 1) over this test's state file $tmp/state, in $tmp/profile.
sim_profile() {
	printf 'retiring 35\nbad_speculation 12\nfrontend_bound 23\nbackend_bound 30\nstate %s\n' \
		"$tmp/state" >"$tmp/profile"
}

# sim_machine: that profile for the MSRs and perf_event, on the Ice Lake dump.
sim_machine() {
	sim_profile
	BARETMA_MSR=sim:$tmp/profile
	BARETMA_PERF=sim:$tmp/profile
	BARETMA_CPUID_DUMP=$ICL
	export BARETMA_MSR BARETMA_PERF BARETMA_CPUID_DUMP
}

# fixture: the state file of every CPU and the sysroot, with copies
# ($tmp/orig, $tmp/root.orig) to compare byte for byte; no journal.
fixture() {
	rm -f "$tmp/run/"*.journal
	c=0
	while [ "$c" -lt "$NCPU" ]; do regs "$c"; c=$((c + 1)); done >"$tmp/state"
	cp "$tmp/state" "$tmp/orig"
	rm -rf "$tmp/root" "$tmp/root.orig"
	mkdir -p "${WD%/*}" "${RDPMC%/*}" "${ALLOW%/*}"
	printf '1\n' >"$WD"
	printf '0\n' >"$RDPMC"
	printf 'off\n' >"$ALLOW"
	cp -a "$tmp/root" "$tmp/root.orig"
}

# edit FROM TO: replace the line FROM of the state file (fixture variants)
edit() {
	sed "s/^$1\$/$2/" "$tmp/state" >"$tmp/state.new" && mv "$tmp/state.new" "$tmp/state"
	cp "$tmp/state" "$tmp/orig"
}

same() { cmp -s "$1" "$2"; echo $?; }
same_root() { diff -r "$tmp/root" "$tmp/root.orig" >/dev/null 2>&1; echo $?; }
journals() { ls "$tmp/run" 2>/dev/null | grep 'journal$' | tr '\n' ' '; }

# until_true COND... (t/tap.sh) waits on the conditions below.
programmed() { grep -q "^$1 0x38d 0x3333\$" "$tmp/state"; }
journal_of() { [ -e "$tmp/run/run-$1.journal" ]; }

# hold_lock / release_lock: hold flock on the state file's directory, the
# lock the state backend takes around every write (msr/access/msr.h): a run then
# stops at its next MSR write until release_lock.
hold_lock() {
	rm -f "$tmp/go" "$tmp/locked"
	mkfifo "$tmp/go"
	# shared: a run's reads go on (they take the lock shared, msr/access/
	# msr_state.c), its first write waits
	flock -s "$tmp" sh -c ': >"$1/locked"; read x <"$1/go"' sh "$tmp" &
	lockpid=$!
	until_true test -e "$tmp/locked"
}
release_lock() {
	echo go >"$tmp/go"
	wait "$lockpid"
}

# tamper_fc3 CPU: another process clears fixed counter 3's field of CPU
# (0x3333 -> 0x333), replacing the file atomically under the directory lock
# as msr/access/msr.h asks of other writers.
tamper_fc3() {
	flock "$tmp" sh -c 'sed "s/^$2 0x38d 0x3333\$/$2 0x38d 0x333/" "$1/state" >"$1/state.w" &&
		mv "$1/state.w" "$1/state"' sh "$tmp" "$1"
}

# Signal numbers of x86 Linux (signal(7)): dash's kill -l does not map names.
signum() {
	case $1 in
	HUP) echo 1 ;; INT) echo 2 ;; QUIT) echo 3 ;; ILL) echo 4 ;; BUS) echo 7 ;;
	FPE) echo 8 ;; KILL) echo 9 ;; SEGV) echo 11 ;; TERM) echo 15 ;;
	esac
}
