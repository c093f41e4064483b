# tlperf audit over testdata/audit/repo: four operators (v1 and v2), two of
# whose claims do not reconcile (argmax: final_latency 40 us vs the winner's
# 50 us record; softmax: Final table final_us 40 vs the final record 44).
. "$ROOT/tests/cli/lib.sh"
set -e
T=$TMPDIR_TEST
cp -R "$TESTDATA/audit/repo" "$T/repo"
cd "$T"

# markdown (default): one row per operator and workload, totals, exit 1
expect_exit 1 "$TLPERF" audit repo
expect_grep "4 operators checked: 2 reconciled, 2 unreconcilable" "$OUT"
expect_grep "2 of 4 operators do not reconcile" "$ERR"
[ "$(grep -c '^| repo/ops/' "$OUT")" = 6 ] || fail "want 6 workload rows"
expect_grep "| repo/ops/argmax | v1 | vocab-32k | 62 | 40 | r1\\_vector\\_max | 50 | -20.00 | 1.240x |" "$OUT"
expect_grep "| repo/ops/softmax | v2 | rows-4k | 88 | 40 | r1\\_rows4 | 44 | -9.09 |" "$OUT"
grep '^| repo/ops/layer\\_norm ' "$OUT" | grep -q '| yes | pass |' || fail "layer_norm should reconcile and pass"
grep '^| repo/ops/mish ' "$OUT" | grep -q '| success | yes | pass |' || fail "mish should reconcile with stop reason success"
[ "$(grep -c 'MISMATCH' "$OUT")" = 2 ] || fail "want 2 mismatches"

# csv: the numbers are consistent with each other (speedup = baseline /
# winner, deviation = claimed vs winner, overall geomean over workloads)
expect_exit 1 "$TLPERF" audit --format csv repo
head -n 1 "$OUT" | grep -q '^operator,contract,workload,baseline_us,claimed_us,winner,winner_us,deviation_pct,speedup,operator_geomean,stop_reason,status,gate_verdict,gate_errors,gate_warnings' ||
    fail "csv header"
[ "$(tail -n +2 "$OUT" | wc -l)" = 6 ] || fail "want 6 csv rows"
tr -d '\r' <"$OUT" | awk -F, 'NR > 1 {
    sp = $4 / $7; dev = 100 * ($5 - $7) / $7
    if ((sp - $9) ^ 2 > 1e-8) { print "speedup " $0; bad = 1 }
    if ((dev - $8) ^ 2 > 1e-6) { print "deviation " $0; bad = 1 }
    if ((dev ^ 2 <= 1) != ($12 == "reconciled")) { print "status " $0; bad = 1 }
    s += log(sp); n++
} END { printf "%.3f\n", exp(s / n) > "/dev/stderr"; exit bad }' 2>"$T/geo" || fail "csv columns inconsistent"
cp "$OUT" "$T/audit.csv"
expect_exit 1 "$TLPERF" audit repo
expect_grep "overall geometric-mean speedup $(cat "$T/geo")x over 6 workloads" "$OUT"

# json: operators, workloads and totals
expect_exit 1 "$TLPERF" audit --format json repo
if need_cmd jq; then
    [ "$(jq '.operators | length' "$OUT")" = 4 ] || fail "json operators"
    [ "$(jq '[.operators[].workloads[]] | length' "$OUT")" = 6 ] || fail "json workloads"
    [ "$(jq '.totals.unreconcilable' "$OUT")" = 2 ] || fail "json totals"
    [ "$(jq -r '.operators[] | select(.operator == "repo/ops/argmax") | .workloads[0].status' "$OUT")" = MISMATCH ] ||
        fail "json argmax status"
    [ "$(jq '.operators[] | select(.operator == "repo/ops/layer_norm") | .stop_reason' "$OUT")" = null ] ||
        fail "json: no stop reason is null"
    [ "$(jq -r '.operators[] | select(.operator == "repo/ops/mish") | .contract' "$OUT")" = v2 ] || fail "json contract"
