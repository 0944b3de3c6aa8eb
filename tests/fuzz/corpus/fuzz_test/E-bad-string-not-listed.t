Es0 = "z"
