# tlab --protocol seq (the default until 2026-12-06, now fast) end to end: fake profiler and kernel
# with run-state bimodality, the seq JSON fields, seeded random order
# recorded in runs.jsonl, --source stdout / csv with tiny scripts, resume,
# usage errors.
. "$ROOT/tests/cli/lib.sh"
set -e
FK=$BUILD_DIR/bin/fake-kernel
FAKE=$ROOT/scripts/fake-msprof
[ -x "$FK" ] || fail "fake kernel not built: $FK"
cd "$TMPDIR_TEST"

# B 8% faster, runs bimodal (+-2% per process): B_better, stopping early
expect_exit 0 "$TLAB" --protocol seq --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir faster --seed 5 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9.2 --seed 11"
cp "$OUT" faster.json
expect_grep '"protocol":	"seq"' faster.json
expect_grep '"verdict":	"B_better"' faster.json
expect_grep '"stop_reason":	"gain"' faster.json
for f in gain gain_interval within_state_gain within_state_interval critical_z min_pairs \
         max_pairs min_gain alpha false_adoption_bound pairs_needed order_seed signflip_p states fisher_p drift_per_run \
         source a_medians_us b_rel_change runs ref; do
    expect_grep "\"$f\":" faster.json
done

expect_grep '"order_seed":	5,' faster.json
expect_grep '"source":	"msprof"' faster.json
expect_grep '"state":	"' faster.json
pairs=$(sed -n 's/^	"pairs":	\([0-9]*\),$/\1/p' faster.json)
[ "$pairs" -ge 3 ] && [ "$pairs" -le 16 ] || fail "pairs $pairs outside 3..16"
# every run in the journal names the protocol it was decided under (the gate replays with it)
[ "$(grep -c '"protocol":"seq"}$' faster/runs.jsonl)" -eq $((2 * pairs)) ] || fail "runs.jsonl: a run without its protocol"
[ "$(wc -l <faster/runs.jsonl)" -eq $((2 * pairs)) ] || fail "runs.jsonl should hold $((2 * pairs)) runs"
expect_grep "verdict: B_better (B gain +" "$ERR"
# the order within each pair is drawn per pair and recorded: progress lines,
# runs.jsonl and the JSON agree, and over the pairs both orders occur
grep '^pair ' "$ERR" | sed 's/^pair \([0-9]*\)\/16 \([AB]\).*/\1\2/' | tr '\n' ' ' >order_stderr
sed 's/.*"arm":"\([AB]\)","pair":\([0-9]*\),"order":\([12]\).*/\2\1/' faster/runs.jsonl | tr '\n' ' ' >order_journal
cmp -s order_stderr order_journal || fail "order differs: $(cat order_stderr) / $(cat order_journal)"
grep -q '"arm":"A","pair":[0-9]*,"order":1' faster/runs.jsonl || fail "A never ran first"
grep -q '"arm":"B","pair":[0-9]*,"order":1' faster/runs.jsonl || fail "B never ran first"
# same seed: same order and same figures; another seed: another order
expect_exit 0 "$TLAB" --protocol seq --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir again --seed 5 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9.2 --seed 11"
grep '^pair ' "$ERR" | sed 's/^pair \([0-9]*\)\/16 \([AB]\).*/\1\2/' | tr '\n' ' ' >order_again
cmp -s order_stderr order_again || fail "same --seed, different order"
expect_exit 0 "$TLAB" --protocol seq --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir other --seed 6 \
    --a-cmd "$FK --mean 10 --seed 11" --b-cmd "$FK --mean 9.2 --seed 11"
grep '^pair ' "$ERR" | sed 's/^pair \([0-9]*\)\/16 \([AB]\).*/\1\2/' | tr '\n' ' ' >order_other
cmp -s order_stderr order_other && fail "--seed 6 drew the same order as --seed 5"

# identical arms, bimodal runs: not B_better (a tie, normally within the state)
expect_exit 0 "$TLAB" --protocol seq --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir same --seed 2 \
    --a-cmd "$FK --mean 10 --seed 3" --b-cmd "$FK --mean 10 --seed 3"
