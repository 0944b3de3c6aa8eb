Eint0 = 1
@@@
