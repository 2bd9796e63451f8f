/* hw_board.h - the board's netlist for the hardware tests. */
#ifndef HW_BOARD_H
#define HW_BOARD_H

#include "rb_netlist.h"

/* hardware/netlist.txt of this source tree, parsed; the test fails if it does not parse. */
struct rb_netlist *hw_load_board(void);

#endif /* HW_BOARD_H */