expect_grep '"verdict":	"tie"' "$OUT"
# B 8% slower: A_better
expect_exit 0 "$TLAB" --protocol seq --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir slower --seed 2 \
    --a-cmd "$FK --mean 10 --seed 4" --b-cmd "$FK --mean 10.8 --seed 4"
expect_grep '"verdict":	"A_better"' "$OUT"
expect_grep '"stop_reason":	"loss"' "$OUT"

# --source stdout: the command prints its own durations (lines or a JSON array)
cat >a.sh <<'SH'
echo "# bench A, pair $TLAB_PAIR" ; printf '10.0\n10.1\n9.9\n10.05\n'
SH
cat >b.sh <<'SH'
echo "[9.0, 9.1, 8.9, 9.05]"; echo "b: $TLAB_LAUNCH_COUNT launches" >&2
SH
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir stdout --seed 1 --a-cmd "sh a.sh" --b-cmd "sh b.sh"
expect_grep '"verdict":	"B_better"' "$OUT"
expect_grep '"source":	"stdout"' "$OUT"
expect_grep '"launches":	4' "$OUT"
# identical runs in each arm: a clean 10% gain is clear to Student's t at
# once, but two run states 11% apart, A slow and B fast in every pair, fake
# it too often until the two-state bar of the look drops below its
# log-ratio 0.105: pair 6
expect_grep '"pairs":	6' "$OUT"
expect_grep '"stop_reason":	"gain"' "$OUT"
expect_grep '"pairs_needed":	6' "$OUT"
expect_grep '"alpha":	0.025' "$OUT"
expect_grep "b: 15 launches" stdout/logs/pair1B.log
[ -s stdout/pair1A/stdout.txt ] || fail "the stdout capture is kept in the run's directory"
# no msprof needed for stdout
PATH=/usr/bin:/bin TLAB_MSPROF=/nonexistent expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir nomsprof \
    --a-cmd "sh a.sh" --b-cmd "sh a.sh"
expect_grep '"verdict":	"tie"' "$OUT"
# a bench printing something else: exit 1, naming the file and line and the log
printf 'echo 10; echo oops\n' >bad.sh
expect_exit 1 "$TLAB" --protocol seq --source stdout --workdir bad --a-cmd "sh bad.sh" --b-cmd "sh a.sh"
expect_grep "stdout.txt:2: 'oops' is not a duration" "$ERR"
expect_grep '"log":' "$OUT"

# --source csv:GLOB:COLUMN: the bench writes CSV files into $TLAB_OUTPUT
cat >csv.sh <<'SH'
m=$1
printf 'Name,Duration (us),\nk,%s,\nk,NA,\n' "$m" >"$TLAB_OUTPUT/k_0.csv"
printf 'Name,Duration (us),\nk,%s,\nk,%s,\n' "$m" "$m" >"$TLAB_OUTPUT/k_1.csv"
SH
expect_exit 0 "$TLAB" --protocol seq --source "csv:k_*.csv:Duration (us)" --workdir csv --seed 1 \
    --a-cmd "sh csv.sh 20" --b-cmd "sh csv.sh 21"
expect_grep '"verdict":	"A_better"' "$OUT"
expect_grep '"launches":	3' "$OUT"
expect_grep '"source":	"csv"' "$OUT"
expect_exit 1 "$TLAB" --protocol seq --source "csv:k_*.csv:Time" --workdir csvbad --a-cmd "sh csv.sh 20" --b-cmd "sh csv.sh 20"
expect_grep "no column 'Time'" "$ERR"

# --resume: pair 3 of B fails once; the rest is measured after --resume,
# pair 3 keeping the order it started with
cat >flaky.sh <<'SH'
if [ "$TLAB_PAIR" = 3 ] && [ ! -e ok ]; then echo "flaky failure" >&2; exit 3; fi
printf '9\n9.1\n8.9\n'
SH
expect_exit 1 "$TLAB" --protocol seq --source stdout --workdir resume --seed 9 --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep "pair3B.log" "$OUT"
before=$(wc -l <resume/runs.jsonl)
grep -q '"pair":3' resume/runs.jsonl && first3=$(sed -n 's/.*"arm":"\([AB]\)","pair":3,"order":1.*/\1/p' resume/runs.jsonl)
touch ok
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir resume --seed 9 --resume --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep '"verdict":	"B_better"' "$OUT"
expect_grep "\"resumed_runs\":	$before" "$OUT"
if [ -n "${first3:-}" ]; then
    grep -q "\"arm\":\"$first3\",\"pair\":3,\"order\":1" resume/runs.jsonl || fail "pair 3 changed its order on resume"
    other=$([ "$first3" = A ] && echo B || echo A)
    grep -q "\"arm\":\"$other\",\"pair\":3,\"order\":2" resume/runs.jsonl || fail "pair 3 second arm not order 2"
