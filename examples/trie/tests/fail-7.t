# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 704 (fails on the faulty trie)
trie1 = trie_new()
key0 = ""
key3 = "aabba"
val0 = 439
trie_insert(trie1, key0, null)
trie_seek(trie1, key0)
trie_seek(trie1, key0)
val1 = "yes"
trie_seek(trie1, key3)
trie0 = trie_new()
trie1 = trie_new()
trie_remove(trie0, key3)
val1 = null
key0 = "ba"
val0 = "yes"
trie_seek(trie1, key0)
trie_find(trie0, key3)
trie_insert(trie1, key0, null)
trie_seek(trie0, key0)
key3 = "bab"
trie_size(trie0)
trie_insert(trie0, key3, null)
key1 = ""
key0 = "accac"
key3 = "bbccc"
val1 = 224
trie_remove(trie0, key1)
trie_insert(trie0, key0, null)
key0 = "aaa"
trie_find(trie1, key0)
trie_seek(trie0, key0)
key2 = ""
trie0 = trie_new()
trie_size(trie0)
key0 = "bc"
trie_insert(trie1, key2, null)
key2 = "bbb"
trie_insert(trie0, key3, null)
trie_find(trie0, key0)
trie_find(trie1, key2)
val1 = 554
key1 = "bcacc"
key0 = "babca"
trie_insert(trie0, key0, null)
key3 = "aacbb"
trie_size(trie0)
val1 = 809
trie_insert(trie1, key1, val0)
trie_remove(trie0, key2)
trie_find(trie1, key0)
trie_remove(trie0, key2)
trie_seek(trie0, key1)
val0 = 253
trie_insert(trie1, key0, null)
trie_insert(trie1, key3, val1)
trie_insert(trie1, key2, null)
trie_remove(trie1, key0)
key0 = "bbabc"
val1 = 769
key3 = "ccc"
trie0 = trie_new()
key1 = ""
key2 = ""
key3 = "aba"
trie1 = trie_new()
trie_insert(trie1, key2, null)
trie_seek(trie0, key0)
val1 = 780
trie_find(trie1, key2)
key0 = "bac"
trie_size(trie1)
trie_seek(trie1, key1)
trie_insert(trie1, key1, val0)
trie_find(trie1, key0)
val0 = "x"
key2 = ""
trie_size(trie0)
key1 = ""
trie_find(trie0, key0)
trie_remove(trie0, key0)
val0 = "x"
key0 = "cca"
val1 = 275
val1 = "no"
key3 = ""
key1 = "baaa"
key2 = "acc"
val1 = 689
trie_insert(trie1, key3, val1)
trie0 = trie_new()
trie_seek(trie1, key1)
val1 = "yes"
val1 = null
trie_size(trie0)
key1 = ""
trie_remove(trie0, key1)
val0 = "x"
key3 = ""
val0 = null
trie_insert(trie0, key1, null)
