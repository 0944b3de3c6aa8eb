# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 277 (fails on the faulty trie)
key2 = ""
trie1 = trie_new()
trie_seek(trie1, key2)
trie_find(trie1, key2)
val0 = null
val1 = 935
key3 = "cbab"
trie_find(trie1, key2)
val0 = null
key0 = "cba"
key1 = "aac"
trie1 = trie_new()
trie_insert(trie1, key0, null)
val1 = null
trie_find(trie1, key1)
val0 = 594
val0 = null
trie_insert(trie1, key2, null)
key0 = "abbab"
key1 = "cab"
key2 = "bacab"
key1 = "bcb"
trie_insert(trie1, key0, val1)
trie_seek(trie1, key1)
trie_size(trie1)
trie_seek(trie1, key0)
key0 = "aaacc"
trie_size(trie1)
trie_size(trie1)
trie_insert(trie1, key1, val1)
trie_find(trie1, key0)
trie_insert(trie1, key2, val0)
trie_insert(trie1, key1, val0)
trie_insert(trie1, key3, null)
trie_seek(trie1, key0)
val1 = null
trie_seek(trie1, key0)
val0 = 529
trie_remove(trie1, key3)
val1 = 202
trie_insert(trie1, key1, null)
trie_size(trie1)
trie_size(trie1)
val0 = 773
trie_insert(trie1, key3, val0)
trie0 = trie_new()
key1 = "abc"
trie_remove(trie1, key2)
key2 = "bbbc"
trie_insert(trie1, key3, null)
key0 = "bcb"
trie_remove(trie1, key1)
val0 = null
val0 = ""
trie_find(trie1, key0)
key0 = "cac"
trie_remove(trie1, key1)
key1 = "cbaaa"
key3 = "abc"
key0 = "aacbc"
trie_insert(trie1, key2, null)
val0 = "x"
trie1 = trie_new()
key2 = "cb"
trie_size(trie0)
key1 = "acccb"
val1 = null
trie_size(trie1)
trie_size(trie0)
trie_insert(trie0, key0, val1)
key0 = "abc"
trie1 = trie_new()
trie_seek(trie1, key2)
trie_remove(trie1, key3)
key3 = "cca"
key2 = "acc"
trie_insert(trie0, key2, null)
key2 = "b"
key2 = ""
key2 = "cbaaa"
key3 = "cbbac"
key3 = ""
key2 = "aacc"
key0 = "caa"
trie_seek(trie0, key2)
trie_insert(trie0, key0, val0)
key2 = ""
val1 = 538
key0 = "ccb"
val0 = 502
key1 = ""
key0 = "bcbbc"
trie_insert(trie0, key3, null)
trie1 = trie_new()
val0 = 698
trie_insert(trie1, key1, null)
val1 = null
key3 = ""
trie_remove(trie1, key2)
trie_insert(trie1, key1, val1)
