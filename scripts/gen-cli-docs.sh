#!/bin/sh
# gen-cli-docs.sh [TLPERF]: writes what is derived from the option tables,
# from the built binary's --help (so it cannot disagree with it):
#   docs/tlperf.1, docs/tlab.1, docs/tlgate.1   from docs/man/*.1.in, whose
#       "@OPTIONS CMD@" lines become the options of CMD (roff .TP entries)
#   completions/tlperf.bash, completions/_tlperf  bash and zsh completion
# Run by `make docs`; tests/cli/test_man.sh fails while an output is stale.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=${1:-$ROOT/build/bin/tlperf}
[ -x "$T" ] || { echo "gen-cli-docs: build first: no $T" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tlperf-gen.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# The subcommands, as `tlperf --help` lists them.
"$T" --help | awk '/^commands:/{on=1;next} on&&/^  [a-z]/{print $1} on&&/^$/{exit}' >"$TMP/cmds"
# The loop's subcommands, from its synopsis lines.
"$T" loop --help | sed -n 's/.*tlperf loop \[-C DIR\] \([a-z]*\).*/\1/p' | awk '!seen[$0]++' >"$TMP/loopsubs"
LOOPSUBS=$(tr '\n' ' ' <"$TMP/loopsubs" | sed 's/ $//')

# options CMD...: one line per option of the command's own table and the
# common ones: SHORT, LONG, ARG and HELP (help lines joined) separated by
# US (the ASCII unit separator: fields may be empty, help may hold '|').
US=$(printf '\037')
# (read once per command: the outputs below ask for each several times)
options() {
    _cache=$TMP/options.$(printf '%s_' "$@")
    [ -e "$_cache" ] || options_read "$@" >"$_cache"
    cat "$_cache"
}
options_read() {
    "$T" "$@" --help | awk -v US="$US" '
        /^options:$/ { on = 1; next }
        on && /^$/ { exit }
        !on { next }
        /^  -[A-Za-z0-9], --[a-z0-9-]+/ || /^      --[a-z0-9-]+/ || /^  -[A-Za-z0-9]( |$)/ {
            if (name != "") print short US name US arg US help
            line = $0; sub(/^  /, "", line)
            short = ""; name = ""; arg = ""
            if (line ~ /^-[A-Za-z0-9], /) { short = substr(line, 2, 1); line = substr(line, 5) }
            else if (line ~ /^-[A-Za-z0-9]/) { short = substr(line, 2, 1); line = substr(line, 3); name = "-" }
            sub(/^ +/, "", line)
            if (line ~ /^--/) { line = substr(line, 3); name = line; sub(/[ ].*/, "", name); line = substr(line, length(name) + 1) }
            if (line ~ /^ [^ ]/) { line = substr(line, 2); arg = line; sub(/ .*/, "", arg); line = substr(line, length(arg) + 1) }
            sub(/^ +/, "", line); help = line; next
        }
        { l = $0; sub(/^ +/, "", l); help = (help == "" ? l : help " " l) }
        END { if (name != "") print short US name US arg US help }'
}

COMMON='^(help|version|color|quiet|verbose)$'
# roff OPTIONS entries: roff_options own CMD... (the command's own table)
# or roff_options common CMD (the options every command takes); one awk,
# where a shell loop started a few processes per option (the generator
# took 20 s of CPU, and test_man runs it)
roff_options() {
    which=$1; shift
    options "$@" | awk -F"$US" -v which="$which" -v common="$COMMON" '
        # rep(S, FROM, TO): S with every FROM replaced by TO, as strings
        function rep(s, from, to,   out, i) {
            out = ""
            while ((i = index(s, from)) > 0) { out = out substr(s, 1, i - 1) to; s = substr(s, i + length(from)) }
            return out s
        }
        (which == "common") != ($2 ~ common) { next }
        {
            lead = ""
            if ($1 != "") lead = "\\fB\\-" $1 "\\fR"
            if ($2 != "-" && $2 != "") lead = (lead != "" ? lead ", " : "") "\\fB\\-\\-" rep($2, "-", "\\-") "\\fR"
            if ($3 != "") lead = lead " \\fI" rep($3, "-", "\\-") "\\fR"
            h = $4
            if ((i = index(h, " one of: ")) > 0) h = substr(h, 1, i - 1) "; one of: " substr(h, i + 9) "."
            h = rep(h, "\\", "\\e")
            if (substr(h, 1, 1) == ".") h = "\\&" h
            printf ".TP\n%s\n%s\n", lead, rep(h, "-", "\\-")
        }'
}

mkdir -p "$ROOT/completions"
for page in tlperf tlab tlgate; do
    in=$ROOT/docs/man/$page.1.in
    out=$ROOT/docs/$page.1
    : >"$TMP/page"
    while IFS= read -r line; do
        case $line in
        @COMMON@)
            roff_options common plateau >>"$TMP/page" ;;
        @OPTIONS*@)
            spec=${line#@OPTIONS }; spec=${spec%@}
            # shellcheck disable=SC2086
            roff_options own $spec >>"$TMP/page" ;;
        *) printf '%s\n' "$line" >>"$TMP/page" ;;
        esac
    done <"$in"
    mv "$TMP/page" "$out"