fi

# the default protocol is fast (since 2026-12-06): the JSON and every run
# of the journal name it; a session measured under seq (the old default) is
# not continued under it, and the refusal says how to resume
expect_exit 0 "$TLAB" --source stdout --workdir dflt --seed 9 --a-cmd "sh a.sh" --b-cmd "sh b.sh"
expect_grep '"protocol":	"fast"' "$OUT"
expect_grep '"tlab_protocol":	"fast"' "$OUT"
n=$(wc -l <dflt/runs.jsonl)
[ "$(grep -c '"protocol":"fast"}$' dflt/runs.jsonl)" -eq "$n" ] || fail "default runs not recorded as fast"
cp -r resume oldseq
cp oldseq/runs.jsonl oldseq.keep
expect_exit 2 "$TLAB" --source stdout --workdir oldseq --resume --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep "was measured under --protocol seq; resume with --protocol seq" "$ERR"
cmp -s oldseq/runs.jsonl oldseq.keep || fail "a refused resume changed runs.jsonl"

# seq-v1, the rule seq replaced, is no longer a protocol of tlab
expect_exit 2 "$TLAB" --source stdout --workdir v1 --protocol seq-v1 --a-cmd "sh a.sh" --b-cmd "sh b.sh"
expect_grep "option '--protocol' wants fast, seq or ref, got 'seq-v1'" "$ERR"
[ ! -e v1/runs.jsonl ] || fail "a refused protocol measured runs"

# A session is resumed under the rule it was measured with: runs of ref
# continued under seq (or seq-v1's under anything) would have been peeked
# at by another rule; the journal is left as it was
cp -r resume mixed
sed -i 's/"protocol":"seq"}$/"protocol":"ref"}/' mixed/runs.jsonl
cp mixed/runs.jsonl mixed.before
expect_exit 2 "$TLAB" --protocol seq --source stdout --workdir mixed --seed 9 --resume --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep "mixed/runs.jsonl:1: run 1A was measured under --protocol ref; resume with --protocol ref, or use another --workdir" "$ERR"
expect_grep '"error":' "$OUT"
cmp -s mixed/runs.jsonl mixed.before || fail "mixed/runs.jsonl changed by a refused resume"
sed -i 's/"protocol":"ref"}$/"protocol":"seq-v1"}/' mixed/runs.jsonl
expect_exit 2 "$TLAB" --protocol seq --source stdout --workdir mixed --seed 9 --resume --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep "run 1A was measured under --protocol seq-v1, which seq replaced and tlab no longer offers; start a new session in another --workdir" "$ERR"
# a journal from before runs named their protocol resumes under any
sed -i 's/,"protocol":"seq-v1"}$/}/' mixed/runs.jsonl
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir mixed --seed 9 --resume --a-cmd "sh a.sh" --b-cmd "sh flaky.sh"
expect_grep '"verdict":	"B_better"' "$OUT"

# seq's futility: B alternates 30% above and below A; at that noise no
# verdict fits in the budget, so it stops early, inconclusive, and says how
# many pairs it would take
cat >noisy.sh <<'SH'
if [ $((TLAB_PAIR % 2)) -eq 0 ]; then echo "[13.0, 13.1, 12.9]"; else echo "[7.6, 7.7, 7.5]"; fi
SH
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir futile --seed 1 --a-cmd "sh a.sh" --b-cmd "sh noisy.sh"
expect_grep '"verdict":	"inconclusive"' "$OUT"
expect_grep '"stop_reason":	"futile"' "$OUT"
expect_grep "a verdict on --min-gain 0.01 would take" "$ERR"
grep -q '"pairs":	16' "$OUT" && fail "futility did not stop before the budget"
# with a larger budget the same runs go on longer before the verdict is
# out of reach (the bars of a budget other than 16 are computed: seconds)
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir futile2 --seed 1 --max-pairs 20 --a-cmd "sh a.sh" --b-cmd "sh noisy.sh"
expect_grep '"pairs":	10,' "$OUT"
expect_grep "more than --max-pairs 20: stopped after 10" "$ERR"
expect_exit 2 "$TLAB" --protocol seq --source stdout --workdir futile3 --max-pairs 25 --a-cmd "sh a.sh" --b-cmd "sh noisy.sh"
expect_grep "seq: max-pairs must be at most 24" "$ERR"

