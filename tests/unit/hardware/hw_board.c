/* hw_board.c - the board's netlist for the hardware tests. */
#include "hw_board.h"

#include "tb_test.h"

struct rb_netlist *hw_load_board(void)
{
    struct rb_netlist *nl = NULL;
    struct tb_error err = {0};
    if (rb_netlist_load(RB_SOURCE_DIR "/hardware/netlist.txt", &nl, &err))
        TB_FAIL("%s", err.msg);
    return nl;
}
