# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 518 (fails on the faulty trie)
key2 = "cc"
trie1 = trie_new()
val0 = 61
trie_size(trie1)
trie_seek(trie1, key2)
val1 = "x"
val0 = 570
trie_insert(trie1, key2, val0)
key0 = ""
trie_find(trie1, key2)
trie1 = trie_new()
val0 = "x"
trie_find(trie1, key2)
trie_insert(trie1, key2, null)
val1 = "yes"
trie_insert(trie1, key2, val1)
trie_insert(trie1, key2, val1)
trie_insert(trie1, key0, val0)
trie_insert(trie1, key2, val1)
val1 = null
trie_insert(trie1, key2, val0)
key2 = "bbaa"
trie_size(trie1)
trie_insert(trie1, key2, val0)
trie_remove(trie1, key2)
key0 = "aaa"
trie_size(trie1)
val0 = null
val1 = null
trie_insert(trie1, key2, null)
val0 = null
trie_insert(trie1, key2, null)
trie_find(trie1, key0)
trie0 = trie_new()
trie_insert(trie1, key0, val1)
val1 = 249
val0 = "x"
val1 = 540
key3 = "bba"
trie_insert(trie0, key0, null)
key1 = "c"
trie_remove(trie0, key3)
trie_find(trie0, key0)
trie_seek(trie1, key0)
val0 = "x"
trie_size(trie0)
trie_remove(trie0, key3)
trie_size(trie1)
trie_size(trie0)
val1 = 106
trie_insert(trie0, key0, val1)
key3 = ""
trie_insert(trie0, key0, val0)
trie_size(trie0)
key2 = ""
trie1 = trie_new()
key0 = "cabac"
val1 = null
trie_insert(trie0, key2, null)
trie_insert(trie1, key1, val1)
val0 = null
trie1 = trie_new()
trie_insert(trie1, key1, null)
key2 = "cbb"
trie_insert(trie1, key2, val0)
key1 = "abcbb"
trie_find(trie1, key3)
val1 = 923
val0 = null
trie_insert(trie0, key2, val1)
trie_insert(trie0, key1, val1)
trie_remove(trie0, key3)
trie_remove(trie1, key2)
val1 = null
trie_find(trie1, key3)
trie_find(trie1, key2)
val0 = null
trie_find(trie0, key1)
val0 = 284
trie_seek(trie0, key3)
key2 = "ccac"
key1 = ""
val1 = "no"
key3 = "bbaab"
val1 = 560
trie_size(trie0)
trie_remove(trie0, key2)
trie_insert(trie0, key3, null)
trie_insert(trie1, key1, val1)
key2 = ""
trie1 = trie_new()
val1 = 178
key3 = "ababa"
trie_size(trie0)
val1 = null
trie_remove(trie0, key1)
val0 = null
key1 = "ca"
trie_seek(trie1, key0)
trie_size(trie1)
