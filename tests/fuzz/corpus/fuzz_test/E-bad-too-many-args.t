Eavl0 = avl_new()
int0 = 1
avl_insert(avl0, int0, int0)
