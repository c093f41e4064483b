# sim_e2e_gen.awk: one synthetic run for `tlab --source stdout`, written
# independently of stats/synth.c (its own generator, awk's u01()), so the
# end-to-end check does not share the simulation's code.
#   awk -v mean=US -v gap=G -v p=P -v q=Q -v olo=L -v ohi=H -v drift=D -v seed=S -f sim_e2e_gen.awk
# The run lands slow (level * (1 + gap)) with probability p, is an outlier
# run (level * (1 + U(olo, ohi))) with probability q, drifts by `drift` per
# run, and prints 15 launches with 1% noise, one per line.
# Random numbers: Park-Miller (multiplier 48271, exact in doubles), seeded
# from (seed, pair, arm) through a few rounds of squaring modulo a prime
# below 2^26 (exact in doubles, and not linear: a linear seed gives
# outputs on a lattice across neighbouring seeds, as do awk's own
# srand/rand in some awks).
function u01() { x = (48271 * x) % 2147483647; return x / 2147483647 }
BEGIN {
    pair = ENVIRON["TLAB_PAIR"] + 0
    arm = ENVIRON["TLAB_ARM"] == "B" ? 1 : 0
    h = (seed * 104729 + pair * 7919 + arm * 31 + 17) % 67108859
    for (i = 0; i < 6; i++) h = (h * h + 12345 + i) % 67108859
    x = 1 + h
    for (i = 0; i < 20; i++) u01()
    lvl = mean
    if (u01() < p) lvl *= 1 + gap
    lvl *= 1 + drift * (2 * pair + arm)
    if (u01() < q) lvl *= 1 + olo + (ohi - olo) * u01()
    for (i = 0; i < 15; i++) {
        u1 = u01(); u2 = u01()
        if (u1 < 1e-12) u1 = 1e-12
        z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
        printf "%.6f\n", lvl * (1 + 0.01 * z)
    }
}
