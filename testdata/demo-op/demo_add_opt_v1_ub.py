# round 1, branch ub: UB buffer reuse (slower on the large shape)
mean_us n1024 11.5
mean_us n65536 86.0
l0 pass
