Es0 = "\q"
