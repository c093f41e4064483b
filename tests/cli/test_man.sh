# Man pages and shell completions agree with --help: every option of every
# command (and alias, and loop subcommand) is in the man page and completes
# in bash; the generated files are not stale; groff finds nothing to warn
# about; `make install` puts man pages, completions and docs in place.
. "$ROOT/tests/cli/lib.sh"
set -e
# the options in CMD --help (own and common), as --long (and -s)
opts() {
    "$@" --help | awk '/^options:$/{on=1;next} on&&/^$/{on=0} on' |
        grep -oE '^  (-[A-Za-z0-9], )?(    )?--[a-z0-9-]+|^  -[A-Za-z0-9]' | grep -oE -- '--?[A-Za-z0-9-]+' | sort -u
}
command -v bash >/dev/null 2>&1 || skip "bash not installed"
complete_words() { # complete_words WORD... : COMPREPLY for the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tlperf; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$ROOT/completions/tlperf.bash" "$@"
}
render() { groff -man -Tutf8 -P-cbou "$1" 2>/dev/null || man -l "$1"; }

# 1. not stale: regenerate into a copy and compare
mkdir -p "$TMPDIR_TEST/gen/scripts" "$TMPDIR_TEST/gen/docs/man"
cp "$ROOT/scripts/gen-cli-docs.sh" "$TMPDIR_TEST/gen/scripts/"
cp "$ROOT"/docs/man/*.1.in "$TMPDIR_TEST/gen/docs/man/"
sh "$TMPDIR_TEST/gen/scripts/gen-cli-docs.sh" "$TLPERF" >/dev/null
for f in docs/tlperf.1 docs/tlab.1 docs/tlgate.1 completions/tlperf.bash completions/_tlperf; do
    cmp -s "$TMPDIR_TEST/gen/$f" "$ROOT/$f" || { diff "$ROOT/$f" "$TMPDIR_TEST/gen/$f" | head; fail "$f is stale: run 'make docs'"; }
done

# 2. man pages: sections, and every option of --help
for p in tlperf tlab tlgate; do
    for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES; do
        grep -q "^\.SH \"*$s" "$ROOT/docs/$p.1" || fail "$p.1: no $s section"
    done
    if need_cmd groff; then
        w=$(groff -man -ww -z "$ROOT/docs/$p.1" 2>&1)
        [ -z "$w" ] || fail "$p.1: groff warns: $w"
    fi
    render "$ROOT/docs/$p.1" >"$TMPDIR_TEST/$p.txt"
done
check_man() { # check_man PAGE CMD...
    page=$1; shift
    opts "$@" >"$TMPDIR_TEST/o"
    [ -s "$TMPDIR_TEST/o" ] || fail "no options read from $* --help"
    while read -r o; do
        grep -qe "$o\b" "$TMPDIR_TEST/$page.txt" || fail "$page.1 lacks $o of '$*'"
    done <"$TMPDIR_TEST/o"
}
cmds=$("$TLPERF" --help | awk '/^commands:/{on=1;next} on&&/^  [a-z]/{print $1} on&&/^$/{exit}')
for c in $cmds; do
    check_man tlperf "$TLPERF" "$c"
    grep -q "^\.SS tlperf $c" "$ROOT/docs/tlperf.1" || fail "tlperf.1 has no section for $c"
done
subs=$("$TLPERF" loop --help | sed -n 's/.*tlperf loop \[-C DIR\] \([a-z]*\).*/\1/p' | sort -u)
[ -n "$subs" ] || fail "no loop subcommands in 'tlperf loop --help'"
for s in $subs; do
    check_man tlperf "$TLPERF" loop "$s"
    complete_words tlperf loop "$s" - >"$TMPDIR_TEST/c"
    opts "$TLPERF" loop "$s" | while read -r o; do
        grep -qx -- "$o" "$TMPDIR_TEST/c" || fail "bash: $o of loop $s not completed"
    done
done
check_man tlab "$TLAB"
check_man tlgate "$TLGATE"

# 3. bash completion offers every option, the subcommands, and works for the aliases
complete_words tlperf "" >"$TMPDIR_TEST/c"
for c in $cmds; do grep -qx "$c" "$TMPDIR_TEST/c" || fail "bash: command $c not completed"; done
for c in $cmds; do
    complete_words tlperf "$c" - >"$TMPDIR_TEST/c"
    opts "$TLPERF" "$c" | while read -r o; do
        grep -qx -- "$o" "$TMPDIR_TEST/c" || fail "bash: $o of $c not completed"
    done
done
complete_words tlperf loop -C op round 3 -- >"$TMPDIR_TEST/c"
grep -qx -- --branch "$TMPDIR_TEST/c" || fail "bash: loop round --branch not completed"
complete_words tlgate --stat >"$TMPDIR_TEST/c"
grep -qx -- --statistics "$TMPDIR_TEST/c" || fail "bash: tlgate --statistics not completed"
complete_words tlab --a- >"$TMPDIR_TEST/c"
grep -qx -- --a-cmd "$TMPDIR_TEST/c" || fail "bash: tlab --a-cmd not completed"
# zsh: the same lists (run by zsh when it is installed)
for c in $cmds; do
    opts "$TLPERF" "$c" | while read -r o; do
        grep -q -- "^    $c) reply=(.*$o\( \|)\)" "$ROOT/completions/_tlperf" || fail "zsh: $o of $c missing"
    done
done
if command -v zsh >/dev/null 2>&1; then zsh -n "$ROOT/completions/_tlperf" || fail "zsh: syntax"; fi

# 4. make install puts everything in place
make -s -C "$ROOT" install BUILD="$BUILD_DIR" DESTDIR="$TMPDIR_TEST/dest" PREFIX=/usr >/dev/null 2>"$TMPDIR_TEST/make.err" ||
    { cat "$TMPDIR_TEST/make.err"; fail "make install failed"; }
D=$TMPDIR_TEST/dest/usr
for f in bin/tlperf bin/tlab bin/tlgate share/man/man1/tlperf.1 share/man/man1/tlab.1 share/man/man1/tlgate.1 \
         share/bash-completion/completions/tlperf share/zsh/site-functions/_tlperf \
         share/doc/tlperf/README.md share/doc/tlperf/rules.md share/doc/tlperf/schemas/gate.v1.json; do
    [ -e "$D/$f" ] || fail "make install did not install $f"
done
"$D/bin/tlgate" --version | grep -q '^tlgate (tlperf) ' || fail "installed tlgate does not run"
echo ok
