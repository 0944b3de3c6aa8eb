Eint0 == 3