else
    expect_grep '"unreconcilable":	2' "$OUT"
fi

# html: one self-contained file, -o replaces it only when complete
expect_exit 1 "$TLPERF" audit --format html -o "$T/audit.html" repo
[ ! -s "$OUT" ] || fail "-o should leave stdout empty"
H="$T/audit.html"
expect_grep "<!DOCTYPE html>" "$H"
expect_grep "<svg xmlns=\"http://www.w3.org/2000/svg\"" "$H"
expect_grep "<table>" "$H"
# no network: nothing fetched (the SVG namespace is a name, not a fetch)
if grep -Eo '(src|href)=|url\(|@import|https?://[^"]*' "$H" | grep -v '^http://www.w3.org/2000/svg$' | grep -q .; then
    fail "the HTML report references something outside itself"
fi
[ "$(grep -c '<tr class="fail">' "$H")" = 2 ] || fail "want 2 red rows"
[ "$(grep -c 'class="bar' "$H")" = 4 ] || fail "want one bar per operator"
[ "$(grep -c 'class="bar failing"' "$H")" = 2 ] || fail "want 2 red bars"
for f in "$T"/audit.html.tmp*; do [ ! -e "$f" ] || fail "temporary file left behind: $f"; done

# the reconciled subset exits 0; a perf_opt directory works as a root
expect_exit 0 "$TLPERF" audit repo/ops/layer_norm repo/ops/mish/perf_opt
expect_grep "2 operators checked: 2 reconciled, 0 unreconcilable" "$OUT"

# .git, node_modules and symlinked directories are not searched
mkdir -p repo/.git/objects repo/node_modules/pkg
cp -R repo/ops/argmax/perf_opt repo/.git/objects/perf_opt
cp -R repo/ops/argmax/perf_opt repo/node_modules/pkg/perf_opt
ln -s "$T/repo/ops" repo/ops-link
expect_exit 1 "$TLPERF" audit repo
expect_grep "4 operators checked" "$OUT"
rm -rf repo/.git repo/node_modules repo/ops-link

# from inside the tree: names relative to it
(cd repo && expect_exit 1 "$TLPERF" audit --format csv)
grep -q '^ops/argmax,v1,vocab-32k,' "$OUT" || fail "audit of '.' should name ops/argmax"
expect_no_grep "./ops" "$OUT"

# a claim moved within 1% still reconciles; 5% off does not
sed -i 's/dit-small: final_latency: 30.0 us/dit-small: final_latency: 30.2 us/' repo/ops/layer_norm/perf_opt/opt_log.md
expect_exit 0 "$TLPERF" audit repo/ops/layer_norm
sed -i 's/dit-small: final_latency: 30.2 us/dit-small: final_latency: 31.5 us/' repo/ops/layer_norm/perf_opt/opt_log.md
expect_exit 1 "$TLPERF" audit repo/ops/layer_norm
expect_grep "| dit-small | 45 | 31.5 | r2\\_double\\_buffer | 30 | +5.00 |" "$OUT"

# no perf_opt under an explicit ROOT: exit 2 (a mistyped root must not
# pass), 0 with --allow-empty; bad usage and unreadable roots exit 2
mkdir "$T/empty"
expect_exit 2 "$TLPERF" audit "$T/empty"
expect_grep "nothing to audit under '$T/empty'" "$ERR"
expect_exit 0 "$TLPERF" audit --allow-empty "$T/empty"
expect_grep "no perf_opt/ directory found" "$ERR"
expect_exit 2 "$TLPERF" audit "$T/nonexistent"
expect_grep "cannot read '$T/nonexistent'" "$ERR"
expect_exit 2 "$TLPERF" audit --format pdf repo
expect_grep "option '--format' wants markdown, csv, json or html, got 'pdf'" "$ERR"
expect_exit 2 "$TLPERF" audit -o "$T/no/such/dir/a.html" repo
expect_grep "cannot write" "$ERR"

# names from the tree are quoted safely in every table: Markdown cells with
# the shared strict escaping ('|', Markdown punctuation, < > & as entities,
# an ESC byte shown as \x1b), CSV fields quoted when they hold a comma or a
# quote, HTML escaped
mkdir -p "$T/odd/ops"
cp -R "$TESTDATA/audit/repo/ops/argmax" "$T/odd/ops/a|b<c>&_d*[x]"
cp -R "$TESTDATA/audit/repo/ops/layer_norm" "$T/odd/ops/q,\"r$(printf '\033')[31m"
(cd "$T" && expect_exit 1 "$TLPERF" audit odd)
expect_grep '| odd/ops/a\|b&lt;c&gt;&amp;\_d\*\[x\] | v1 | vocab-32k | 62 | 40 | r1\_vector\_max | 50 | -20.00 | 1.240x | 1.240x | | MISMATCH | fail (1 error) |' "$OUT"
expect_grep '| odd/ops/q,"r\\x1b\[31m | v1 | dit-small |' "$OUT"
expect_no_grep "$(printf '\033')" "$OUT"
(cd "$T" && expect_exit 1 "$TLPERF" audit --format csv odd)
expect_grep 'odd/ops/a|b<c>&_d*[x],v1,vocab-32k,62,40,r1_vector_max,50,-20.0000,' "$OUT"
expect_grep '"odd/ops/q,""r\x1b[31m",v1,dit-small,' "$OUT"
(cd "$T" && expect_exit 1 "$TLPERF" audit --format html -o "$T/odd.html" odd)
expect_grep '<td>odd/ops/a|b&lt;c&gt;&amp;_d*[x]</td>' "$T/odd.html"
# where and why (issue 37.6): Markdown and CSV carry the claim's line in
# opt_log.md, the winner record's line in perf_records.jsonl and the reason
# of a mismatch, and print figures as the log wrote them (80.508, not 80.51)
rm -rf "$T/exact"; cp -R "$TESTDATA/audit/repo" "$T/exact"
sed -i 's/^- dit-large: final_latency: 80.0 us/- dit-large: final_latency: 80.508 us/' "$T/exact/ops/layer_norm/perf_opt/opt_log.md"
expect_grep "final_latency: 80.508 us" "$T/exact/ops/layer_norm/perf_opt/opt_log.md"
expect_exit 1 "$TLPERF" audit exact
expect_grep "| exact/ops/layer\\_norm | v1 | dit-large | 120 | 80.508 | r2\\_double\\_buffer | 80 | +0.63 |" "$OUT"
expect_grep "| gate | evidence | claim line | record line | why |" "$OUT"
grep '^| exact/ops/layer\\_norm .* dit-large ' "$OUT" | grep -q '| yes | pass | records | 37 | 6 | |$' || fail "markdown: no line numbers for a reconciled row"
expect_grep "| MISMATCH | fail (1 error) | records | 19 | 2 | claimed 40 us (opt\\_log.md line 19) is 20.00% below the winner's record 50 us (perf\\_records.jsonl line 2): more than 1% |" "$OUT"
expect_exit 1 "$TLPERF" audit --format csv exact
head -n 1 "$OUT" | grep -q ',gate_errors,gate_warnings,claim_line,winner_line,reason,evidence' || fail "csv header: $(head -n 1 "$OUT")"
expect_grep "exact/ops/layer_norm,v1,dit-large,120,80.508,r2_double_buffer,80," "$OUT"
expect_grep ",MISMATCH,fail (1 error),1,0,19,2,claimed 40 us (opt_log.md line 19) is 20.00% below the winner's record 50 us (perf_records.jsonl line 2): more than 1%,records" "$OUT"
expect_grep "exact/ops/softmax,v2,rows-4k,88,40,r1_rows4,44," "$OUT"
expect_grep "claimed 40 us (opt_log.md line 27) is 9.09% below the winner's record 44 us (perf_records.jsonl line 3)" "$OUT"
echo "audit ok"
