/*
 * t/0100-topdown-decode - PERF_METRICS decoding against vectors worked by
 * hand from the kernel's formula (linux arch/x86/events/intel/core.c
 * icl_get_metrics_event_value; arch/x86/include/asm/perf_event.h
 * INTEL_PMC_IDX_TD_*; tools/perf/Documentation/topdown.txt).  The arithmetic is in the comments.
 */
#include <errno.h>
#include <string.h>

#include "msr/recipe/topdown.h"
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
	/* sum 254 is within the rounding (|S - 255| <= 3, topdown.h): no error,
	 * only the note that it was normalised.  0x7F+0x7F+0+0 = 254 */
	td_decode_value(0x00007F7Full, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_NORMALISED, "sum 254 is within the rounding: normalised only");
	/* the edges of the tolerance: 252 and 258 normalised, 251 and 259 bad.
	 * 0xFC = 252; 0xFC+0x06 = 258 (bytes 0 and 1); 0xFB = 251; 0xFC+0x07 = 259 */
	td_decode_value(0xFCull, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_NORMALISED, "sum 252 (255 - 3) is rounding");
	td_decode_value(0x06FCull, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_NORMALISED, "sum 258 (255 + 3) is rounding");
	td_decode_value(0xFBull, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_L1_SUM, "sum 251 cannot come from rounding: L1_SUM");
	td_decode_value(0x07FCull, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_L1_SUM, "sum 259 cannot come from rounding: L1_SUM");
	/* a level-2 byte one above its parent is rounding (TD_L2_ABOVE_TOLERANCE):
	 * Retiring 0x10 (16), Heavy Ops 0x11 (17); level 1 sums to 255 */
	td_decode_value(0x00000011EF000010ull, 0, 2, &r);
	check_u64(r.flags, ==, 0, "Heavy Ops 17 vs Retiring 16: within the rounding, no flag");
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
	/* the reset value at the end with no slot counted: zero slots only */
	td_decode_region(0, 0, 0, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_ZERO_SLOTS, "reset to reset: ZERO_SLOTS, not a bad sum");
	/* an all-zero value at the end after slots were counted is a bad reading */
	td_decode_region(0, 0, 1000, 0, 1, &r);
	check_u64(r.flags, ==, TD_FLAG_L1_SUM, "slots but no metrics at the end: L1_SUM");
	td_flag_text(TD_FLAG_L1_SUM | TD_FLAG_ZERO_SLOTS, text, sizeof(text));
	check_str(text, "level-1 fields do not sum to 255 (+/-3, the rounding); zero slots in the region",
		  "flag text joins with '; '");
	check_str(td_flag_name(TD_FLAG_L2_ABOVE), "l2_above_parent", "short name of L2_ABOVE");
	ok(td_flag_name(0x40) == NULL, "no name for a bit that is no flag");
}

/*
 * Vector 4: normalisation of one value (PCM, perf: field / sum of the four
 * level-1 fields).  Bytes R 100 (0x64), BS 20 (0x14), FE 60 (0x3C), BE 77
 * (0x4D): S = 257, within the rounding.  Heavy Ops 30 (0x1E).
 *   tma_retiring = 100/257 = 0.389105058; bad spec 20/257 = 0.077821012;
 *   FE 60/257 = 0.233463035; BE 77/257 = 0.299610895 (sum exactly 1);
 *   heavy 30/257 = 0.116731518; light (100-30)/257 = 0.272373541.
 *   bound (topdown.h td_value_bound): (1 + |257 - 255|)/255 = 3/255.
 *   slots of Retiring with 257000 slots: 257000*100/257 = 100000.
 */
static void vector_normalised(void)
{
	struct td_result r;

	ok(td_decode_value(0x0000001E4D3C1464ull, 257000, 2, &r) == 0, "decode S = 257");
	check_dbl(r.frac[TMA_RETIRING], 100.0 / 257, EPS, "tma_retiring = 100/257");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 20.0 / 257, EPS, "tma_bad_speculation = 20/257");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 60.0 / 257, EPS, "tma_frontend_bound = 60/257");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 77.0 / 257, EPS, "tma_backend_bound = 77/257");
	check_dbl(r.frac[TMA_RETIRING] + r.frac[TMA_BAD_SPECULATION] + r.frac[TMA_FRONTEND_BOUND] +
		  r.frac[TMA_BACKEND_BOUND], 1.0, EPS, "level 1 sums to 1 after normalisation");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 30.0 / 257, EPS, "tma_heavy_operations = 30/257");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 70.0 / 257, EPS, "tma_light_operations = 70/257");
	check_dbl(r.field_slots[TD_RETIRING], 100000.0, 1e-6, "Retiring slots = 257000*100/257");
	check_dbl(r.bound, 3.0 / 255, EPS, "bound (1 + 2)/255");
	check_u64(r.flags, ==, TD_FLAG_NORMALISED, "flag: normalised");
	check_int(td_l1_sum(0x0000001E4D3C1464ull), ==, 257, "td_l1_sum = 257");
	check_dbl(td_value_bound(255), 1.0 / 255, EPS, "bound at S = 255 is one LSB");
	check_dbl(td_value_bound(252), 4.0 / 255, EPS, "bound at S = 252 is 4/255");
	check_dbl(td_value_bound(0), 1.0, 0, "bound of the reset value: nothing known");
}

