# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 697 (fails on the faulty trie)
key1 = ""
key2 = "ccb"
val0 = null
key3 = ""
val1 = null
key0 = "ba"
val0 = 584
key3 = "cbaaa"
key2 = ""
key1 = "ccbbc"
trie1 = trie_new()
trie_seek(trie1, key2)
key2 = ""
key2 = "abbbc"
trie_insert(trie1, key2, val0)
val0 = "no"
val0 = "yes"
trie_size(trie1)
val1 = 650
trie_insert(trie1, key1, null)
key2 = "cbbbc"
key1 = "aabcc"
val1 = "no"
trie_seek(trie1, key0)
key0 = "c"
trie_seek(trie1, key0)
trie_size(trie1)
trie_seek(trie1, key3)
trie0 = trie_new()
val1 = ""
trie_insert(trie0, key0, null)
trie_insert(trie0, key3, val1)
trie_insert(trie0, key1, null)
trie_size(trie0)
trie_remove(trie0, key3)
val1 = 241
key1 = "cbcba"
trie_insert(trie1, key1, null)
trie_seek(trie1, key2)
trie_remove(trie0, key1)
key0 = "cc"
trie_remove(trie1, key3)
val1 = "no"
key3 = ""
trie0 = trie_new()
trie_find(trie1, key3)
key1 = "caa"
trie_size(trie0)
trie_insert(trie1, key3, val1)
trie_seek(trie1, key1)
trie_seek(trie0, key3)
trie_size(trie1)
trie_size(trie0)
val1 = "yes"
key2 = "abc"
val0 = 456
val0 = ""
key1 = "cbbca"
trie0 = trie_new()
trie_remove(trie1, key0)
trie_insert(trie0, key2, null)
val0 = 103
val0 = null
trie_remove(trie1, key0)
trie_remove(trie0, key0)
trie_insert(trie0, key3, null)
trie_seek(trie1, key1)
trie1 = trie_new()
trie0 = trie_new()
trie_remove(trie1, key2)
key2 = ""
trie_remove(trie0, key1)
trie_find(trie1, key1)
trie_remove(trie0, key3)
val1 = 382
val0 = "no"
val0 = "no"
trie_seek(trie0, key3)
val0 = null
key0 = "ccaaa"
trie_find(trie1, key2)
key2 = ""
key1 = "acbbb"
trie_seek(trie0, key3)
trie_remove(trie0, key2)
trie_size(trie0)
key2 = "bbbab"
trie_insert(trie1, key1, val0)
trie_size(trie1)
trie0 = trie_new()
key3 = "cb"
trie_seek(trie0, key3)
val0 = "x"
trie_size(trie1)
trie_insert(trie1, key1, null)
trie_insert(trie1, key2, val0)
key2 = "aa"
key1 = ""
key3 = ""
trie_remove(trie1, key0)
