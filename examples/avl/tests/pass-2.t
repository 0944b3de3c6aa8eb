# generated: tnorm gen examples/avl/avl.tnh --steps 100 --seed 2 (passes)
int2 = 12
int1 = 20
int3 = 20
int0 = 16
avl0 = avl_new()
avl2 = avl_new()
avl_insert(avl0, int2)
avl_inorder(avl2)
avl_inorder(avl2)
avl_insert(avl0, int2)
avl_find(avl0, int1)
avl_insert(avl2, int1)
avl_inorder(avl0)
avl2 = avl_new()
int2 = 4
avl_delete(avl0, int2)
avl_inorder(avl2)
avl_find(avl0, int1)
int1 = 20
avl_inorder(avl2)
avl0 = avl_new()
avl_delete(avl2, int2)
avl2 = avl_new()
avl_insert(avl2, int3)
avl_find(avl0, int0)
avl_find(avl2, int1)
int3 = 13
avl_inorder(avl2)
avl0 = avl_new()
avl_inorder(avl2)
int2 = 1
avl_delete(avl2, int0)
avl_insert(avl2, int0)
avl2 = avl_new()
avl_inorder(avl0)
int0 = 1
avl_find(avl0, int1)
avl_find(avl0, int3)
avl_delete(avl0, int0)
avl_inorder(avl2)
avl_delete(avl2, int0)
avl_inorder(avl0)
avl1 = avl_new()
avl_delete(avl0, int3)
int1 = 4
int3 = 2
int0 = 18
avl_find(avl0, int1)
avl_inorder(avl2)
int1 = 4
avl0 = avl_new()
avl_insert(avl2, int2)
avl_delete(avl2, int2)
avl_inorder(avl2)
int2 = 15
avl_inorder(avl1)
int1 = 9
avl_insert(avl1, int3)
avl_inorder(avl2)
avl1 = avl_new()
avl_delete(avl1, int3)
avl_insert(avl2, int2)
avl_insert(avl2, int0)
int0 = 1
avl_delete(avl2, int1)
avl_inorder(avl0)
avl1 = avl_new()
avl_insert(avl0, int0)
avl_insert(avl2, int1)
avl_find(avl1, int3)
avl_insert(avl0, int0)
avl0 = avl_new()
avl_inorder(avl0)
avl_inorder(avl2)
avl_inorder(avl0)
avl_delete(avl0, int1)
int3 = 18
avl2 = avl_new()
avl_inorder(avl0)
avl_delete(avl1, int3)
avl_inorder(avl2)
avl_inorder(avl1)
int2 = 5
avl_find(avl1, int3)
avl_inorder(avl1)
int0 = 11
avl_delete(avl0, int2)
avl2 = avl_new()
avl_find(avl2, int0)
avl_insert(avl2, int1)
int1 = 4
int2 = 19
avl1 = avl_new()
avl2 = avl_new()
avl_delete(avl0, int1)
avl_delete(avl0, int3)
avl_delete(avl0, int2)
avl_find(avl1, int1)
int1 = 4
avl_insert(avl2, int0)
