# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 1 (passes on both builds)
key3 = ""
key0 = "c"
key2 = "bba"
val1 = null
key1 = "cbb"
val0 = null
trie0 = trie_new()
key0 = "baca"
key3 = "bbcbb"
trie_insert(trie0, key3, null)
key3 = "bcaab"
trie_remove(trie0, key0)
trie_find(trie0, key0)
key0 = ""
val0 = "x"
trie_remove(trie0, key2)
trie_insert(trie0, key0, val1)
trie0 = trie_new()
trie_seek(trie0, key3)
val1 = null
val1 = ""
trie0 = trie_new()
key0 = ""
trie_size(trie0)
trie_find(trie0, key1)
val0 = "no"
trie_seek(trie0, key1)
key1 = ""
key2 = "ccc"
trie_find(trie0, key2)
trie_remove(trie0, key0)
trie_seek(trie0, key3)
trie0 = trie_new()
trie_find(trie0, key2)
trie_size(trie0)
key3 = "bb"
key2 = "abbca"
trie_insert(trie0, key3, null)
trie_insert(trie0, key2, null)
trie_size(trie0)
val0 = "no"
val0 = "no"
val0 = null
trie_remove(trie0, key1)
trie_remove(trie0, key2)
key0 = ""
val0 = 667
key1 = "ccb"
val1 = null
key2 = ""
trie_find(trie0, key2)
trie1 = trie_new()
val0 = null
trie_insert(trie1, key1, val0)
trie_seek(trie0, key0)
trie_insert(trie1, key2, null)
trie_seek(trie1, key1)
trie1 = trie_new()
trie_insert(trie0, key3, null)
key3 = "cccaa"
key2 = "aaccc"
trie_size(trie1)
key1 = "baaaa"
val0 = 3
val0 = null
key0 = "ccb"
key1 = "bbbcb"
key1 = ""
key3 = ""
trie_insert(trie1, key3, val1)
key3 = "aa"
val1 = ""
key0 = ""
trie1 = trie_new()
trie0 = trie_new()
trie_size(trie1)
key3 = "aaab"
trie_insert(trie1, key3, val1)
key3 = "abaaa"
trie_insert(trie0, key3, val0)
key3 = ""
trie_insert(trie0, key3, null)
trie_find(trie1, key0)
trie0 = trie_new()
trie_seek(trie1, key1)
val1 = "yes"
trie_insert(trie1, key1, null)
key0 = "bcba"
trie_insert(trie1, key3, null)
trie1 = trie_new()
trie_size(trie1)
key3 = "ccc"
val0 = "x"
trie_insert(trie1, key0, null)
val0 = null
val0 = ""
trie_find(trie0, key2)
trie_seek(trie0, key0)
trie_remove(trie1, key1)
trie_insert(trie1, key1, null)
