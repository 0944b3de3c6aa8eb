Eavl0 = avl_insrt()
