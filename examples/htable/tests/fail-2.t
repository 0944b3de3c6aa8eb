# generated: tnorm gen examples/htable/htable.tnh --steps 100 --seed 6 (fails on the faulty table)
key1 = 6
key0 = 0
key2 = 11
key3 = 1
key1 = 7
key3 = 0
key0 = 8
key1 = 14
ht1 = ht_new()
ht0 = ht_new()
ht_get(ht1, key0)
ht_get(ht1, key2)
ht_put(ht1, key1, 0)
ht_get(ht1, key2)
ht_get(ht0, key1)
ht0 = ht_new()
ht1 = ht_new()
ht_get(ht0, key1)
key2 = 3
ht_delete(ht0, key0)
ht_get(ht1, key3)
ht_put(ht1, key3, 0)
ht_get(ht0, key2)
ht_delete(ht1, key0)
ht_get(ht1, key2)
ht_get(ht0, key3)
ht_delete(ht0, key2)
ht_put(ht0, key0, 3)
ht1 = ht_new()
ht_get(ht0, key1)
ht_get(ht1, key2)
key1 = 7
ht_get(ht1, key2)
ht_delete(ht1, key0)
ht0 = ht_new()
ht_delete(ht1, key1)
ht1 = ht_new()
ht_delete(ht1, key3)
key3 = 0
ht_put(ht1, key3, 1)
key0 = 13
key1 = 7
ht_get(ht1, key0)
ht_get(ht1, key3)
ht_put(ht1, key2, 0)
key2 = 4
ht_get(ht0, key1)
ht1 = ht_new()
ht_delete(ht1, key3)
ht_delete(ht1, key2)
ht_put(ht1, key3, 3)
ht_delete(ht1, key0)
ht1 = ht_new()
ht_put(ht0, key3, 0)
ht_delete(ht0, key0)
ht_get(ht0, key1)
ht_put(ht0, key2, 1)
key0 = 3
ht_get(ht1, key2)
ht_put(ht1, key1, 1)
ht1 = ht_new()
ht_put(ht0, key1, 3)
ht_delete(ht0, key2)
ht_put(ht0, key0, 2)
key0 = 3
ht_put(ht1, key0, 1)
ht0 = ht_new()
key0 = 6
ht_delete(ht1, key3)
ht_delete(ht0, key0)
key3 = 14
ht_get(ht0, key3)
key3 = 9
ht_delete(ht1, key2)
ht_put(ht1, key0, 0)
ht1 = ht_new()
ht_get(ht1, key1)
ht0 = ht_new()
key0 = 2
key1 = 8
ht_get(ht1, key2)
ht_put(ht1, key2, 0)
ht_put(ht0, key2, 3)
ht_put(ht1, key0, 3)
key2 = 7
key0 = 7
key2 = 14
ht0 = ht_new()
ht1 = ht_new()
ht0 = ht_new()
key3 = 15
ht_delete(ht1, key0)
ht1 = ht_new()
key0 = 6
ht1 = ht_new()
key0 = 4
ht_get(ht0, key3)
ht_delete(ht0, key1)
key1 = 9
ht0 = ht_new()
