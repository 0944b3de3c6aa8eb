/* md4c built with -DDEBUG turns a failed MD_ASSERT into exit(1).  md4c.o is
 * post-processed with `objcopy --redefine-sym exit=gt_md_assert_exit`, so a
 * failed assertion aborts (a crash for libFuzzer and for ASan with
 * handle_abort=1) instead of exiting quietly. */
#include <stdlib.h>
void gt_md_assert_exit(int code) { (void)code; abort(); }
