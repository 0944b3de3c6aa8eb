# generated: tnorm gen examples/trie/trie.tnh --steps 100 --seed 801 (fails on the faulty trie)
key3 = "bb"
val0 = 653
val1 = 417
val1 = ""
key0 = ""
key2 = ""
val1 = null
val1 = null
trie1 = trie_new()
trie_seek(trie1, key2)
key2 = ""
val0 = "yes"
trie_insert(trie1, key0, val0)
val0 = 739
val1 = null
trie_insert(trie1, key2, null)
key0 = "bab"
key1 = "ab"
key2 = "bbabb"
trie_insert(trie1, key3, val0)
trie_remove(trie1, key3)
trie_insert(trie1, key1, null)
trie_insert(trie1, key2, null)
trie_find(trie1, key1)
trie_size(trie1)
key3 = "cbab"
trie_remove(trie1, key2)
trie1 = trie_new()
trie_size(trie1)
val0 = null
trie_find(trie1, key1)
key2 = ""
trie_insert(trie1, key0, null)
val1 = "x"
key1 = "ca"
val1 = 551
val1 = "x"
val1 = null
val0 = "no"
key0 = ""
key0 = "ab"
trie_insert(trie1, key3, null)
key3 = "bccbb"
key1 = ""
trie0 = trie_new()
trie_insert(trie0, key2, null)
key2 = "cacbb"
trie_remove(trie1, key2)
val1 = 32
trie0 = trie_new()
trie_find(trie0, key0)
trie_seek(trie1, key3)
trie_seek(trie1, key0)
trie_find(trie0, key2)
key3 = "abcb"
val0 = "no"
val1 = 802
val1 = 918
val1 = 10
key0 = "cbaba"
trie_find(trie1, key1)
trie_insert(trie1, key2, null)
trie_size(trie1)
trie_insert(trie1, key0, val0)
trie_remove(trie1, key0)
trie_find(trie1, key2)
val0 = "no"
key1 = "caaba"
trie_insert(trie0, key2, val1)
val1 = null
key2 = "bbb"
trie_find(trie1, key2)
trie0 = trie_new()
val1 = "yes"
trie1 = trie_new()
trie_size(trie0)
trie_insert(trie1, key0, val0)
trie_size(trie1)
trie_insert(trie1, key2, null)
trie_remove(trie0, key3)
trie0 = trie_new()
val0 = null
trie_find(trie0, key1)
key3 = ""
trie_insert(trie1, key3, null)
trie_size(trie0)
val1 = 707
trie_size(trie0)
val1 = null
key0 = ""
trie_insert(trie1, key1, null)
trie_remove(trie1, key0)
val0 = null
trie_insert(trie0, key3, val1)
trie0 = trie_new()
val1 = 962
val1 = null
trie_remove(trie0, key0)
val0 = null
trie_insert(trie1, key3, null)
