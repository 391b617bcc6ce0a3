/*
 * t/1142-pair-slots-exact - a pair's topdown-* slot counts
 * (msr/recipe/topdown.h td_pair_slots, run at every region pair's end)
 * to the bit as the documented formula gives them: per field
 * slots_b x field_b / S_b - slots_a x field_a / S_a (linux
 * tools/perf/Documentation/topdown.txt), each quotient computed in long
 * double and rounded to a double (td_field_slots: the product exact
 * before the division), 0 for a reading whose S is 0; the error
 * slots_b x (1 + |S_b - 255|) / 255 + slots_a x (1 + |S_a - 255|) / 255.
 *
 * td_pair_slots divides in double where the product is below 2^53 (issue
 * 30 of the project: the x87 division was most of a pair's counting):
 * equal by the argument in msr/recipe/topdown.c.  Checked on slot counts
 * at the edges (around 2^45, where slots x 255 reaches 2^53, 2^53 itself,
 * 2^56, 2^63, 2^64 - 1), on level-1 sums 1 to 1020, with a reading of 0
 * slots or a reset PERF_METRICS at the start, and on 200000 pairs of a
 * fixed pseudo-random sequence.
 */
#include <stdint.h>
#include <string.h>

#include "msr/recipe/topdown.h"
#include "t/tap.h"
#include "t/td-ref.h"

/* Whether td_pair_slots of the pair is the formula's, bit for bit. */
static bool exact(uint64_t sa, uint64_t ma, uint64_t sb, uint64_t mb)
{
	double fs[TD_NFIELDS], err, want;

	td_pair_slots(sa, ma, sb, mb, fs, &err);
	for (unsigned i = 0; i < TD_NFIELDS; i++) {
		want = fslots(sb, byte(mb, i), l1(mb)) - fslots(sa, byte(ma, i), l1(ma));
		if (memcmp(&want, &fs[i], sizeof(want))) {
			printf("# slots %llu -> %llu, metrics %#llx -> %#llx, field %u: %.17g, the "
			       "formula %.17g\n", (unsigned long long)sa, (unsigned long long)sb,
			       (unsigned long long)ma, (unsigned long long)mb, i, fs[i], want);
			return false;
		}
	}
	want = (double)sb * vbound(l1(mb)) + (sa ? (double)sa * vbound(l1(ma)) : 0);
	return !memcmp(&want, &err, sizeof(want));
}

static uint64_t lcg = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull; /* Knuth's MMIX LCG */
	return lcg ^ (lcg >> 29);
}

int main(void)
{
	static const uint64_t slots[] = {
		0, 1, 2, 3, 255, 1000, 1048583, (1ull << 45) - 1, 1ull << 45, (1ull << 45) + 1,
		35322350018592ull, 35322350018593ull, 88305875046481ull, 88305875046482ull,
		(1ull << 53) - 1, 1ull << 53, (1ull << 53) + 1, (1ull << 56) - 1, 1ull << 56,
		(1ull << 60) + 12345, (1ull << 63) + 5, UINT64_MAX,
	};
	static const uint64_t metrics[] = {
		0,                     /* the reset value: S 0 */
		0x000000ff,            /* S 255, one field */
		0x33333366,            /* S 255 */
		0x1a1a1a3333333366ull, /* S 255, level-2 bytes */
		0x00000001,            /* S 1 */
		0xffffffffffffffffull, /* S 1020 */
		0x0b0d07110b0d0711ull, /* S 48 */
		0x3f2c1d4a2d3c3264ull, /* S 257 */
		0x40302010fe010203ull, /* S 260 */
	};
	const size_t ns = sizeof(slots) / sizeof(slots[0]), nm = sizeof(metrics) / sizeof(metrics[0]);
	unsigned bad = 0, n = 0;

	for (size_t i = 0; i < ns; i++)
		for (size_t m = 0; m < nm; m++, n++)
			bad += !exact(0, 0, slots[i], metrics[m]);
	ok(!bad, "from 0 slots, a reset start: %u pairs to the bit (%u not)", n, bad);
	bad = n = 0;
	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < ns; j++)
			for (size_t m = 0; m < nm; m++, n++)
				bad += !exact(slots[j], metrics[(m + 3) % nm], slots[i], metrics[m]);
	ok(!bad, "every start against every end: %u pairs to the bit (%u not)", n, bad);
	bad = 0;
	for (n = 0; n < 100000; n++) {
		uint64_t sa = next() >> (next() % 64), sb = sa + (next() >> (20 + next() % 44));

		bad += !exact(sa, next(), sb, next());
	}
	ok(!bad, "100000 pairs of random readings (slots up to 2^64): to the bit (%u not)", bad);
	bad = 0;
	for (n = 0; n < 100000; n++) {
		uint64_t sb = next() >> (11 + next() % 53);

		bad += !exact(0, 0, sb, next());
	}
	ok(!bad, "100000 metrics-clear segments (0 at the start): to the bit (%u not)", bad);
	return done_testing();
}
