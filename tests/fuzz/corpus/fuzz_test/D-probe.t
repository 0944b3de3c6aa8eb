Dn0 = 2
obj1 = make(n0)
s0 = "q\"x"
put(obj1, s0, 9)
n1 = size(obj1)
obj0 = make(n1)
show(obj0)
fail_if(obj0, 3)   # comment
