Eint0 = 0
