# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 209 (fails on the faulty trie)
val0 = 212
val1 = "x"
val0 = 35
key3 = ""
val0 = ""
val0 = "yes"
val1 = "yes"
key1 = ""
key2 = "bcccb"
key0 = "b"
val1 = 796
key3 = ""
key0 = "c"
trie0 = trie_new()
val1 = "yes"
trie_size(trie0)
key1 = ""
trie_size(trie0)
trie_find(trie0, key0)
val0 = "yes"
trie_remove(trie0, key3)
val1 = "yes"
trie_size(trie0)
trie_remove(trie0, key3)
key0 = "bcb"
trie_seek(trie0, key2)
key3 = "bc"
val0 = null
key2 = ""
trie_insert(trie0, key3, null)
trie_insert(trie0, key0, val0)
trie_remove(trie0, key0)
trie1 = trie_new()
trie_size(trie0)
key0 = "bbabc"
trie_seek(trie1, key0)
key3 = ""
trie_insert(trie0, key1, null)
key1 = "caaca"
key0 = "ca"
trie_remove(trie0, key2)
trie_remove(trie1, key2)
key2 = "cba"
trie1 = trie_new()
trie0 = trie_new()
val0 = "x"
trie_remove(trie1, key3)
trie1 = trie_new()
key3 = ""
trie_size(trie0)
key0 = "abc"
trie_find(trie0, key1)
trie0 = trie_new()
trie1 = trie_new()
val1 = 928
key1 = "abb"
trie_seek(trie0, key0)
trie_size(trie1)
trie_seek(trie1, key2)
trie_insert(trie1, key1, val1)
val1 = "no"
trie_remove(trie1, key0)
val0 = 909
trie_size(trie1)
trie_insert(trie1, key2, val1)
key1 = ""
val1 = "yes"
trie0 = trie_new()
key2 = "cba"
trie_insert(trie0, key1, null)
val0 = 505
trie_insert(trie1, key0, null)
trie1 = trie_new()
key0 = "cbbba"
trie_remove(trie1, key2)
val0 = null
val0 = null
key2 = "ccbab"
trie_insert(trie1, key2, null)
trie_size(trie0)
trie_seek(trie0, key2)
trie_insert(trie1, key3, val0)
trie0 = trie_new()
trie_find(trie1, key1)
val0 = null
key3 = "bbc"
trie_remove(trie1, key0)
trie1 = trie_new()
key2 = ""
val1 = null
trie_size(trie0)
trie0 = trie_new()
trie_find(trie0, key0)
key1 = ""
val1 = 671
trie_size(trie1)
trie_find(trie0, key1)
trie_seek(trie0, key2)
trie_remove(trie1, key1)
key1 = "cba"