done

# --- completions ---
# What completes, all read from the binary: the options of each command
# (and loop subcommand) with their help, the values of an option whose
# usage row says "one of: ..." (the table's choices), and the rule ids of
# `tlperf explain` with their summaries (`tlperf explain --list`).
"$T" explain --list | awk '{ id = $1; $1 = ""; $2 = ""; $3 = ""; sub(/^ +/, ""); print id "\t" $0 }' >"$TMP/rules"
# the command keys of the case statements: CMD, and loop-SUB for the loop
{
    while read -r c; do
        echo "$c $c"
        if [ "$c" = loop ]; then for s in $LOOPSUBS; do echo "loop-$s loop $s"; done; fi
    done <"$TMP/cmds"
} >"$TMP/keys"
# optlist KEY ARGS...: "--long -s ..." of a command
optlist() {
    shift
    options "$@" | awk -F"$US" '{ if ($2 != "-") printf "--%s ", $2; if ($1 != "") printf "-%s ", $1 }' | sed 's/ $//'
}
# choices KEY ARGS...: one line "OPTION VALUE..." per option with choices,
# for its long and its short name
choices() {
    shift
    options "$@" | awk -F"$US" '{
        i = index($4, " one of: "); if (!i) next
        v = substr($4, i + 9); gsub(/, /, " ", v)
        if ($2 != "-") print "--" $2 " " v
        if ($1 != "") print "-" $1 " " v }'
}
# zsh_entries ARGS...: 'OPTION:help' words for _describe (help without
# its value list, cut at 70 characters, quoted for zsh)
zsh_entries() {
    options "$@" | awk -F"$US" '
        function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
        { h = $4; i = index(h, " one of: "); if (i) h = substr(h, 1, i - 1)
          if (length(h) > 70) h = substr(h, 1, 67) "..."
          if ($2 != "-") printf "%s ", q("--" $2 ":" h)
          if ($1 != "") printf "%s ", q("-" $1 ":" h) }' | sed 's/ $//'
}
RULE_IDS=$(cut -f1 "$TMP/rules" | tr '\n' ' ' | sed 's/ $//')

{
    echo "# bash completion for tlperf, tlab and tlgate (generated by scripts/gen-cli-docs.sh)"
    echo "_tlperf_opts() {"
    echo "    case \$1 in"
    while read -r key args; do
        # shellcheck disable=SC2086
        printf '    %s) echo "%s" ;;\n' "$key" "$(optlist "$key" $args)"
    done <"$TMP/keys"
    echo "    esac"
    echo "}"
    echo "# _tlperf_values CMD OPTION: the values OPTION takes, if it has a fixed set"
    echo "_tlperf_values() {"
    echo "    case \"\$1 \$2\" in"
    while read -r key args; do
        # shellcheck disable=SC2086
        choices "$key" $args | while read -r o v; do
            printf '    "%s %s") echo "%s" ;;\n' "$key" "$o" "$v"
        done
    done <"$TMP/keys"
    echo "    esac"
    echo "}"
    printf '_tlperf_loop_subs="%s"\n' "$LOOPSUBS"
    printf '_tlperf_rules="%s"\n' "$RULE_IDS"
    cat <<'BASH'
_tlperf() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prog=${COMP_WORDS[0]##*/} cmd i=1 vals
    case $prog in
    tlab) cmd=ab ;;
    tlgate) cmd=gate ;;
    *)
        if [ "$COMP_CWORD" -eq 1 ]; then
