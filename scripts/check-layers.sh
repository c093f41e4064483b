#!/bin/sh
# check-layers.sh: the house rules of docs/architecture.md, checked.
#
#   sh scripts/check-layers.sh [OBJDIR]
#
# 1. Every project include names its layer ("model/records.h",
#    "stats/plateau.h"), and a layer includes only the layers below it:
#
#      util    <- model <- stats <- gates
#                       <- io (may also use stats/)
#                       <- report (may also use stats/ and gates/ tables)
#      run  (everything but cli)      cli (everything)      main.c (cli, util)
#
#    In particular stats/, gates/, src/model/ and src/util/ never include an
#    I/O, process, presentation or command-line header.
# 2. No include cycle between files.
# 3. With OBJDIR (the build's object tree): no cycle between object files
#    through the symbols they use from each other (a header/implementation
#    pair is one module; two modules that call each other are one module in
#    disguise, which is what the include check cannot see).
# 4. With OBJDIR: no object uses a symbol defined in a layer it may not
#    include (the table of rule 1), so a declaration placed in a lower
#    layer's header cannot hide a call up into io/, run/, report/ or cli/.
#
# Prints one line per violation and exits 1 when there is any, else prints
# a one-line summary and exits 0.
set -eu
cd "$(dirname "$0")/.."
OBJDIR=${1:-}

files=$(find src stats gates -name '*.[ch]' | LC_ALL=C sort)

# shellcheck disable=SC2086
# What each layer may use (rule 1 and rule 4), and the layer of a path:
# shared by the two awk programs below.
AWK_LAYERS='
function layer(p) {
	if (p == "src/main.c") return "main"
	if (p ~ /^stats\//) return "stats"
	if (p ~ /^gates\//) return "gates"
	if (p ~ /^src\/[a-z]+\//) { sub(/^src\//, "", p); sub(/\/.*/, "", p); return p }
	return "?"
}
function layers_init() {
	ok["util"] = "util"
	ok["model"] = "util model"
	ok["stats"] = "util model stats"
	ok["gates"] = "util model stats gates"
	ok["io"] = "util model stats io"
	ok["report"] = "util model stats gates report"
	ok["run"] = "util model stats gates io report run"
	ok["cli"] = "util model stats gates io report run cli"
	ok["main"] = "util cli"
}
function may_use(from, to) { return index(" " ok[from] " ", " " to " ") > 0 }
'

awk "$AWK_LAYERS"'
function target(inc) {
	if (inc ~ /^(stats|gates)\//) return inc
	return "src/" inc
}
BEGIN {
	layers_init()
	bad = 0; nfiles = 0; nedges = 0
}
FNR == 1 { nfiles++; cur = FILENAME; node[cur] = 1 }
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
	if (inc !~ /\//) {
		printf "%s:%d: include \"%s\" by bare name: name its layer (e.g. \"model/%s\")\n", FILENAME, FNR, inc, inc
		bad++; next
	}
	t = target(inc)
	if ((getline tmp < t) < 0) {
		printf "%s:%d: include \"%s\": no such file %s\n", FILENAME, FNR, inc, t
		bad++; next
	}
	close(t)
	from = layer(FILENAME); to = layer(t)
	if (!may_use(from, to)) {
		printf "%s:%d: layer %s includes %s (\"%s\"): not allowed, see docs/architecture.md\n", FILENAME, FNR, from, to, inc
		bad++
	}
	if (t != FILENAME) { adj[FILENAME] = adj[FILENAME] " " t; nedges++ }
}
function dfs(u,    n, parts, i, v) {
	color[u] = 1; stack[++sp] = u
	n = split(adj[u], parts, " ")
	for (i = 1; i <= n; i++) {
		v = parts[i]
		if (color[v] == 1) { report_cycle(v) }
		else if (color[v] == 0) dfs(v)
	}
	sp--; color[u] = 2
}
function report_cycle(v,    i, s) {
	s = v
	for (i = sp; i >= 1 && stack[i] != v; i--) s = stack[i] " -> " s
	s = v " -> " s
	printf "include cycle: %s\n", s
	bad++
}
END {
	sp = 0
	for (u in node) if (color[u] == 0) dfs(u)
	if (bad) exit 1
	printf "check-layers: %d files, %d includes: layers respected, no include cycle\n", nfiles, nedges
}
' $files

[ -n "$OBJDIR" ] || exit 0
[ -d "$OBJDIR" ] || { echo "check-layers: error: no object directory '$OBJDIR'" >&2; exit 2; }

# Object-level cycles and directions: module = object file; an edge a -> b
# when a uses a symbol that b defines.
#
# Known edges up, each to be gone when its symbol moves (issue 28: the
# name helpers of opt_log.md move to a names module below gates/). Listed
# by symbol; anything else running up a layer fails.
KNOWN_UP=${CHECK_LAYERS_KNOWN_UP-""}
objs=$(find "$OBJDIR/src" "$OBJDIR/stats" "$OBJDIR/gates" -name '*.o' ! -path '*/src/main.o' | LC_ALL=C sort)
# one nm for all the objects (-A: each line starts "FILE: "), not one each
# shellcheck disable=SC2086
nm -P -A $objs 2>/dev/null | awk -v dir="$OBJDIR/" '
	{ o = $1; sub(/:$/, "", o); if (index(o, dir) == 1) o = substr(o, length(dir) + 1) }
	$3 ~ /^[TDBRC]$/ { print "D", o, $2 }
	$3 == "U" { print "U", o, $2 }' | awk -v known="$KNOWN_UP" "$AWK_LAYERS"'
BEGIN {
	layers_init()
	nk = split(known, kk, " "); for (i = 1; i <= nk; i++) allowed[kk[i]] = 1
	bad = 0
}
$1 == "D" { def[$3] = $2; node[$2] = 1; next }
$1 == "U" { use[++nu] = $2 " " $3; node[$2] = 1 }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], p, " ")
		if ((p[2] in def) && def[p[2]] != p[1]) {
			lu = layer(p[1]); ld = layer(def[p[2]])
			if (!may_use(lu, ld) && !(p[2] in allowed)) {
				printf "%s: layer %s uses %s, defined in %s (layer %s): not allowed, see docs/architecture.md\n", p[1], lu, p[2], def[p[2]], ld
				bad++
			}
			k = p[1] " " def[p[2]]
			if (!(k in seen)) { seen[k] = 1; adj[p[1]] = adj[p[1]] " " def[p[2]]; ne++ }
		}
	}
	sp = 0
	for (u in node) if (color[u] == 0) dfs(u)
	if (bad) exit 1
	n = 0; for (u in node) n++
	printf "check-layers: %d objects, %d links between them: no cycle, none up a layer\n", n, ne
}
function dfs(u,    n, parts, i, v, s, j) {
	color[u] = 1; stack[++sp] = u
	n = split(adj[u], parts, " ")
	for (i = 1; i <= n; i++) {
		v = parts[i]
		if (color[v] == 1) {
			s = v
			for (j = sp; j >= 1 && stack[j] != v; j--) s = stack[j] " -> " s
			printf "object cycle: %s -> %s\n", v, s
			bad++
		} else if (color[v] == 0) dfs(v)
	}
	sp--; color[u] = 2
}
'
