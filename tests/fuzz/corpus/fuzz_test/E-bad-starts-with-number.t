E3 = int0
