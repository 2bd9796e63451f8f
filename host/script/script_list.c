/* script_list.c - a growable list of script events (scripts held whole in memory). */
#include "tb_script.h"

#include <stdlib.h>

int tb_script_list_push(struct tb_script_list *list, const struct tb_script_event *ev)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 64;
        struct tb_script_event *bigger = realloc(list->ev, cap * sizeof *bigger);
        if (!bigger)
            return TB_ERR_MEM;
        list->ev = bigger;
        list->cap = cap;
    }
    list->ev[list->n++] = *ev;
    return TB_OK;
}

void tb_script_list_free(struct tb_script_list *list)
{
    free(list->ev);
    list->ev = NULL;
    list->n = list->cap = 0;
}
