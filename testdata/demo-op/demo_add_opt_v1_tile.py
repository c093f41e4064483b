# round 1, branch tile: larger tiles, fewer DMA round trips (clear win)
mean_us n1024 9.0
mean_us n65536 60.0
l0 pass
