Eavl0 = avl_new()
avl_inorder
