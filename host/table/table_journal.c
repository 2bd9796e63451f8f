/* table_journal.c - the journal's state as play sees it: one enum, its transitions checked. */
#include <assert.h>

#include "tb_table.h"

bool tb_table_journal_may(enum tb_table_journal from, enum tb_table_journal to)
{
    return (from == TB_TABLE_WRITABLE && to == TB_TABLE_STOPPED) ||
           (from == TB_TABLE_STOPPED && (to == TB_TABLE_STOPPED || to == TB_TABLE_WRITABLE));
}

void tb_table_journal_to(enum tb_table_journal *state, enum tb_table_journal to)
{
    bool may = tb_table_journal_may(*state, to);
    assert(may && "tb_table_journal_to: no such transition");
    if (may)
        *state = to;
}

const char *tb_table_journal_name(enum tb_table_journal state)
{
    return state == TB_TABLE_STOPPED ? "stopped" : "writable";
}
