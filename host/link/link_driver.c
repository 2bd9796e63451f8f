/* link_driver.c - what every link driver shares: its private state, the board's name, the
 * event queue and the lost/back notes, the buttons' names. Calls nothing of the module, so the
 * core (link.c) may name the drivers' ops tables without a circle of calls between files. */
#include <stdio.h>
#include <string.h>

#include "link_internal.h"
#include "rb_proto.h"

_Static_assert((int)TB_LINK_BUTTON_PROMOTE == (int)RB_PROTO_BTN_PROMOTE &&
                   (int)TB_LINK_BUTTON_REPEAT == (int)RB_PROTO_BTN_REPEAT &&
                   (int)TB_LINK_BUTTON_CLOCK == (int)RB_PROTO_BTN_CLOCK &&
                   (int)TB_LINK_BUTTON_ARBITER == (int)RB_PROTO_BTN_ARBITER &&
                   (int)TB_LINK_BUTTONS == (int)RB_PROTO_BUTTONS,
               "the link's buttons are the board's");

static const char *const button_names[TB_LINK_BUTTONS] = {
    [TB_LINK_BUTTON_PROMOTE] = "promote",
    [TB_LINK_BUTTON_REPEAT] = "repeat",
    [TB_LINK_BUTTON_CLOCK] = "clock",
    [TB_LINK_BUTTON_ARBITER] = "arbiter",
};

const char *tb_link_button_name(int button)
{
    return button >= 0 && button < TB_LINK_BUTTONS ? button_names[button] : "unknown";
}

int tb_link_button_parse(const char *name)
{
    for (int i = 0; name && i < TB_LINK_BUTTONS; i++)
        if (strcmp(name, button_names[i]) == 0)
            return i;
    return -1;
}

const char *tb_link__board_name(const struct tb_link *link)
{
    return link->name;
}
void *tb_link_priv(const struct tb_link *link)
{
    return link ? link->priv : NULL;
}
void tb_link_set_priv(struct tb_link *link, void *priv)
{
    link->priv = priv;
}

bool tb_link__queue_push(struct tb_link__queue *q, const struct tb_link_event *ev)
{
    if (q->count == TB_LINK__QUEUE_CAP)
        return false;
    q->ev[(q->head + q->count) % TB_LINK__QUEUE_CAP] = *ev;
    q->count++;
    return true;
}

int tb_link__queue_pop(struct tb_link__queue *q, struct tb_link_event *ev, int max, uint64_t now_ms)
{
    int n = 0;
    while (n < max && q->count) {
        ev[n] = q->ev[q->head];
        ev[n].host_ms = now_ms;
        q->head = (q->head + 1) % TB_LINK__QUEUE_CAP;
        q->count--;
        n++;
    }
    return n;
}

void tb_link__say_lost(struct tb_link__queue *q, bool *said, bool was_connected, const char *why)
{
    if (!why || (!was_connected && *said))
        return;
    struct tb_link_event ev = {.kind = TB_LINK_EV_LOST};
    snprintf(ev.text, sizeof ev.text, "%s", why);
    tb_link__queue_push(q, &ev);
    *said = true;
}

bool tb_link__say_back(struct tb_link__queue *q, bool *said)
{
    if (!*said)
        return false;
    *said = false;
    tb_link__queue_push(q, &(struct tb_link_event){.kind = TB_LINK_EV_BACK});
    return true;
}
