Eint0 3
