Eint01 = 3
