/*
 * t/0100-topdown-decode - PERF_METRICS decoding against vectors worked by
 * hand from the kernel's formula (pmu-reference §1.5, §3.3; linux
 * tools/perf/Documentation/topdown.txt).  The arithmetic is in the comments.
 */
#include <errno.h>
#include <string.h>

#include "msr/topdown.h"
#include "t/tap.h"

#define EPS 1e-9

/*
 * Vector 1: one level-1+2 value.
 *   byte 0 Retiring        0x66 = 102   byte 4 Heavy Ops        0x22 = 34
 *   byte 1 Bad Speculation 0x1A =  26   byte 5 Branch Mispredict 0x14 = 20
 *   byte 2 Frontend Bound  0x33 =  51   byte 6 Fetch Latency    0x20 = 32
 *   byte 3 Backend Bound   0x4C =  76   byte 7 Memory Bound     0x30 = 48
 *   level-1 sum = 102 + 26 + 51 + 76 = 255 (no flag)
 *   value = 0x30201422_4C331A66
 */
static void vector_value(void)
{
	struct td_result r;
	uint8_t f[TD_NFIELDS];

	td_fields(0x302014224C331A66ull, f);
	check_u64(f[0], ==, 0x66, "byte 0 is Retiring");
	check_u64(f[7], ==, 0x30, "byte 7 is Memory Bound");

	ok(td_decode_value(0x302014224C331A66ull, 1000000, 2, &r) == 0, "decode level 2");
	check_dbl(r.frac[TMA_RETIRING], 102.0 / 255, EPS, "tma_retiring = 102/255 = 0.4");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 26.0 / 255, EPS, "tma_bad_speculation = 26/255");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 0.2, EPS, "tma_frontend_bound = 51/255 = 0.2");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 76.0 / 255, EPS, "tma_backend_bound = 76/255");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 34.0 / 255, EPS, "tma_heavy_operations = 34/255");
	/* derived: Light = Retiring - Heavy = (102 - 34)/255 = 68/255 */
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 68.0 / 255, EPS, "tma_light_operations = 68/255");
	check_dbl(r.frac[TMA_BRANCH_MISPREDICTS], 20.0 / 255, EPS, "tma_branch_mispredicts = 20/255");
	/* Machine Clears = 26 - 20 = 6 */
	check_dbl(r.frac[TMA_MACHINE_CLEARS], 6.0 / 255, EPS, "tma_machine_clears = 6/255");
	check_dbl(r.frac[TMA_FETCH_LATENCY], 32.0 / 255, EPS, "tma_fetch_latency = 32/255");
	/* Fetch Bandwidth = 51 - 32 = 19 */
	check_dbl(r.frac[TMA_FETCH_BANDWIDTH], 19.0 / 255, EPS, "tma_fetch_bandwidth = 19/255");
	check_dbl(r.frac[TMA_MEMORY_BOUND], 48.0 / 255, EPS, "tma_memory_bound = 48/255");
	/* Core Bound = 76 - 48 = 28 */
	check_dbl(r.frac[TMA_CORE_BOUND], 28.0 / 255, EPS, "tma_core_bound = 28/255");
	/* slots of Retiring = 1e6 * 102 / 255 = 400000 exactly */
	check_dbl(r.field_slots[TD_RETIRING], 400000.0, EPS, "Retiring slots = 1e6*102/255 = 400000");
	check_dbl(r.bound, 1.0 / 255, EPS, "bound is one LSB = 1/255");
	check_u64(r.flags, ==, 0, "no flags on a consistent value");

	ok(td_decode_value(0x302014224C331A66ull, 0, 1, &r) == 0, "decode level 1");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 0, 0, "level 1 leaves level-2 nodes empty");
	ok(td_decode_value(0, 0, 3, &r) == -EINVAL, "level 3 is -EINVAL");
}

/*
 * Vector 2: a region delta (the kernel's topdown.txt method).
 *   a: slots 1000,   bytes R 0x80=128 BS 0x20=32 FE 0x40=64 BE 0x1F=31 (sum 255)
 *   b: slots 101000, bytes R 0x33=51  BS 0x33=51 FE 0x33=51 BE 0x66=102 (sum 255)
 *   Retiring: 101000*51/255 - 1000*128/255 = 20200 - 501.960784 = 19698.039216
 *             / (101000 - 1000) = 0.19698039216
 *   Bad Spec: 20200 - 1000*32/255 (125.490196) = 20074.509804 -> 0.20074509804
 *   FE:       20200 - 1000*64/255 (250.980392) = 19949.019608 -> 0.19949019608
 *   BE:       40400 - 1000*31/255 (121.568627) = 40278.431373 -> 0.40278431373
 *   bound:    (1000 + 101000) / (255 * 100000) = 0.004 (0.4 percentage points)
 *   The naive byte ratio of b alone would say Retiring 0.2: wrong by 0.003.
 */
