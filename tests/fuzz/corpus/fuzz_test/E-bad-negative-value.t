Eint0 = -1
