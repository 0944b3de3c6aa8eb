# Turns a kv command file (new | put KEY VALUE | del KEY | get KEY, one a line) into a test of
# tests/driver/kv.tnh: docs/harness.md, "A failing input from outside the harness".
$1 == "new" { print "kv0 = kv_new()" }
$1 == "put" { printf "key0 = \"%s\"\nval0 = %s\nkv_put(kv0, key0, val0)\n", $2, $3 }
$1 == "del" { printf "key0 = \"%s\"\nkv_del(kv0, key0)\n", $2 }
$1 == "get" { printf "key0 = \"%s\"\nkv_get(kv0, key0)\n", $2 }
