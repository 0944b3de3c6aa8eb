Eavl0 = avl_new()
avl_inorder(avl0) x
