E(avl0)
