# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 1061 (fails on the faulty trie)
trie0 = trie_new()
val0 = null
key0 = "aabab"
key3 = "bb"
key2 = ""
trie_size(trie0)
trie_insert(trie0, key2, val0)
key1 = "cac"
trie_insert(trie0, key3, null)
trie_size(trie0)
key3 = "bbb"
val0 = 87
trie_seek(trie0, key3)
val1 = "x"
key3 = "cccac"
val1 = 743
key2 = "caaac"
trie_remove(trie0, key0)
trie_find(trie0, key0)
val1 = null
trie_insert(trie0, key1, null)
trie_seek(trie0, key2)
val0 = 654
trie_size(trie0)
val1 = null
trie_insert(trie0, key3, null)
trie_insert(trie0, key1, null)
key2 = "bbbba"
trie_insert(trie0, key2, null)
trie_seek(trie0, key0)
key1 = "cac"
trie_remove(trie0, key1)
trie_size(trie0)
trie_insert(trie0, key1, val1)
key1 = "aca"
val1 = 268
trie_insert(trie0, key2, val0)
trie_remove(trie0, key2)
trie_insert(trie0, key2, val0)
trie_remove(trie0, key2)
val0 = null
trie_size(trie0)
trie_remove(trie0, key1)
trie_find(trie0, key2)
val1 = 77
trie_remove(trie0, key2)
trie_insert(trie0, key2, val0)
trie_size(trie0)
trie_insert(trie0, key1, null)
val0 = null
val0 = null
trie_insert(trie0, key0, null)
val1 = ""
val1 = 988
trie_insert(trie0, key3, null)
trie_insert(trie0, key2, val0)
key3 = "aaacc"
key1 = "aabba"
trie_find(trie0, key1)
trie_find(trie0, key1)
key1 = "acbbc"
trie_insert(trie0, key3, val1)
key0 = ""
trie_remove(trie0, key0)
key2 = "cc"
val1 = null
trie_insert(trie0, key2, null)
trie_find(trie0, key0)
trie_remove(trie0, key1)
key2 = "caabb"
key0 = "cba"
key3 = ""
trie_insert(trie0, key2, val0)
trie_insert(trie0, key0, val0)
trie0 = trie_new()
trie_size(trie0)
val0 = "no"
val1 = null
trie1 = trie_new()
val0 = 584
trie_find(trie1, key1)
trie_insert(trie0, key0, null)
trie_size(trie0)
trie_size(trie0)
trie_find(trie0, key0)
key2 = ""
trie_remove(trie0, key2)
trie_insert(trie0, key3, val1)
key2 = "c"
key0 = "bcba"
key1 = ""
trie_find(trie0, key3)
key3 = ""
key0 = ""
val1 = "no"
val1 = null
val0 = ""
trie0 = trie_new()
val0 = 688
trie_remove(trie1, key2)