# --pairs is ref's: seq notes it and keeps its own budget
expect_exit 0 "$TLAB" --protocol seq --source stdout --workdir pairs --pairs 3 --a-cmd "sh a.sh" --b-cmd "sh b.sh"
expect_grep "--pairs applies to --protocol ref" "$ERR"
expect_grep '"pairs":	6' "$OUT"

# usage errors
expect_exit 2 "$TLAB" --protocol seq --source stdout --a-cmd x --b-cmd y --min-pairs 2
expect_exit 2 "$TLAB" --protocol seq --source stdout --a-cmd x --b-cmd y --min-pairs 6 --max-pairs 5
expect_grep "max-pairs must be at least min-pairs" "$ERR"
expect_exit 2 "$TLAB" --protocol seq --source stdout --a-cmd x --b-cmd y --max-pairs 500
expect_exit 2 "$TLAB" --protocol seq --source stdout --a-cmd x --b-cmd y --min-gain 0.05
expect_grep "min-gain must be in [0, noise)" "$ERR"
expect_exit 2 "$TLAB" --protocol seq --source nsys --a-cmd x --b-cmd y
expect_grep "unknown --source 'nsys'" "$ERR"
expect_exit 2 "$TLAB" --protocol seq --source csv:only --a-cmd x --b-cmd y
expect_exit 2 "$TLAB" --protocol seq --source stdout --a-cmd x --b-cmd y --seed -1
expect_exit 0 "$TLAB" --protocol seq --help
expect_grep "--protocol P" "$OUT"
expect_grep "--source SRC" "$OUT"

# One decision per result: under seq every field that says whether B is
# better agrees with the verdict; the reference rule's own decision
# figures are only in "ref"; b_rel_change keeps ab_test.py's meaning
# (round(-(medA - medB) / medA, 4), negative when B is faster). Checked on
# B faster, B slower, B equal and B a little faster (where the two rules
# may disagree).
one_decision() { # NAME
    python3 - "$1" <<'EOP' || fail "$1: more than one answer to 'is B better?'"
import json, sys
j = json.load(open(sys.argv[1]))
v = j["verdict"]
for k in ("sign_test_p", "direction_consistent", "pair_gain_ci"):
    assert k not in j, "top-level %s under seq" % k
assert "sign_test_p" not in j["exact"], "exact.sign_test_p under seq"
assert j["significant"] == (v in ("B_better", "A_better")), (j["significant"], v)
if v == "B_better":
    assert j["gain"] > 0 and j["gain_interval"][0] > 0, (v, j["gain"], j["gain_interval"])
if v == "A_better":
    assert j["gain"] < 0 and j["gain_interval"][1] < 0, (v, j["gain"], j["gain_interval"])
r = j["ref"]
assert set(("verdict", "significant", "sign_test_p", "direction_consistent")) <= set(r), r
ea, eb = j["exact"]["a_merged_median_us"], j["exact"]["b_merged_median_us"]
assert j["b_rel_change"] == round(-(ea - eb) / ea, 4), (j["b_rel_change"], ea, eb)
EOP
}
one_decision faster.json
for spec in "slower 10.8" "equal 10" "little 9.75"; do
    set -- $spec
    expect_exit 0 "$TLAB" --protocol seq -q --msprof "$FAKE" --launch-count 7 --warm-up 0 --workdir "od_$1" --seed 7 \
        --a-cmd "$FK --mean 10 --seed 21" --b-cmd "$FK --mean $2 --seed 22"
    cp "$OUT" "od_$1.json"
    one_decision "od_$1.json"
done
expect_grep '"verdict":	"A_better"' od_slower.json
