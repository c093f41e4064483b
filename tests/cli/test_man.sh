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
# values: every option whose usage row lists "one of: ..." completes those
# values (not file names), as "--opt X" and "--opt=X"; `explain` completes
# rule ids
for c in $cmds; do
    "$TLPERF" "$c" --help | awk '
        /^  (-., |    )--[a-z]/ { o = $0; sub(/^ +(-., )?/, "", o); sub(/ .*/, "", o) }
        /^ +one of: / { v = $0; sub(/^ +one of: /, "", v); gsub(/, /, " ", v); print o, v }' >"$TMPDIR_TEST/ch"
    while read -r o vals; do
        complete_words tlperf "$c" "$o" "" >"$TMPDIR_TEST/c"
        for v in $vals; do grep -qx -- "$v" "$TMPDIR_TEST/c" || fail "bash: $c $o does not complete $v"; done
        [ "$(wc -l <"$TMPDIR_TEST/c")" -eq "$(echo $vals | wc -w)" ] || fail "bash: $c $o completes more than its values: $(cat "$TMPDIR_TEST/c")"
    done <"$TMPDIR_TEST/ch"
done
grep -q "one of: text, json" "$ROOT/docs/tlgate.1" || fail "tlgate.1 does not list the formats"
complete_words tlgate --format js >"$TMPDIR_TEST/c"
[ "$(cat "$TMPDIR_TEST/c")" = json ] || fail "bash: tlgate --format js: $(cat "$TMPDIR_TEST/c")"
complete_words tlgate --format = sa >"$TMPDIR_TEST/c"
[ "$(cat "$TMPDIR_TEST/c")" = sarif ] || fail "bash: tlgate --format = sa: $(cat "$TMPDIR_TEST/c")"
complete_words tlgate --format=gi >"$TMPDIR_TEST/c"
sort "$TMPDIR_TEST/c" | tr '\n' ' ' | grep -qx -- "--format=github --format=gitlab " || fail "bash: --format=gi: $(cat "$TMPDIR_TEST/c")"
complete_words tlab --protocol "" >"$TMPDIR_TEST/c"
[ "$(sort "$TMPDIR_TEST/c" | tr '\n' ' ')" = "fast ref seq " ] || fail "bash: tlab --protocol: $(cat "$TMPDIR_TEST/c")"
complete_words tlperf sim --protocol "" >"$TMPDIR_TEST/c"
[ "$(sort "$TMPDIR_TEST/c" | tr '\n' ' ')" = "all both fast ref seq seq-v1 " ] || fail "bash: sim --protocol: $(cat "$TMPDIR_TEST/c")"
complete_words tlperf loop -C x status --color n >"$TMPDIR_TEST/c"
[ "$(cat "$TMPDIR_TEST/c")" = never ] || fail "bash: loop status --color n: $(cat "$TMPDIR_TEST/c")"
complete_words tlperf explain S4-STOP >"$TMPDIR_TEST/c"
[ "$(cat "$TMPDIR_TEST/c")" = S4-STOP-REASON ] || fail "bash: explain S4-STOP: $(cat "$TMPDIR_TEST/c")"
complete_words tlperf explain "" >"$TMPDIR_TEST/c"
[ "$(wc -l <"$TMPDIR_TEST/c")" -eq "$("$TLPERF" explain --list | wc -l)" ] || fail "bash: explain does not offer every rule"
# a value-less option still completes file names after it
mkdir -p "$TMPDIR_TEST/fdir" && : >"$TMPDIR_TEST/fdir/zz-file"
complete_words tlgate --strict "$TMPDIR_TEST/fdir/zz" >"$TMPDIR_TEST/c"
grep -q "zz-file" "$TMPDIR_TEST/c" || fail "bash: file names after --strict: $(cat "$TMPDIR_TEST/c")"

