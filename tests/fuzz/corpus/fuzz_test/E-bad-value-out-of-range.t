Eint0 = 21
