Eavl0 = avl_new()
s0 = "a"
tag(avl0, 8, s0)
