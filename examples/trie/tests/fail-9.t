# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 981 (fails on the faulty trie)
key2 = "aba"
val0 = 448
val1 = 127
val1 = 921
key3 = ""
val1 = null
key1 = "a"
val1 = null
val1 = "no"
val1 = "yes"
val0 = "x"
key0 = "aaca"
key0 = ""
val0 = null
val1 = null
key0 = ""
key0 = "bab"
trie0 = trie_new()
trie_insert(trie0, key1, val0)
trie_insert(trie0, key0, null)
val0 = ""
trie_seek(trie0, key0)
trie_insert(trie0, key3, val1)
trie_insert(trie0, key0, val0)
key3 = "ac"
trie_insert(trie0, key2, null)
trie_seek(trie0, key2)
trie_remove(trie0, key3)
trie_insert(trie0, key3, null)
key2 = ""
trie_remove(trie0, key3)
key0 = "bb"
key3 = "bb"
val1 = "no"
trie_insert(trie0, key2, null)
trie_size(trie0)
val0 = null
trie_find(trie0, key0)
val1 = null
trie0 = trie_new()
trie_size(trie0)
trie_size(trie0)
key0 = "bccbc"
val0 = "x"
trie_seek(trie0, key1)
trie_find(trie0, key2)
trie_remove(trie0, key2)
trie_insert(trie0, key1, null)
trie0 = trie_new()
key1 = "caa"
key2 = ""
trie1 = trie_new()
trie_remove(trie1, key0)
val1 = "no"
trie_seek(trie0, key2)
trie_remove(trie1, key3)
trie_find(trie0, key0)
trie_remove(trie1, key3)
val1 = null
trie_insert(trie0, key1, null)
key1 = "cba"
val0 = ""
key0 = "abccc"
trie_remove(trie0, key2)
trie_find(trie1, key1)
val0 = ""
trie_size(trie1)
key2 = "abaa"
val0 = "x"
key1 = ""
val0 = "yes"
val1 = null
val1 = null
trie_insert(trie1, key0, val0)
trie_seek(trie0, key2)
trie_find(trie1, key2)
trie1 = trie_new()
key2 = "bbaab"
trie_size(trie1)
trie0 = trie_new()
trie_find(trie0, key1)
key0 = "ccaca"
key1 = "caacb"
trie_insert(trie0, key0, null)
key3 = "aabbb"
key0 = ""
val0 = null
trie_insert(trie0, key3, val0)
trie0 = trie_new()
key3 = ""
val0 = "no"
val1 = "no"
trie_size(trie1)
val0 = null
val0 = 954
key3 = "aaa"
val1 = ""
trie_insert(trie1, key2, val0)
trie_find(trie0, key0)
val0 = null
