Eint4 = 3
