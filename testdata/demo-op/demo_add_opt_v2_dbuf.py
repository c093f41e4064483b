# round 2, branch dbuf: double buffering on top of tile (a small gain,
# under 5%: goes to tlab)
mean_us n1024 8.64
mean_us n65536 57.7
l0 pass
