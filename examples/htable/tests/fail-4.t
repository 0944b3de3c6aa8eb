# generated: tnorm gen examples/htable/htable.tnh --steps 100 --seed 18 (fails on the faulty table)
key0 = 2
key1 = 9
key2 = 4
ht0 = ht_new()
ht_delete(ht0, key1)
ht_get(ht0, key1)
key1 = 12
ht1 = ht_new()
key3 = 3
ht_get(ht1, key1)
ht_delete(ht0, key3)
ht_get(ht1, key2)
ht_delete(ht0, key2)
key3 = 15
ht_delete(ht1, key2)
key2 = 14
ht_get(ht1, key0)
ht1 = ht_new()
key1 = 2
ht_delete(ht0, key3)
key3 = 3
ht_delete(ht1, key0)
ht_get(ht0, key1)
key0 = 6
ht1 = ht_new()
ht0 = ht_new()
ht_delete(ht1, key1)
key1 = 7
key2 = 0
ht_delete(ht0, key1)
ht_put(ht0, key1, 3)
key1 = 4
ht_put(ht0, key3, 1)
ht_get(ht1, key2)
ht_put(ht0, key1, 3)
ht_put(ht1, key0, 0)
ht_put(ht0, key0, 1)
ht_put(ht1, key1, 0)
ht_delete(ht0, key3)
ht_put(ht1, key3, 1)
key3 = 6
ht1 = ht_new()
ht_put(ht0, key0, 3)
ht_delete(ht0, key3)
ht0 = ht_new()
ht1 = ht_new()
ht_get(ht0, key2)
ht_put(ht0, key0, 0)
key3 = 4
ht0 = ht_new()
key0 = 3
key1 = 2
key2 = 0
ht_delete(ht1, key3)
ht_delete(ht0, key2)
ht_put(ht1, key0, 0)
ht0 = ht_new()
key2 = 1
ht_delete(ht1, key3)
key0 = 8
ht_get(ht0, key3)
ht_put(ht1, key0, 3)
ht0 = ht_new()
ht_get(ht1, key0)
ht_get(ht0, key2)
ht_delete(ht0, key1)
ht_delete(ht0, key0)
ht_put(ht1, key0, 3)
ht_get(ht1, key1)
ht_delete(ht0, key2)
ht_delete(ht1, key1)
ht_get(ht1, key3)
ht_put(ht1, key1, 1)
ht_delete(ht1, key2)
key0 = 15
ht_get(ht0, key0)
ht_delete(ht0, key1)
ht1 = ht_new()
ht_get(ht1, key1)
ht_delete(ht1, key0)
ht0 = ht_new()
ht_put(ht0, key0, 0)
ht_delete(ht1, key0)
key1 = 9
key2 = 8
ht1 = ht_new()
ht_delete(ht1, key3)
key0 = 0
key3 = 2
ht_get(ht0, key3)
key3 = 12
ht_delete(ht0, key1)
ht1 = ht_new()
key1 = 1
ht_get(ht0, key2)
ht_delete(ht1, key2)
ht_delete(ht1, key2)
ht_put(ht1, key0, 3)
ht_get(ht0, key1)
ht_delete(ht0, key1)