BASH
    printf '            COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))\n' "$(tr '\n' ' ' <"$TMP/cmds" | sed 's/ $//')"
    cat <<'BASH'
            return
        fi
        cmd=${COMP_WORDS[1]}; i=2 ;;
    esac
    if [ "$cmd" = loop ]; then
        local w
        for w in "${COMP_WORDS[@]:i:COMP_CWORD-i}"; do
            case " $_tlperf_loop_subs " in *" $w "*) cmd=loop-$w ;; esac
        done
    fi
    # the value of an option: "--format X", "--format=X" ('=' a word break
    # or not)
    if [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
    vals=$(_tlperf_values "$cmd" "$prev")
    if [ -n "$vals" ]; then
        COMPREPLY=($(compgen -W "$vals" -- "$cur"))
        return
    fi
    if [[ $cur == --*=* ]]; then
        vals=$(_tlperf_values "$cmd" "${cur%%=*}")
        if [ -n "$vals" ]; then
            COMPREPLY=($(compgen -P "${cur%%=*}=" -W "$vals" -- "${cur#*=}"))
            return
        fi
    fi
    if [ "$cmd" = loop ] && [[ $cur != -* ]] && [ "$prev" != -C ] && [ "$prev" != --dir ]; then
        COMPREPLY=($(compgen -W "$_tlperf_loop_subs" -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_tlperf_opts "$cmd")" -- "$cur"))
    elif [ "$cmd" = explain ]; then
        COMPREPLY=($(compgen -W "$_tlperf_rules" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _tlperf tlperf tlab tlgate
BASH
} >"$ROOT/completions/tlperf.bash"

{
    echo "#compdef tlperf tlab tlgate"
    echo "# zsh completion for tlperf, tlab and tlgate (generated by scripts/gen-cli-docs.sh)"
    echo "# _tlperf_opts CMD: reply=('OPTION:help' ...) for _describe"
    echo "_tlperf_opts() {"
    echo "    case \$1 in"
    while read -r key args; do
        # shellcheck disable=SC2086
        printf '    %s) reply=(%s) ;;\n' "$key" "$(zsh_entries $args)"
    done <"$TMP/keys"
    echo "    esac"
    echo "}"
    echo "# _tlperf_values CMD OPTION: reply=(VALUE ...) when OPTION has a fixed set"
    echo "_tlperf_values() {"
    echo "    case \"\$1 \$2\" in"
    while read -r key args; do
        # shellcheck disable=SC2086
        choices "$key" $args | while read -r o v; do
            printf '    "%s %s") reply=(%s) ;;\n' "$key" "$o" "$v"
        done
    done <"$TMP/keys"
    echo "    esac"
    echo "}"
    printf '_tlperf_cmds=(%s)\n' "$(tr '\n' ' ' <"$TMP/cmds" | sed 's/ $//')"
    printf '_tlperf_loop_subs=(%s)\n' "$LOOPSUBS"
    printf '_tlperf_rules=(\n'
    awk -F'\t' '{ s = $2; gsub(/\047/, "\047\\\047\047", s); printf "    \047%s:%s\047\n", $1, s }' "$TMP/rules"
    printf ')\n'
    # the command descriptions, from `tlperf --help`
    printf '_tlperf_cmd_descs=(\n'
    "$T" --help | awk '/^commands:/{on=1;next} on&&/^  [a-z]/{ n = $1; $1 = ""; sub(/^ +/, ""); gsub(/\047/, "\047\\\047\047"); printf "    \047%s:%s\047\n", n, $0 } on&&/^$/{exit}'
    printf ')\n'
    cat <<'ZSH'
_tlperf() {
    local cmd i=2 w prev cur=${words[CURRENT]}
    local -a reply
    case ${words[1]:t} in
    tlab) cmd=ab; i=1 ;;
    tlgate) cmd=gate; i=1 ;;
    *)
        if (( CURRENT == 2 )); then
            if [[ $cur == -* ]]; then
                compadd -- --help --version
            else
                _describe -t commands 'tlperf command' _tlperf_cmd_descs
            fi
            return
        fi
        cmd=${words[2]} ;;
    esac
    prev=${words[CURRENT-1]}
    if [[ $cmd == loop ]]; then
        for w in ${words[i+1,CURRENT-1]}; do
            (( ${_tlperf_loop_subs[(Ie)$w]} )) && cmd=loop-$w
        done
    fi
    # the value of an option: "--format X" or "--format=X"
    reply=()
    _tlperf_values $cmd $prev
    if (( ${#reply} )); then
        compadd -a reply
        return
    fi
    if [[ $cur == --*=* ]]; then
        _tlperf_values $cmd ${cur%%=*}
        if (( ${#reply} )); then
            compset -P '*='
            compadd -a reply
            return
        fi
    fi
    if [[ $cmd == loop && $cur != -* && $prev != -C && $prev != --dir ]]; then
        compadd -- $_tlperf_loop_subs
        return
    fi
    if [[ $cur == -* ]]; then
        _tlperf_opts $cmd
        _describe -t options 'option' reply
    elif [[ $cmd == explain ]]; then
        _describe -t rules 'rule' _tlperf_rules
    else
        _files
    fi
}
_tlperf "$@"
ZSH
} >"$ROOT/completions/_tlperf"
echo "gen-cli-docs: docs/tlperf.1 docs/tlab.1 docs/tlgate.1 completions/tlperf.bash completions/_tlperf"
