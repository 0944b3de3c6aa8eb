# generated: tnorm gen examples/avl/avl.tnh --steps 100 --seed 51 (fails on the faulty AVL)
int1 = 10
int3 = 8
int0 = 1
int2 = 4
int3 = 7
avl1 = avl_new()
avl0 = avl_new()
int1 = 18
avl_delete(avl1, int0)
avl_inorder(avl1)
avl_insert(avl1, int0)
avl_insert(avl1, int1)
avl_find(avl1, int1)
avl_find(avl0, int3)
avl_find(avl1, int1)
avl2 = avl_new()
avl0 = avl_new()
avl_find(avl1, int3)
avl_inorder(avl0)
avl_delete(avl0, int0)
avl_delete(avl2, int3)
avl_inorder(avl0)
avl2 = avl_new()
avl0 = avl_new()
avl_find(avl0, int3)
avl_insert(avl0, int1)
avl_find(avl2, int2)
avl_insert(avl0, int3)
avl_insert(avl1, int3)
int0 = 14
int1 = 1
avl_delete(avl2, int0)
avl_find(avl2, int0)
avl_insert(avl1, int0)
avl_insert(avl0, int3)
avl_find(avl0, int3)
avl_delete(avl1, int2)
avl_delete(avl2, int2)
avl_delete(avl1, int1)
avl0 = avl_new()
avl_inorder(avl1)
int2 = 15
avl_inorder(avl2)
avl_find(avl2, int0)
avl_inorder(avl1)
avl_find(avl1, int1)
avl_inorder(avl0)
avl_insert(avl2, int0)
avl_find(avl2, int0)
int1 = 8
avl_insert(avl1, int2)
int2 = 20
avl_delete(avl2, int0)
int0 = 13
int3 = 20
avl_inorder(avl0)
avl_delete(avl0, int2)
int2 = 8
avl1 = avl_new()
avl_find(avl0, int3)
avl_delete(avl2, int0)
avl0 = avl_new()
avl_find(avl1, int2)
avl_delete(avl2, int1)
avl2 = avl_new()
avl1 = avl_new()
avl_inorder(avl2)
avl2 = avl_new()
avl_inorder(avl0)
int3 = 11
avl_insert(avl1, int0)
avl1 = avl_new()
avl_delete(avl0, int2)
int2 = 3
int0 = 7
avl_insert(avl1, int2)
avl_inorder(avl1)
avl_insert(avl2, int0)
avl_delete(avl0, int1)
avl_inorder(avl0)
avl_find(avl1, int1)
avl_delete(avl1, int2)
avl_find(avl2, int3)
avl_insert(avl0, int1)
avl1 = avl_new()
int3 = 13
avl_delete(avl2, int1)
int2 = 18
avl_find(avl1, int3)
avl_inorder(avl2)
avl1 = avl_new()
avl_inorder(avl0)
int1 = 11
avl0 = avl_new()
avl_insert(avl2, int2)
avl2 = avl_new()
int2 = 11
avl0 = avl_new()
int3 = 3
avl0 = avl_new()
