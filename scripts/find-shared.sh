#!/bin/sh
# Prints the directory of the shared data the tests read when present
# (../shared: real tuning logs, msprof samples): beside the project, else
# beside the repository the project was cloned from when that is a local
# path (a clone in a scratch directory, `git clone . "$(mktemp -d)"`),
# else nothing. Used by the Makefile's test targets and tests/cli/run-all.sh.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -d "$ROOT/../shared" ]; then
    (cd "$ROOT/../shared" && pwd)
    exit 0
fi
url=$(git -C "$ROOT" config --get remote.origin.url 2>/dev/null) || exit 0
case $url in
    file://*) url=${url#file://} ;;
    /*) ;;
    *) exit 0 ;; # a remote: nothing beside it here
esac
if [ -d "$url/../shared" ]; then
    (cd "$url/../shared" && pwd)
fi
exit 0