/*
 * Vector 5: a region whose two readings are normalised by their own sums.
 *   a: slots 2000,   R 128 BS 32 FE 64 BE 33 (S_a = 257) = 0x21402080
 *   b: slots 102000, R 51  BS 51 FE 51 BE 101 (S_b = 254) = 0x65333333
 *   Retiring: 102000*51/254 - 2000*128/257 = 20480.314961 - 996.108949
 *             = 19484.206011 / 100000 = 0.19484206011
 *   Bad Spec: 20480.314961 - 2000*32/257 (249.027237) = 20231.287723 -> 0.20231287723
 *   FE:       20480.314961 - 2000*64/257 (498.054475) = 19982.260486 -> 0.19982260486
 *   BE:       102000*101/254 (40559.055118) - 2000*33/257 (256.809339)
 *             = 40302.245780 -> 0.40302245780
 *   err_slots: 102000*(1+1)/255 + 2000*(1+2)/255 = 800 + 23.529412 = 823.529412;
 *   bound 823.529412 / 100000 = 0.00823529412.
 *   Divided by 255 instead, Retiring would be 0.19619... (bias of 0.0013).
 */
static void vector_region_normalised(void)
{
	struct td_result r;

	ok(td_decode_region(2000, 0x21402080ull, 102000, 0x65333333ull, 1, &r) == 0,
	   "region decode, both readings normalised");
	check_dbl(r.frac[TMA_RETIRING], 0.19484206011, 1e-10, "region tma_retiring");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 0.20231287723, 1e-10, "region tma_bad_speculation");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 0.19982260486, 1e-10, "region tma_frontend_bound");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 0.40302245780, 1e-10, "region tma_backend_bound");
	check_dbl(r.err_slots, 823.529412, 1e-6, "err_slots 800 + 23.529412");
	check_dbl(r.bound, 0.00823529412, 1e-11, "bound 0.0082");
	check_u64(r.flags, ==, TD_FLAG_NORMALISED, "flag: normalised, nothing else");
}

/*
 * Vector 6: region decode at level 2 (vector 2's level-1 bytes, S = 255).
 *   a: slots 1000,   Heavy 40 BrMisp 20 FetchLat 30 MemBound 10
 *      = 0x0A1E1428_1F402080
 *   b: slots 101000, Heavy 17 BrMisp 34 FetchLat 25 MemBound 60
 *      = 0x3C192211_66333333
 *   Heavy:  101000*17/255 - 1000*40/255 = 6733.333333 - 156.862745 = 6576.470588 -> 0.06576470588
 *   Light = Retiring - Heavy = 19698.039216 - 6576.470588 = 13121.568627 -> 0.13121568627
 *   BrMisp: 13466.666667 - 78.431373 = 13388.235294 -> 0.13388235294
 *   Machine Clears = 20074.509804 - 13388.235294 = 6686.274510 -> 0.06686274510
 *   FetchLat: 9901.960784 - 117.647059 = 9784.313725 -> 0.09784313725
 *   Fetch BW = 19949.019608 - 9784.313725 = 10164.705882 -> 0.10164705882
 *   MemBound: 23764.705882 - 39.215686 = 23725.490196 -> 0.23725490196
 *   Core Bound = 40278.431373 - 23725.490196 = 16552.941176 -> 0.16552941176
 *   bound 0.004 as vector 2; no flag.
 */
