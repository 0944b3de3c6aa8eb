# generated: tnorm gen examples/avl/avl.tnh --steps 100 --seed 626 (fails on the faulty AVL)
avl0 = avl_new()
int1 = 1
int2 = 9
avl2 = avl_new()
avl_delete(avl2, int2)
int3 = 4
avl_find(avl0, int3)
avl_delete(avl0, int1)
avl2 = avl_new()
avl_delete(avl0, int1)
int3 = 1
int1 = 1
avl_inorder(avl0)
avl_inorder(avl0)
int0 = 12
avl_insert(avl0, int1)
avl0 = avl_new()
avl_find(avl0, int2)
avl_insert(avl0, int0)
avl_delete(avl0, int0)
avl_delete(avl2, int1)
avl2 = avl_new()
int2 = 7
int0 = 5
avl_inorder(avl0)
avl_delete(avl2, int2)
int2 = 19
int1 = 18
avl0 = avl_new()
avl_insert(avl2, int3)
avl_delete(avl2, int1)
avl_inorder(avl0)
avl_insert(avl2, int2)
avl_find(avl0, int2)
avl_insert(avl2, int0)
avl_insert(avl0, int0)
avl2 = avl_new()
avl_insert(avl0, int3)
avl_delete(avl0, int2)
int2 = 8
avl0 = avl_new()
avl_insert(avl0, int0)
avl_find(avl2, int1)
avl_find(avl0, int2)
int2 = 7
avl_insert(avl2, int1)
avl_find(avl0, int3)
int0 = 15
int3 = 7
avl_inorder(avl2)
int1 = 7
int0 = 4
avl_find(avl0, int2)
int2 = 18
avl_delete(avl0, int2)
avl_inorder(avl0)
avl_insert(avl2, int3)
avl1 = avl_new()
avl_delete(avl0, int2)
avl_find(avl1, int2)
int2 = 14
avl_insert(avl0, int0)
avl_insert(avl0, int2)
avl_delete(avl0, int1)
avl_inorder(avl2)
avl_inorder(avl1)
avl_delete(avl1, int1)
avl2 = avl_new()
avl_delete(avl1, int1)
avl_inorder(avl2)
avl_insert(avl0, int3)
avl_insert(avl2, int1)
int0 = 7
int1 = 11
avl_find(avl0, int0)
avl_find(avl1, int2)
avl2 = avl_new()
int2 = 4
avl_insert(avl0, int2)
avl1 = avl_new()
avl_find(avl2, int1)
int1 = 13
avl_find(avl2, int0)
avl_inorder(avl2)
avl_find(avl0, int2)
avl_delete(avl2, int3)
avl_inorder(avl1)
int3 = 4
avl1 = avl_new()
avl_delete(avl0, int3)
avl_delete(avl2, int1)
avl_find(avl2, int1)
avl0 = avl_new()
avl_find(avl1, int2)
avl_insert(avl1, int0)
avl_delete(avl1, int0)
avl_find(avl0, int2)
avl_inorder(avl0)
avl_inorder(avl0)
avl_find(avl1, int3)
