Eint0 = x
