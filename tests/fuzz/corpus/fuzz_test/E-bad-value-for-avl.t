Eavl0 = 3
