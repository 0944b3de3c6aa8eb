Eint0 = avl_new()
