Es0 = "a
