/* rb_netlist_internal.h - the netlist's in-memory form, shared by the library's files only. */
#ifndef RB_NETLIST_INTERNAL_H
#define RB_NETLIST_INTERNAL_H

#include "rb_netlist.h"

enum { RB_NETLIST_NAME_MAX = 40, RB_NETLIST_DESC_MAX = 128 };

struct rb_netlist_comp {
    char ref[RB_NETLIST_NAME_MAX];
    char value[RB_NETLIST_NAME_MAX];
    char footprint[RB_NETLIST_NAME_MAX];
    char desc[RB_NETLIST_DESC_MAX];
    int npins;
    char (*pins)[RB_NETLIST_NAME_MAX];
    int *pin_net; /* net index per pin, -1 when unconnected */
};

struct rb_netlist_member {
    int comp;
    int pin;
};

struct rb_netlist_net {
    char name[RB_NETLIST_NAME_MAX];
    int nmembers;
    struct rb_netlist_member *members;
};

struct rb_netlist {
    int ncomps, nnets;
    struct rb_netlist_comp *comps;
    struct rb_netlist_net *nets;
};

/* Index of the net called name, or -1. */
int rb_netlist__net_find(const struct rb_netlist *nl, const char *name);
/* Index of the only component with this value (e.g. "ATmega328P"), -1 if none or several. */
int rb_netlist__comp_by_value(const struct rb_netlist *nl, const char *value);
/* Parses "PD5" into a port pin; 0 on success, -1 when the name is no port pin. */
int rb_netlist__port_pin(const char *name, struct rb_netlist_pin *out);

#endif /* RB_NETLIST_INTERNAL_H */
