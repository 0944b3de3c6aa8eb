Eavl0 = avl_new()
avl_insrt(avl0, int0)
