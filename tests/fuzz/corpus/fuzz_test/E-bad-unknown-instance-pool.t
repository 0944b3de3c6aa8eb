Efoo0 = 3
