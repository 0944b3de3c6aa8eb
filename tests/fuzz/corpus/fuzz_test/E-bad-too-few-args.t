Eavl0 = avl_new()
avl_insert(avl0)
