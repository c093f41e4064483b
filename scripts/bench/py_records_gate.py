#!/usr/bin/env python3
"""py_records_gate.py: the comparison baseline of `make bench` for tlgate.

It models the public Python gate's records check (gate_lint.py's
perf_records_lint, the check tlgate replaced), run in one process over a
whole tree: for every perf_opt/ directory it reads perf_records.jsonl whole,
json.loads each non-blank line, checks that the line is an object with the
required fields, a numeric duration_us and a boolean l0_pass, then reads
opt_log.md and looks for the per-round comparison table and the
final_latency claim, which it reconciles against the recorded durations
within 1%. A missing or empty records file is one finding and the log is
then not read, as in the old gate. Written for this project; it reproduces
the work, not the code. Checked on 2026-12-01 against the real function
(run in one process over the bench tree, outside the committed bench): the
same steps per line and per directory, the same two patterns, the same
finding count on testdata/, and the same CPU time within the noise.

usage: py_records_gate.py TREE   (prints "dirs records problems")
"""
import json
import os
import re
import sys

# the seven fields the old gate requires of a v1 record (reference-fixtures EXPECTED.md)
REQUIRED = ("round", "candidate_id", "dispatch_path", "workload", "duration_us", "l0_pass", "timestamp")
# the old gate's two patterns as it wrote them: "current best" or
# "current-best" in any case; final_latency, an ASCII or full-width colon, a number
CURRENT_BEST = re.compile(r"current[- ]best", re.I)
FINAL_LATENCY = re.compile(r"final_latency\s*[：:]\s*(\d+(?:\.\d+)?)")
TOLERANCE = 0.01


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def check_records(path):
    """Problems of one perf_records.jsonl, and the durations it records."""
    problems, durations = [], []
    if not os.path.exists(path):
        return None, durations  # a warning only, and the log is not read
    raw = read_text(path)
    if raw is None or not raw.strip():
        return None, durations
    for n, line in enumerate(raw.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError as e:
            problems.append(f"{n}: not JSON: {e}")
            continue
        if not isinstance(rec, dict):
            problems.append(f"{n}: not an object")
            continue
        gone = [k for k in REQUIRED if k not in rec]
        if gone:
            problems.append(f"{n}: missing {', '.join(gone)}")
            continue
        d = rec["duration_us"]
        if isinstance(d, bool) or not isinstance(d, (int, float)):
            problems.append(f"{n}: duration_us is not a number")
            continue
        if not isinstance(rec["l0_pass"], bool):
            problems.append(f"{n}: l0_pass is not a boolean")
            continue
        durations.append(float(d))
    return problems, durations


def check_log(path, durations):
    log = read_text(path) or ""
    problems = []
    if "Task Duration" not in log or not CURRENT_BEST.search(log):
        problems.append("no comparison table")
    if durations:
        m = FINAL_LATENCY.search(log)
        if not m:
            problems.append("no final_latency")
        else:
            final = float(m.group(1))
            if not any(abs(d - final) <= max(TOLERANCE * final, 1e-9) for d in durations):
                problems.append("final_latency not reconciled")
    return problems


def main():
    dirs = records = nprob = 0
    for root, subdirs, _ in os.walk(sys.argv[1]):
        subdirs.sort()
        if os.path.basename(root) != "perf_opt":
            continue
        dirs += 1
        probs, durs = check_records(os.path.join(root, "perf_records.jsonl"))
        if probs is None:  # missing or empty: one finding, the log is not read
            nprob += 1
            continue
        probs += check_log(os.path.join(root, "opt_log.md"), durs)
        records += len(durs)
        nprob += len(probs)
    print(dirs, records, nprob)


if __name__ == "__main__":
    main()