static void vector_region_level2(void)
{
	struct td_result r;

	ok(td_decode_region(1000, 0x0A1E14281F402080ull, 101000, 0x3C19221166333333ull, 2, &r) == 0,
	   "level-2 region decode");
	check_dbl(r.frac[TMA_RETIRING], 0.19698039216, 1e-10, "L2 region: tma_retiring as vector 2");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 0.06576470588, 1e-10, "L2 region: tma_heavy_operations");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 0.13121568627, 1e-10, "L2 region: tma_light_operations");
	check_dbl(r.frac[TMA_BRANCH_MISPREDICTS], 0.13388235294, 1e-10, "L2 region: tma_branch_mispredicts");
	check_dbl(r.frac[TMA_MACHINE_CLEARS], 0.06686274510, 1e-10, "L2 region: tma_machine_clears");
	check_dbl(r.frac[TMA_FETCH_LATENCY], 0.09784313725, 1e-10, "L2 region: tma_fetch_latency");
	check_dbl(r.frac[TMA_FETCH_BANDWIDTH], 0.10164705882, 1e-10, "L2 region: tma_fetch_bandwidth");
	check_dbl(r.frac[TMA_MEMORY_BOUND], 0.23725490196, 1e-10, "L2 region: tma_memory_bound");
	check_dbl(r.frac[TMA_CORE_BOUND], 0.16552941176, 1e-10, "L2 region: tma_core_bound");
	check_dbl(r.bound, 0.004, 1e-12, "L2 region: bound 0.004");
	check_u64(r.flags, ==, 0, "L2 region: no flags");
	/* the same readings at level 1 leave the level-2 nodes empty */
	td_decode_region(1000, 0x0A1E14281F402080ull, 101000, 0x3C19221166333333ull, 1, &r);
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 0, 0, "level 1 of the same region: no level-2 node");
}

/*
 * Vector 7: level-2 flags of a region, against the quantisation error.
 * Every byte below is valid on its own (level-1 sum 255, child <= parent + 1).
 *   Above the parent beyond the slack: a: slots 10000, R 200 (0xC8) BS 55
 *   (0x37), Heavy 0; b: slots 20000, R 100 (0x64) BS 155 (0x9B), Heavy 100.
 *     Retiring: 20000*100/255 - 10000*200/255 = 7843.137 - 7843.137 = 0
 *     Heavy:    20000*100/255 - 0 = 7843.137 > 0 + 2*err_slots,
 *     err_slots = (10000 + 20000)/255 = 117.647: L2_ABOVE.
 *   Within the slack: a: slots 10000, R 100 BS 155 Heavy 100;
 *   b: slots 20000, R 100 BS 155 Heavy 101:
 *     Retiring 7843.137 - 3921.569 = 3921.569; Heavy 7921.569 - 3921.569 = 4000;
 *     4000 - 3921.569 = 78.4 < 2*117.647: no flag (the rounding can do that).
 *   Negative at level 2: a: slots 10000, R 200 BS 55 Heavy 100; b: slots
 *   11000, same level 1, Heavy 50: Heavy 11000*50/255 - 10000*100/255 =
 *   2156.863 - 3921.569 = -1764.706 < -err_slots (21000/255 = 82.353): NEGATIVE.
 *   Negative within the error: Bad Spec a: slots 100000, R 245 BS 10; b:
 *   slots 100100, R 246 BS 9: 100100*9/255 - 100000*10/255 = 3532.941 -
 *   3921.569 = -388.6 > -err_slots (200100/255 = 784.7): not flagged.
 */
static void vector_region_level2_flags(void)
{
	struct td_result r;

	td_decode_region(10000, 0x00000000000037C8ull, 20000, 0x0000006400009B64ull, 2, &r);
	check_u64(r.flags & TD_FLAG_L2_ABOVE, ==, TD_FLAG_L2_ABOVE, "heavy ops without retiring: L2_ABOVE");
	check_dbl(r.err_slots, 30000.0 / 255, 1e-9, "err_slots (10000 + 20000)/255");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], -7843.137254902 / 10000, 1e-9,
		  "derived light operations is negative, not clamped");
	td_decode_region(10000, 0x0000006400009B64ull, 20000, 0x0000006500009B64ull, 2, &r);
	check_u64(r.flags, ==, 0, "child 78 slots above its parent, within 2*err: no flag");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 0.4, 1e-9, "heavy 4000/10000");
	td_decode_region(10000, 0x00000064000037C8ull, 11000, 0x00000032000037C8ull, 2, &r);
	check_u64(r.flags & TD_FLAG_NEGATIVE, ==, TD_FLAG_NEGATIVE, "heavy ops fell: NEGATIVE at level 2");
	td_decode_region(100000, 0x0AF5ull, 100100, 0x09F6ull, 1, &r);
	check_u64(r.flags & TD_FLAG_NEGATIVE, ==, 0, "a negative within the quantisation error is not flagged");
	check_dbl(r.field_slots[TD_BAD_SPEC], 100100.0 * 9 / 255 - 100000.0 * 10 / 255, 1e-9,
		  "but its slot delta is reported as computed");
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
	vector_normalised();
	vector_region_normalised();
	vector_region_level2();
	vector_region_level2_flags();
	names();
	return done_testing();
}
