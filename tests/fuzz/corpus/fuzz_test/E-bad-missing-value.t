Eint0 =
