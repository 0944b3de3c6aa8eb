# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 457 (fails on the faulty trie)
val1 = ""
val0 = "yes"
trie0 = trie_new()
key3 = "bcaa"
trie1 = trie_new()
val0 = "yes"
trie_seek(trie1, key3)
val0 = "no"
trie1 = trie_new()
trie0 = trie_new()
trie_insert(trie0, key3, null)
trie_remove(trie0, key3)
val0 = 994
trie_size(trie0)
trie_find(trie0, key3)
val0 = ""
val1 = "x"
trie_insert(trie0, key3, null)
val1 = 777
key1 = "ccccc"
trie_remove(trie1, key3)
key0 = "baaab"
val0 = null
key3 = "cccc"
key2 = ""
val1 = "x"
val0 = 550
key2 = ""
key0 = "bbbb"
val1 = null
trie_insert(trie0, key1, val0)
trie_seek(trie0, key3)
trie_seek(trie0, key0)
trie_insert(trie1, key2, null)
trie_insert(trie0, key3, val1)
val0 = null
trie_find(trie0, key1)
trie_insert(trie1, key3, val0)
key0 = "bbb"
trie_remove(trie0, key1)
trie_seek(trie0, key3)
key1 = ""
trie1 = trie_new()
val1 = null
trie_insert(trie1, key0, val0)
trie0 = trie_new()
trie1 = trie_new()
key0 = ""
trie_size(trie1)
trie1 = trie_new()
key3 = ""
key2 = "ca"
trie_remove(trie1, key3)
key3 = ""
key1 = "cb"
trie_seek(trie0, key0)
trie_find(trie0, key1)
trie_size(trie0)
trie_insert(trie0, key3, null)
trie_seek(trie0, key1)
trie_seek(trie0, key2)
trie_insert(trie1, key3, val0)
trie_insert(trie0, key0, val1)
val1 = 384
val0 = null
trie_remove(trie0, key2)
trie_seek(trie1, key2)
trie_seek(trie1, key0)
key3 = "abaa"
trie_size(trie1)
val1 = null
key0 = "abbbc"
key1 = "baa"
key2 = ""
key3 = ""
trie_insert(trie1, key2, val0)
trie_size(trie0)
val0 = null
val0 = 281
trie1 = trie_new()
trie_find(trie1, key0)
val0 = ""
trie_remove(trie1, key2)
val0 = ""
trie1 = trie_new()
val1 = null
val1 = null
trie_find(trie0, key3)
trie_seek(trie0, key2)
val0 = "x"
trie_seek(trie0, key0)
trie_insert(trie1, key0, null)
trie1 = trie_new()
trie_remove(trie1, key3)
val1 = 410
key3 = ""
trie1 = trie_new()
key2 = "baa"
trie_insert(trie0, key2, val0)
trie_size(trie1)
