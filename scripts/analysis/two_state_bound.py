#!/usr/bin/env python3
"""two_state_bound.py: what any sequential A/B rule must pay to keep its
false-adoption guarantee over the two-state null family (issue 27).

Model: every run of arm A lands in a slow state (log gap g) with
probability pA, every run of B with pB, independently; B is not faster
(its mean equals A's), so a pair's log-ratio d takes the values
delta + g, delta, delta - g with delta = g (pB - pA). No within-state noise:
that is the family's extreme, where a sample can show no spread at all.

For a look after n pairs the rule adopts when the mean of d is at least m
and the studentized mean T = mean / (sd / sqrt(n)) is at least t. T does
not depend on g, only the mean does (largest at g = G), so the worst case
over the family is an exact sum over the trinomial counts of the three
values, maximised over a grid of (pA, pB). For each look n (3..16, the
error spent as alpha n^2 / sum k^2, the seq-v2 schedule) and each m, this
prints the smallest t that keeps the worst case within the look's share
of alpha, or says that no t does (the patterns with no spread alone
exceed it): the adoption a valid rule can have at that look.

With --one-look N it answers another question: if the rule looked once,
after N pairs, with the whole alpha, what is the least m for each t, and
how often would that single rectangle adopt a real gain under run states
(both arms slow half the time, no noise within a state, the same model)?
That is what the two-state family alone allows; a sequential rule, which
spends alpha over many looks and must also hold where the model does not
(outlier runs, noise, drift), gets less (docs/tlab.md, "What the guarantee
costs").

Usage: python3 scripts/analysis/two_state_bound.py [--gap 0.105]
       [--alpha 0.025] [--grid 40] [--one-look N]   (about a minute)
"""
import argparse
import math


def configs(n):
    for kp in range(n + 1):
        for km in range(n + 1 - kp):
            yield kp, n - kp - km, km


def null_events(n, ps, gap):
    """Per (pA, pB): the (mean, T, probability) of every count pattern
    whose mean is positive."""
    lf = [math.lgamma(i + 1) for i in range(n + 2)]
    shape = []
    for kp, k0, km in configs(n):
        xm = (kp - km) / n
        xv = (kp * (1 - xm) ** 2 + k0 * xm ** 2 + km * (1 + xm) ** 2) / (n - 1)
        shape.append((kp, k0, km, xm, math.sqrt(xv)))
    out = []
    for pa in ps:
        for pb in ps:
            pp, pm = pa * (1 - pb), pb * (1 - pa)
            p0 = 1 - pp - pm
            r = pb - pa
            ev = []
            for kp, k0, km, xm, xs in shape:
                if (pp == 0 and kp) or (pm == 0 and km) or (p0 <= 0 and k0):
                    continue
                lp = lf[n] - lf[kp] - lf[k0] - lf[km]
                lp += (kp * math.log(pp) if kp else 0) + (k0 * math.log(p0) if k0 else 0)
                lp += km * math.log(pm) if km else 0
                pr = math.exp(lp)
                num = r + xm
                if pr < 1e-13 or num <= 0:
                    continue
                ev.append((gap * num, math.inf if xs == 0 else num / xs * math.sqrt(n), pr))
            out.append(ev)
    return out


def worst(events, m, t):
    return max(sum(pr for mean, tt, pr in ev if tt >= t and mean >= m) for ev in events)


def alt_power(n, m, t, gain, g, p=0.5):
    """Adoption by the rectangle {mean >= m, T >= t} after n pairs of a B
    whose runs are a log `gain` faster, both arms slow with probability p
    at log gap g, no noise within a state: d = gain + g x."""
    lf = [math.lgamma(i + 1) for i in range(n + 2)]
    pp = pm = p * (1 - p)
    p0 = 1 - pp - pm
    tot = 0.0
    for kp, k0, km in configs(n):
        xm = (kp - km) / n
        xv = (kp * (1 - xm) ** 2 + k0 * xm ** 2 + km * (1 + xm) ** 2) / (n - 1)
        mean = gain + g * xm
        tt = math.inf if xv <= 1e-15 else mean / (g * math.sqrt(xv)) * math.sqrt(n)
        if mean < m or tt < t:
            continue
        lp = lf[n] - lf[kp] - lf[k0] - lf[km]
        lp += kp * math.log(pp) + k0 * math.log(p0) + km * math.log(pm)
        tot += math.exp(lp)
    return tot


def one_look(n, a, ps):
    ev = null_events(n, ps, a.gap)
    print("| t at least | least m (log) | 5% gain, G 8% | 5% gain, G 4% | 3% gain, G 4% |")
    print("|---:|---:|---:|---:|---:|")
    for t in (2.13, 2.3, 2.5, 2.7, 2.9, 3.2, 3.5, 4.0, 5.0, 6.0, 8.0, math.inf):
        lo, hi = 0.0, 0.2
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if worst(ev, mid, t) <= a.alpha else (mid, hi)
        g8, g4 = math.log(1.08), math.log(1.04)
        print("| %.2f | %.4f | %.1f%% | %.1f%% | %.1f%% |" % (
            t, hi, 100 * alt_power(n, hi, t, -math.log(0.95), g8),
            100 * alt_power(n, hi, t, -math.log(0.95), g4),
            100 * alt_power(n, hi, t, -math.log(0.97), g4)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gap", type=float, default=0.105, help="largest log gap between the states")
    ap.add_argument("--alpha", type=float, default=0.025)
    ap.add_argument("--grid", type=int, default=40, help="steps of pA and pB over [0, 1]")
    ap.add_argument("--one-look", type=int, default=0, metavar="N",
                    help="a single look after N pairs with the whole alpha")
    a = ap.parse_args()
    if a.one_look:
        one_look(a.one_look, a, [i / a.grid for i in range(a.grid + 1)])
        return
    looks = range(3, 17)
    total = sum(k * k for k in looks)
    ps = [i / a.grid for i in range(a.grid + 1)]
    print("| pairs | error share | smallest mean m (log) with a finite t: t | larger m: t |")
    print("|---:|---:|---|---|")
    for n in looks:
        share = a.alpha * n * n / total
        ev = null_events(n, ps, a.gap)
        row = []
        for k in range(2, 40):
            m = 0.005 * k
            if worst(ev, m, math.inf) > share:
                continue
            lo, hi = 0.0, 1e4
            for _ in range(40):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if worst(ev, m, mid) <= share else (mid, hi)
            row.append((m, hi))
            if hi < 1e-6:
                break
        first = "%.3f: %.1f" % row[0] if row else "none"
        rest = ", ".join("%.3f: %.1f" % x for x in row[1:4])
        print("| %d | %.4f | %s | %s |" % (n, share, first, rest))


if __name__ == "__main__":
    main()
