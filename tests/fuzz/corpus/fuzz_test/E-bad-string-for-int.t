Eint0 = "a"
