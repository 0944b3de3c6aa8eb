E# model harness
avl0 = avl_new()
int0 = 7
s1 = "b c"
s0 = "#"
avl_insert(avl0, int0)
int1 = avl_size(avl0)
tag(avl0, -3, s1)

avl_find(avl0, int1)  # tail
tag(avl1, 7, s0)
