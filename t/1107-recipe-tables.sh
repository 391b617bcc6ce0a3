#!/bin/sh
# t/1107-recipe-tables.sh - the recipe tables are registered in one table of
# tables (issue 29, "Sources that own their capabilities": "one registered
# table instead of two arrays joined by address arithmetic"), as hwloc
# registers its components in hwloc_static_components[]:
#   - each file's recipes are static, reached through its one
#     `const struct recipe_table NAME` (msr/recipe/recipes_*.c);
#   - msr/recipe/recipe.c's recipe_tables[] lists every such table once
#     (recipe_count and recipe_at walk it by index: its order is
#     recipe_at's, on which t/0800, t/0877 and others rely), and
#     msr/recipe/recipe_int.h declares each;
#   - nothing else names a table: msr/recipe/recipe_tokens.c (its code;
#     its comments may name the files) finds a table
#     recipe's index through recipe_count/recipe_at, with no pointer
#     arithmetic over the arrays (uintptr_t, sizeof(*r)).
# A control tree with a table left out, an exported array and a file that
# walks the arrays itself shows that the check finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -f "$src/msr/recipe/recipe.c" ] || skip_all "no sources beside t/"

# faults ROOT: one line per way the tables are not one registered table
faults() {
	d=$1/msr/recipe
	tables=$(sed -n 's/^const struct recipe_table \([a-z0-9_]*\) = .*/\1/p' "$d"/*.c | sort)
	[ -n "$tables" ] || echo "no const struct recipe_table in $d"
	listed=$(sed -n '/^static const struct recipe_table \*const recipe_tables\[\] = {/,/^};/p' \
		"$d/recipe.c" | sed -n 's/^[[:space:]]*&\([a-z0-9_]*\),$/\1/p')
	for t in $tables; do
		n=$(printf '%s\n' "$listed" | grep -cx "$t")
		[ "$n" = 1 ] || echo "$t: listed $n times in recipe.c's recipe_tables[]"
		grep -q "^extern const struct recipe_table $t;" "$d/recipe_int.h" ||
			echo "$t: not declared in recipe_int.h"
	done
	for t in $listed; do
		printf '%s\n' "$tables" | grep -qx "$t" || echo "$t: listed but not defined"
	done
	grep -Hn '^const struct recipe [a-z0-9_]*\[\]' "$d"/*.c | sed "s|^$1/||; s|$| (not static)|"
	grep -HnE 'recipes_[a-z0-9_]*|uintptr_t|sizeof\(\*r\)' "$d/recipe_tokens.c" |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/\*|\*)' | sed "s|^$1/||" # code, not comments
	(cd "$1" && grep -rlE --include='*.[ch]' 'recipes_[a-z0-9_]*_table' cpu msr bench include 2>/dev/null) |
		grep -vE '^msr/recipe/(recipe\.c|recipe_int\.h|recipes_[a-z0-9_]*\.c)$' |
		sed 's/$/: names a recipe table/'
	true
}

is "$(faults "$src")" "" "every recipe table registered once in recipe_tables[], declared, its array static; nothing else names one"
n=$(sed -n 's/^const struct recipe_table \([a-z0-9_]*\) = .*/\1/p' "$src"/msr/recipe/*.c | wc -l)
ok "$([ "$n" -ge 3 ]; echo $?)" "the check read the tables ($n: Intel's PERF_METRICS with events, Intel's, AMD's)"

# control
c=$tmp/ctl/msr/recipe
mkdir -p "$c" "$tmp/ctl/bench"
printf 'static const struct recipe_table *const recipe_tables[] = {\n\t&recipes_a_table,\n\t&recipes_a_table,\n\t&recipes_z_table,\n};\n' >"$c/recipe.c"
printf 'extern const struct recipe_table recipes_a_table;\n' >"$c/recipe_int.h"
printf 'static const struct recipe ra[] = { 0 };\nconst struct recipe_table recipes_a_table = { ra, 1 };\n' >"$c/recipes_a.c"
printf 'const struct recipe rb[] = { 0 };\nconst struct recipe_table recipes_b_table = { rb, 1 };\n' >"$c/recipes_b.c"
printf 'uintptr_t a = (uintptr_t)r;\nif (r == recipes_a) return 0;\n' >"$c/recipe_tokens.c"
printf 'n = recipes_b_table.n;\n' >"$tmp/ctl/bench/x.c"
is "$(faults "$tmp/ctl")" 'recipes_a_table: listed 2 times in recipe.c'"'"'s recipe_tables[]
recipes_b_table: listed 0 times in recipe.c'"'"'s recipe_tables[]
recipes_b_table: not declared in recipe_int.h
recipes_z_table: listed but not defined
msr/recipe/recipes_b.c:1:const struct recipe rb[] = { 0 }; (not static)
msr/recipe/recipe_tokens.c:1:uintptr_t a = (uintptr_t)r;
msr/recipe/recipe_tokens.c:2:if (r == recipes_a) return 0;
bench/x.c: names a recipe table' \
	"control: a table listed twice, left out, undeclared or unknown, an exported array, arithmetic and a table named elsewhere are found"
done_testing
