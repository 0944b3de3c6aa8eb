Eavl0 = avl new()
