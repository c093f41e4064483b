# round 3, branch vec: a different vectorisation axis; fast but wrong
mean_us n1024 6.0
mean_us n65536 40.0
l0 fail