# zsh: the same, through the generated function with compadd, _describe
# and _files stubbed to print what they are given
need_cmd zsh
zsh -n "$ROOT/completions/_tlperf" || fail "zsh: syntax"
zcomplete() { # zcomplete WORD...: what zsh would offer for the last word
    zsh -f -c '
        compadd() { while [[ $1 == -* ]]; do case $1 in -a) print -l -- ${(P)2}; return ;; --) shift; break ;; *) shift ;; esac; done; print -l -- "$@"; }
        _describe() { while [[ $1 == -t ]]; do shift 2; done; shift; local n; for n in "$@"; do print -l -- ${(P)n}; done; }
        _files() { print -- "<files>"; }
        compset() { :; }
        words=("${@:2}"); CURRENT=$(( $# - 1 ))
        source "$1"' _ "$ROOT/completions/_tlperf" "$@"
}
zcomplete tlgate --format "" >"$TMPDIR_TEST/z"
for v in text json sarif github junit markdown gitlab; do grep -qx "$v" "$TMPDIR_TEST/z" || fail "zsh: --format $v"; done
! grep -q "<files>" "$TMPDIR_TEST/z" || fail "zsh: file names for --format"
zcomplete tlperf sim --protocol "" >"$TMPDIR_TEST/z"
[ "$(sort "$TMPDIR_TEST/z" | tr '\n' ' ')" = "all both fast ref seq seq-v1 " ] || fail "zsh: sim --protocol: $(cat "$TMPDIR_TEST/z")"
zcomplete tlab --color "" >"$TMPDIR_TEST/z"
[ "$(sort "$TMPDIR_TEST/z" | tr '\n' ' ')" = "always auto never " ] || fail "zsh: tlab --color: $(cat "$TMPDIR_TEST/z")"
# options with their descriptions
zcomplete tlgate - >"$TMPDIR_TEST/z"
grep -qx -- "--format:how findings are written (default: text)" "$TMPDIR_TEST/z" || fail "zsh: --format without its description: $(head -3 "$TMPDIR_TEST/z")"
grep -qx -- "--allow-empty:a PATH under which nothing is checked is not an error" "$TMPDIR_TEST/z" || fail "zsh: --allow-empty"
for c in $cmds; do
    zcomplete tlperf "$c" - >"$TMPDIR_TEST/z"
    opts "$TLPERF" "$c" | while read -r o; do
        grep -q -- "^$o:." "$TMPDIR_TEST/z" || fail "zsh: $o of $c missing or without a description"
    done
done
# rule ids with their summaries, commands with theirs
zcomplete tlperf explain "" >"$TMPDIR_TEST/z"
grep -q "^S4-STOP-REASON:." "$TMPDIR_TEST/z" || fail "zsh: explain rules: $(head -3 "$TMPDIR_TEST/z")"
zcomplete tlperf "" >"$TMPDIR_TEST/z"
grep -q "^gate:check perf_opt/" "$TMPDIR_TEST/z" || fail "zsh: commands: $(head -3 "$TMPDIR_TEST/z")"
zcomplete tlperf loop "" >"$TMPDIR_TEST/z"
grep -qx "round" "$TMPDIR_TEST/z" || fail "zsh: loop subcommands"
zcomplete tlgate --strict "" >"$TMPDIR_TEST/z"
grep -qx "<files>" "$TMPDIR_TEST/z" || fail "zsh: file names after --strict"

# 4. make install puts everything in place, and relinks nothing: the
# other tests run this build's binary meanwhile (a relink under them was
# exit 126, "Permission denied", in whichever test ran it then)
before=$(stat -c %Y.%s "$BUILD_DIR/bin/tlperf")
make -s -C "$ROOT" install BUILD="$BUILD_DIR" DESTDIR="$TMPDIR_TEST/dest" PREFIX=/usr >/dev/null 2>"$TMPDIR_TEST/make.err" ||
    { cat "$TMPDIR_TEST/make.err"; fail "make install failed"; }
[ "$(stat -c %Y.%s "$BUILD_DIR/bin/tlperf")" = "$before" ] || fail "make install BUILD=$BUILD_DIR relinked the binary"
D=$TMPDIR_TEST/dest/usr
for f in bin/tlperf bin/tlab bin/tlgate share/man/man1/tlperf.1 share/man/man1/tlab.1 share/man/man1/tlgate.1 \
         share/bash-completion/completions/tlperf share/zsh/site-functions/_tlperf \
         share/doc/tlperf/README.md share/doc/tlperf/rules.md share/doc/tlperf/schemas/gate.v1.json; do
    [ -e "$D/$f" ] || fail "make install did not install $f"
done
"$D/bin/tlgate" --version | grep -q '^tlgate (tlperf) ' || fail "installed tlgate does not run"
echo ok
