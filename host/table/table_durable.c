/* table_durable.c - what the game waits for on disk: the held output and the arbiter action,
 * and what the players have heard of it, each one enum whose transitions are checked. */
#include <assert.h>

#include "tb_table.h"

bool tb_table_output_may(enum tb_table_output from, enum tb_table_output to)
{
    return (from == TB_TABLE_OUT_NONE && to == TB_TABLE_OUT_HELD) ||
           (from == TB_TABLE_OUT_HELD &&
            (to == TB_TABLE_OUT_APPENDED || to == TB_TABLE_OUT_NONE)) ||
           (from == TB_TABLE_OUT_APPENDED && to == TB_TABLE_OUT_NONE);
}

void tb_table_output_to(enum tb_table_output *state, enum tb_table_output to)
{
    bool may = tb_table_output_may(*state, to);
    assert(may && "tb_table_output_to: no such transition");
    if (may)
        *state = to;
}

bool tb_table_action_may(enum tb_table_action from, enum tb_table_action to)
{
    return (from == TB_TABLE_ACT_NONE && to == TB_TABLE_ACT_WAITS) ||
           (from == TB_TABLE_ACT_WAITS && to == TB_TABLE_ACT_DURABLE) ||
           (from == TB_TABLE_ACT_DURABLE && to == TB_TABLE_ACT_NONE);
}

void tb_table_action_to(enum tb_table_action *state, enum tb_table_action to)
{
    bool may = tb_table_action_may(*state, to);
    assert(may && "tb_table_action_to: no such transition");
    if (may)
        *state = to;
}

bool tb_table_notice_may(enum tb_table_notice from, enum tb_table_notice to)
{
    return (from == TB_TABLE_NOTICE_NONE && to == TB_TABLE_NOTICE_TOLD) ||
           (from == TB_TABLE_NOTICE_TOLD && to == TB_TABLE_NOTICE_NONE);
}

void tb_table_notice_to(enum tb_table_notice *state, enum tb_table_notice to)
{
    bool may = tb_table_notice_may(*state, to);
    assert(may && "tb_table_notice_to: no such transition");
    if (may)
        *state = to;
}

bool tb_table_held(enum tb_table_journal journal, enum tb_table_output out,
                   enum tb_table_action act)
{
    return journal == TB_TABLE_STOPPED || out != TB_TABLE_OUT_NONE || act == TB_TABLE_ACT_WAITS;
}