static void vector_region(void)
{
	struct td_result r;

	ok(td_decode_region(1000, 0x1F402080ull, 101000, 0x66333333ull, 1, &r) == 0,
	   "region decode");
	check_dbl(r.slots, 100000, 0, "slots delta 100000");
	check_dbl(r.frac[TMA_RETIRING], 0.19698039216, 1e-10, "region tma_retiring");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 0.20074509804, 1e-10, "region tma_bad_speculation");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 0.19949019608, 1e-10, "region tma_frontend_bound");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 0.40278431373, 1e-10, "region tma_backend_bound");
	check_dbl(r.field_slots[TD_BE_BOUND], 40278.431373, 1e-6, "region Backend Bound slots");
	check_dbl(r.bound, 0.004, 1e-12, "quantisation bound 0.004");
	check_u64(r.flags, ==, 0, "consistent region: no flags");
}

/* Vector 3: every flag, each from a value built to raise exactly it. */
static void vector_flags(void)
{
	struct td_result r;
	char text[256];

	/* bytes 0x10 x4: sum 64, not 255 */
	td_decode_value(0x10101010ull, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_L1_SUM, "sum 64 flags L1_SUM");
	/* sum 254 and 256 are within +/-1: 0x7F+0x7F+0+0 = 254 */
	td_decode_value(0x00007F7Full, 0, 1, &r);
	check_u64(r.flags, ==, 0, "sum 254 is within +/-1");
	/* Retiring 0x10 (16) but Heavy Ops 0x20 (32): child above parent */
	td_decode_value(0x00000020EF000010ull, 0, 2, &r);
	check_u64(r.flags & TD_FLAG_L2_ABOVE, ==, TD_FLAG_L2_ABOVE, "Heavy Ops 32 > Retiring 16 flags L2_ABOVE");
	/* same value at level 1: level-2 bytes are not looked at */
	td_decode_value(0x00000020EF000010ull, 0, 1, &r);
	check_u64(r.flags, ==, 0, "level 1 ignores level-2 bytes");
	/* zero slots delta */
	td_decode_region(5000, 0xFFull, 5000, 0xFFull, 1, &r);
	check_u64(r.flags & TD_FLAG_ZERO_SLOTS, ==, TD_FLAG_ZERO_SLOTS, "equal slots flag ZERO_SLOTS");
	check_dbl(r.frac[TMA_RETIRING], 0, 0, "no fraction from zero slots");
	/* a: 1000 slots all Retiring (1000 slots); b: 1010 slots all Backend:
	 * Retiring delta = 0 - 1000 = -1000 < 0 */
	td_decode_region(1000, 0xFFull, 1010, 0xFF000000ull, 1, &r);
	check_u64(r.flags & TD_FLAG_NEGATIVE, ==, TD_FLAG_NEGATIVE, "retiring fell: NEGATIVE");
	td_decode_region(2000, 0xFFull, 1000, 0xFFull, 1, &r);
	check_u64(r.flags & TD_FLAG_SLOTS_BACK, ==, TD_FLAG_SLOTS_BACK, "slots fell: SLOTS_BACK");
	/* a reset reading (0 slots, 0 metrics) at the start is not a bad sum */
	td_decode_region(0, 0, 255, 0xFFull, 1, &r);
	check_u64(r.flags, ==, 0, "start from reset is clean");
	check_dbl(r.frac[TMA_RETIRING], 1.0, EPS, "all slots retiring from reset");
	check_dbl(r.bound, 1.0 / 255, EPS, "bound from reset is one LSB");
	td_flag_text(TD_FLAG_L1_SUM | TD_FLAG_ZERO_SLOTS, text, sizeof(text));
	check_str(text, "level-1 fields do not sum to 255 (+/-1); zero slots in the region",
		  "flag text joins with '; '");
}

static void names(void)
{
	check_str(td_metric_name(TMA_RETIRING), "tma_retiring", "perf name of retiring");
	check_str(td_metric_name(TMA_CORE_BOUND), "tma_core_bound", "perf name of core bound");
	check_int(td_metric_parent(TMA_MACHINE_CLEARS), ==, TMA_BAD_SPECULATION,
		  "machine clears is under bad speculation");
	check_int(td_metric_level(TMA_FETCH_BANDWIDTH), ==, 2, "fetch bandwidth is level 2");
}

int main(void)
{
	vector_value();
	vector_region();
	vector_flags();
	names();
	return done_testing();
}
