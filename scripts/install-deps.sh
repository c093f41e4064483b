#!/bin/sh
# Install the Debian packages tlperf builds against, when they are missing.
# Run by the Makefile when a header or library cannot be found; safe to rerun.
#   install-deps.sh          everything: the build and what the tests run
#   install-deps.sh build    only what `make` needs to build tlperf (a CI job
#                            that only runs the gate); --list prints the names
set -eu
# cmark-gfm (GitHub's own renderer) reads Markdown as GitHub shows it (the
# gate's logs); ICU gives Unicode normalisation and confusable skeletons for
# names. The binary links GSL, libcsv, cmark-gfm and ICU from the static
# archives these -dev packages carry, and libstdc++.a (for ICU's C++
# inside) from g++'s libstdc++ -dev package, named here for a job that
# installs gcc without build-essential (the Makefile checks each archive:
# STATIC_ARCHIVES). icu-devtools (which libicu-dev depends on) has icupkg,
# which cuts ICU's data to the items the binary uses (mk/icudata.mk).
BUILD_PKGS="build-essential g++ libgsl-dev libcjson-dev libcsv-dev"
BUILD_PKGS="$BUILD_PKGS libcmark-gfm-dev libcmark-gfm-extensions-dev libicu-dev icu-devtools"
WHAT=all LIST=0
for a in "$@"; do
    case $a in
    build) WHAT=build ;;
    --list) LIST=1 ;;
    *) echo "install-deps: error: unknown argument '$a' (build, --list)" >&2; exit 2 ;;
    esac
done
# The tests: cmocka (units), the cmark-gfm program and jq (what the tests
# compare against).
PKGS="$BUILD_PKGS libcmocka-dev cmark-gfm jq"
# Everything else a test runs: git (pull-request mode), python3 and its
# yaml (schemas, CI files), xmllint (SVG/HTML well-formedness), groff (man
# page warnings), zsh (the zsh completion), script(1) from bsdutils (a pty).
# Under CI=true a test missing one of these fails instead of skipping.
PKGS="$PKGS git python3 python3-yaml libxml2-utils groff-base zsh bsdutils"
# clang brings libFuzzer for `make fuzz`; only installed when asked for.
if [ "${TLPERF_WITH_FUZZ:-0}" = 1 ]; then PKGS="$PKGS clang"; fi
# pmccabe measures function complexity for `make complexity`; only when asked.
if [ "${TLPERF_WITH_COMPLEXITY:-0}" = 1 ]; then PKGS="$PKGS pmccabe"; fi
if [ "$WHAT" = build ]; then PKGS=$BUILD_PKGS; fi
if [ "$LIST" = 1 ]; then echo $PKGS; exit 0; fi
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install-deps: error: need root or sudo to install:$missing" >&2
        exit 2
    fi
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing
