# generated: tnorm gen examples/htable/htable.tnh --steps 100 --seed 1 (passes)
ht1 = ht_new()
key3 = 9
ht_delete(ht1, key3)
key2 = 1
key3 = 10
ht1 = ht_new()
key1 = 14
ht_put(ht1, key1, 1)
ht1 = ht_new()
ht_get(ht1, key3)
ht0 = ht_new()
ht1 = ht_new()
ht_delete(ht0, key1)
key3 = 1
ht_delete(ht0, key3)
ht_get(ht1, key3)
ht0 = ht_new()
ht_delete(ht0, key3)
ht_delete(ht0, key3)
ht_delete(ht0, key3)
ht_get(ht1, key3)
ht_delete(ht0, key1)
ht_get(ht0, key3)
ht_delete(ht0, key1)
ht_delete(ht1, key3)
ht_delete(ht1, key2)
key2 = 3
ht_put(ht0, key2, 1)
ht_get(ht1, key1)
ht_get(ht1, key3)
ht_delete(ht0, key1)
key0 = 14
ht1 = ht_new()
key3 = 1
ht_get(ht0, key1)
ht_delete(ht1, key3)
ht1 = ht_new()
ht_get(ht1, key2)
key2 = 10
ht_put(ht0, key2, 3)
key3 = 4
ht_delete(ht1, key2)
key2 = 0
ht_delete(ht1, key1)
ht_put(ht1, key0, 1)
ht_get(ht0, key0)
ht_put(ht0, key2, 3)
ht_get(ht0, key2)
ht1 = ht_new()
ht_put(ht1, key0, 1)
ht_put(ht0, key2, 3)
key2 = 12
ht_get(ht0, key1)
ht_delete(ht0, key0)
ht_get(ht0, key3)
ht0 = ht_new()
ht_put(ht1, key3, 1)
ht_delete(ht1, key0)
ht_get(ht1, key2)
key3 = 3
ht_get(ht0, key3)
ht1 = ht_new()
ht_put(ht1, key2, 1)
ht_put(ht1, key0, 2)
ht_put(ht0, key2, 0)
key1 = 5
ht1 = ht_new()
ht0 = ht_new()
ht_get(ht1, key3)
ht_delete(ht1, key1)
ht_get(ht1, key3)
ht_delete(ht1, key0)
key0 = 3
ht_get(ht1, key1)
ht_put(ht1, key3, 3)
ht_delete(ht1, key1)
key1 = 1
ht1 = ht_new()
ht0 = ht_new()
ht_get(ht1, key2)
key2 = 14
key3 = 7
ht_put(ht1, key3, 0)
ht_delete(ht0, key0)
ht_get(ht1, key3)
ht_delete(ht0, key2)
key0 = 3
ht_get(ht0, key0)
ht_delete(ht1, key3)
ht_put(ht1, key2, 1)
ht_get(ht1, key1)
ht_put(ht0, key1, 1)
ht_delete(ht1, key0)
ht_put(ht1, key2, 0)
key2 = 8
ht0 = ht_new()
ht_delete(ht0, key2)
ht_delete(ht0, key3)
ht_get(ht0, key3)
ht_put(ht1, key1, 0)
