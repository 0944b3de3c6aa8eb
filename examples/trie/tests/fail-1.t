# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 8 (fails on the faulty trie)
val1 = null
key2 = ""
key0 = "bb"
trie1 = trie_new()
trie_remove(trie1, key0)
trie_size(trie1)
trie1 = trie_new()
trie_insert(trie1, key0, null)
trie_remove(trie1, key2)
trie_seek(trie1, key2)
trie_remove(trie1, key2)
key3 = "aab"
val0 = 476
trie_seek(trie1, key3)
trie1 = trie_new()
val0 = null
trie_remove(trie1, key0)
trie_remove(trie1, key2)
trie_insert(trie1, key0, val0)
trie1 = trie_new()
val0 = null
trie_insert(trie1, key3, null)
key0 = "aac"
val1 = "x"
trie1 = trie_new()
val1 = 883
key3 = ""
key2 = "aaca"
trie_remove(trie1, key0)
key0 = "aac"
trie_insert(trie1, key0, null)
trie_insert(trie1, key2, val0)
trie_remove(trie1, key2)
key1 = "bacba"
val0 = null
key2 = "aabcb"
trie_find(trie1, key2)
trie_seek(trie1, key2)
val0 = 716
key0 = "aa"
key2 = "bcbca"
trie_insert(trie1, key2, null)
val0 = 233
key2 = ""
key3 = "acaab"
trie_remove(trie1, key3)
trie_size(trie1)
val0 = "no"
trie_insert(trie1, key1, null)
key3 = ""
key1 = "abaca"
trie1 = trie_new()
trie_remove(trie1, key3)
key3 = ""
trie0 = trie_new()
trie1 = trie_new()
trie_size(trie0)
trie_seek(trie1, key2)
val0 = "x"
trie1 = trie_new()
key2 = "ababc"
trie_remove(trie0, key0)
trie_insert(trie0, key3, null)
trie_seek(trie1, key1)
trie_size(trie0)
key3 = "accac"
key1 = "abc"
val1 = 955
trie_insert(trie0, key3, null)
trie0 = trie_new()
trie_find(trie1, key1)
trie_remove(trie1, key1)
val1 = null
val0 = 980
trie_insert(trie0, key1, null)
trie_size(trie1)
key1 = ""
trie_remove(trie0, key1)
val0 = "x"
trie_insert(trie1, key3, null)
trie_insert(trie1, key1, null)
trie0 = trie_new()
val0 = null
trie1 = trie_new()
trie_insert(trie0, key2, null)
val0 = null
trie0 = trie_new()
trie_size(trie0)
trie_remove(trie1, key1)
key1 = "abaab"
key3 = ""
key2 = "bbcba"
trie_seek(trie0, key3)
trie_insert(trie0, key3, val1)
val1 = ""
trie_seek(trie1, key0)
trie_size(trie0)
trie1 = trie_new()
trie_size(trie0)
val1 = null
