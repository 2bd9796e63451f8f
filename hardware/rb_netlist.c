/* rb_netlist.c - parsing and querying the netlist text. */
#include "rb_netlist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_file.h"

enum { LINE_MAX_TOKENS = 64 };

struct parser {
    struct rb_netlist *nl;
    const char *source;
    long line;
    struct tb_error *err;
};

/* Capacity is 8, 16, 32 ...: the array grown when the count reaches it, else arr itself; NULL
 * when out of memory (arr kept). The caller stores it in its own typed pointer: writing a T *
 * through a void ** would be a read of one type through another, which -O2 may reorder. */
static void *grow(void *arr, int n, size_t elem)
{
    if (n != 0 && (n < 8 || (n & (n - 1)) != 0))
        return arr;
    size_t cap = n ? (size_t)n * 2 : 8;
    return realloc(arr, cap * elem);
}

static int copy_name(struct parser *p, char *dst, size_t cap, const char *src, const char *what)
{
    size_t n = strlen(src);
    if (n == 0 || n >= cap)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0, "%s:%ld: %s '%s' is %s", p->source,
                               p->line, what, src, n ? "too long" : "empty");
    memcpy(dst, src, n + 1);
    return 0;
}

int rb_netlist__net_find(const struct rb_netlist *nl, const char *name)
{
    for (int i = 0; i < nl->nnets; i++)
        if (strcmp(nl->nets[i].name, name) == 0)
            return i;
    return -1;
}

int rb_netlist_comp_find(const struct rb_netlist *nl, const char *ref)
{
    if (!nl || !ref)
        return TB_ERR_ARG;
    for (int i = 0; i < nl->ncomps; i++)
        if (strcmp(nl->comps[i].ref, ref) == 0)
            return i;
    return TB_ERR_NOTFOUND;
}

int rb_netlist__comp_by_value(const struct rb_netlist *nl, const char *value)
{
    int found = -1;
    for (int i = 0; i < nl->ncomps; i++) {
        if (strcmp(nl->comps[i].value, value) == 0) {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found;
}

int rb_netlist__port_pin(const char *name, struct rb_netlist_pin *out)
{
    if (strlen(name) != 3 || name[0] != 'P' || name[1] < 'A' || name[1] > 'Z' || name[2] < '0' ||
        name[2] > '7')
        return -1;
    out->port = name[1];
    out->bit = (unsigned char)(name[2] - '0');
    return 0;
}

static int pin_index(const struct rb_netlist_comp *c, const char *pin)
{
    for (int k = 0; k < c->npins; k++)
        if (strcmp(c->pins[k], pin) == 0)
            return k;
    return -1;
}

static int do_comp(struct parser *p, char **tok, int ntok, const char *rest)
{
    struct rb_netlist *nl = p->nl;
    if (ntok < 4)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                               "%s:%ld: 'comp' needs a reference, value and footprint", p->source,
                               p->line);
    if (rb_netlist_comp_find(nl, tok[1]) >= 0)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                               "%s:%ld: component %s is declared twice", p->source, p->line,
                               tok[1]);
    struct rb_netlist_comp *comps = grow(nl->comps, nl->ncomps, sizeof *nl->comps);
    if (!comps)
        return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
    nl->comps = comps;
    struct rb_netlist_comp *c = &nl->comps[nl->ncomps];
    memset(c, 0, sizeof *c);
    int rc;
    if ((rc = copy_name(p, c->ref, sizeof c->ref, tok[1], "reference")) ||
        (rc = copy_name(p, c->value, sizeof c->value, tok[2], "value")) ||
        (rc = copy_name(p, c->footprint, sizeof c->footprint, tok[3], "footprint")))
        return rc;
    snprintf(c->desc, sizeof c->desc, "%s", rest);
    nl->ncomps++;
    return 0;
}

static int do_pins(struct parser *p, char **tok, int ntok)
{
    struct rb_netlist *nl = p->nl;
    if (ntok < 3)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                               "%s:%ld: 'pins' needs a reference and at least one pin", p->source,
                               p->line);
    int ci = rb_netlist_comp_find(nl, tok[1]);
    if (ci < 0)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                               "%s:%ld: pins of undeclared component %s", p->source, p->line,
                               tok[1]);
    struct rb_netlist_comp *c = &nl->comps[ci];
    for (int t = 2; t < ntok; t++) {
        if (pin_index(c, tok[t]) >= 0)
            return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                                   "%s:%ld: pin %s.%s is declared twice", p->source, p->line,
                                   c->ref, tok[t]);
        char(*pins)[RB_NETLIST_NAME_MAX] = grow(c->pins, c->npins, sizeof *c->pins);
        if (pins)
            c->pins = pins;
        int *pin_net = pins ? grow(c->pin_net, c->npins, sizeof *c->pin_net) : NULL;
        if (!pin_net)
            return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
        c->pin_net = pin_net;
        int rc = copy_name(p, c->pins[c->npins], sizeof c->pins[0], tok[t], "pin");
        if (rc)
            return rc;
        c->pin_net[c->npins++] = -1;
    }
    return 0;
}

static int do_net(struct parser *p, char **tok, int ntok)
{
    struct rb_netlist *nl = p->nl;
    if (ntok < 3)
        return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                               "%s:%ld: 'net' needs a name and at least one pin", p->source,
                               p->line);
    int ni = rb_netlist__net_find(nl, tok[1]);
    if (ni < 0) {
        struct rb_netlist_net *nets = grow(nl->nets, nl->nnets, sizeof *nl->nets);
        if (!nets)
            return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
        nl->nets = nets;
        struct rb_netlist_net *n = &nl->nets[nl->nnets];
        memset(n, 0, sizeof *n);
        int rc = copy_name(p, n->name, sizeof n->name, tok[1], "net name");
        if (rc)
            return rc;
        ni = nl->nnets++;
    }
    struct rb_netlist_net *n = &nl->nets[ni];
    for (int t = 2; t < ntok; t++) {
        char *dot = strchr(tok[t], '.');
        if (!dot || dot == tok[t] || !dot[1])
            return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                                   "%s:%ld: '%s' is not <ref>.<pin>", p->source, p->line, tok[t]);
        *dot = '\0';
        int ci = rb_netlist_comp_find(nl, tok[t]);
        if (ci < 0)
            return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                                   "%s:%ld: net %s names undeclared component %s", p->source,
                                   p->line, n->name, tok[t]);
        struct rb_netlist_comp *c = &nl->comps[ci];
        int pi = pin_index(c, dot + 1);
        if (pi < 0)
            return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                                   "%s:%ld: net %s names %s.%s, but %s has no pin %s", p->source,
                                   p->line, n->name, c->ref, dot + 1, c->ref, dot + 1);
        if (c->pin_net[pi] >= 0)
            return tb_error_set_at(
                p->err, TB_ERR_PARSE, p->line, 0, "%s:%ld: pin %s.%s is on both net %s and net %s",
                p->source, p->line, c->ref, dot + 1, nl->nets[c->pin_net[pi]].name, n->name);
        struct rb_netlist_member *members = grow(n->members, n->nmembers, sizeof *n->members);
        if (!members)
            return tb_error_set(p->err, TB_ERR_MEM, "out of memory");
        n->members = members;
        n->members[n->nmembers++] = (struct rb_netlist_member){ci, pi};
        c->pin_net[pi] = ni;
    }
    return 0;
}

static int parse_line(struct parser *p, char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    char *tok[LINE_MAX_TOKENS];
    const char *rest = "";
    int ntok = 0;
    char *q = s;
    for (;;) {
        while (*q == ' ' || *q == '\t' || *q == '\r')
            q++;
        if (!*q)
            break;
        if (ntok == LINE_MAX_TOKENS)
            return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 0,
                                   "%s:%ld: more than %d words on one line", p->source, p->line,
                                   LINE_MAX_TOKENS);
        /* A comp's description is the rest of the line, spaces included. */
        if (ntok == 4 && strcmp(tok[0], "comp") == 0) {
            rest = q;
            char *end = q + strlen(q);
            while (end > q && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
                *--end = '\0';
            break;
        }
        tok[ntok++] = q;
        while (*q && *q != ' ' && *q != '\t' && *q != '\r')
            q++;
        if (*q)
            *q++ = '\0';
    }
    if (ntok == 0)
        return 0;
    if (strcmp(tok[0], "comp") == 0)
        return do_comp(p, tok, ntok, rest);
    if (strcmp(tok[0], "pins") == 0)
        return do_pins(p, tok, ntok);
    if (strcmp(tok[0], "net") == 0)
        return do_net(p, tok, ntok);
    return tb_error_set_at(p->err, TB_ERR_PARSE, p->line, 1,
                           "%s:%ld: unknown statement '%s' (expected comp, pins or net)", p->source,
                           p->line, tok[0]);
}

static int check_complete(struct parser *p)
{
    for (int i = 0; i < p->nl->ncomps; i++)
        if (p->nl->comps[i].npins == 0)
            return tb_error_set(p->err, TB_ERR_PARSE, "%s: component %s has no 'pins' line",
                                p->source, p->nl->comps[i].ref);
    return 0;
}

int rb_netlist_parse(const char *text, size_t len, const char *source, struct rb_netlist **out,
                     struct tb_error *err)
{
    if (!text || !out)
        return tb_error_set(err, TB_ERR_ARG, "netlist: no text or no result pointer");
    if (!source)
        source = "netlist";
    struct rb_netlist *nl = calloc(1, sizeof *nl);
    if (!nl)
        return tb_error_set(err, TB_ERR_MEM, "out of memory");
    struct parser p = {nl, source, 0, err};
    int rc = 0;
    size_t pos = 0;
    while (pos < len && rc == 0) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        p.line++;
        size_t n = end - pos;
        char *buf = malloc(n + 1);
        if (!buf) {
            rc = tb_error_set(err, TB_ERR_MEM, "out of memory");
            break;
        }
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        if (memchr(buf, '\0', n))
            rc = tb_error_set_at(err, TB_ERR_PARSE, p.line, 0, "%s:%ld: NUL byte in line", source,
                                 p.line);
        else
            rc = parse_line(&p, buf);
        free(buf);
        pos = end + 1;
    }
    if (rc == 0)
        rc = check_complete(&p);
    if (rc) {
        rb_netlist_free(nl);
        return rc;
    }
    *out = nl;
    return 0;
}

int rb_netlist_load(const char *path, struct rb_netlist **out, struct tb_error *err)
{
    if (!path || !out)
        return tb_error_set(err, TB_ERR_ARG, "netlist: no path or no result pointer");
    char *buf;
    size_t len;
    int rc = tb_read_file(path, &buf, &len, err);
    if (rc != TB_OK)
        return rc;
    rc = rb_netlist_parse(buf, len, path, out, err);
    free(buf);
    return rc;
}

void rb_netlist_free(struct rb_netlist *nl)
{
    if (!nl)
        return;
    for (int i = 0; i < nl->ncomps; i++) {
        free(nl->comps[i].pins);
        free(nl->comps[i].pin_net);
    }
    for (int i = 0; i < nl->nnets; i++)
        free(nl->nets[i].members);
    free(nl->comps);
    free(nl->nets);
    free(nl);
}

int rb_netlist_ncomps(const struct rb_netlist *nl)
{
    return nl ? nl->ncomps : 0;
}

static const struct rb_netlist_comp *comp_at(const struct rb_netlist *nl, int i)
{
    return nl && i >= 0 && i < nl->ncomps ? &nl->comps[i] : NULL;
}

const char *rb_netlist_comp_ref(const struct rb_netlist *nl, int i)
{
    const struct rb_netlist_comp *c = comp_at(nl, i);
    return c ? c->ref : NULL;
}

const char *rb_netlist_comp_value(const struct rb_netlist *nl, int i)
{
    const struct rb_netlist_comp *c = comp_at(nl, i);
    return c ? c->value : NULL;
}

const char *rb_netlist_comp_footprint(const struct rb_netlist *nl, int i)
{
    const struct rb_netlist_comp *c = comp_at(nl, i);
    return c ? c->footprint : NULL;
}

const char *rb_netlist_comp_desc(const struct rb_netlist *nl, int i)
{
    const struct rb_netlist_comp *c = comp_at(nl, i);
    return c ? c->desc : NULL;
}

int rb_netlist_nnets(const struct rb_netlist *nl)
{
    return nl ? nl->nnets : 0;
}

const char *rb_netlist_net_name(const struct rb_netlist *nl, int i)
{
    return nl && i >= 0 && i < nl->nnets ? nl->nets[i].name : NULL;
}

int rb_netlist_net_npins(const struct rb_netlist *nl, int i)
{
    return nl && i >= 0 && i < nl->nnets ? nl->nets[i].nmembers : 0;
}

const char *rb_netlist_net_pin(const struct rb_netlist *nl, int i, int k, const char **pin)
{
    if (!nl || i < 0 || i >= nl->nnets || k < 0 || k >= nl->nets[i].nmembers)
        return NULL;
    const struct rb_netlist_member *m = &nl->nets[i].members[k];
    if (pin)
        *pin = nl->comps[m->comp].pins[m->pin];
    return nl->comps[m->comp].ref;
}

const char *rb_netlist_net_of(const struct rb_netlist *nl, const char *ref, const char *pin)
{
    if (!nl || !ref || !pin)
        return NULL;
    int ci = rb_netlist_comp_find(nl, ref);
    if (ci < 0)
        return NULL;
    int pi = pin_index(&nl->comps[ci], pin);
    if (pi < 0 || nl->comps[ci].pin_net[pi] < 0)
        return NULL;
    return nl->nets[nl->comps[ci].pin_net[pi]].name;
}

int rb_netlist_mcu_pin(const struct rb_netlist *nl, const char *net, struct rb_netlist_pin *out,
                       struct tb_error *err)
{
    if (!nl || !net || !out)
        return tb_error_set(err, TB_ERR_ARG, "netlist: missing argument");
    int ni = rb_netlist__net_find(nl, net);
    if (ni < 0)
        return tb_error_set(err, TB_ERR_NOTFOUND, "netlist: no net %s", net);
    int mcu = rb_netlist__comp_by_value(nl, "ATmega328P");
    if (mcu < 0)
        return tb_error_set(err, TB_ERR_NOTFOUND, "netlist: no single ATmega328P component");
    int found = 0;
    for (int k = 0; k < nl->nets[ni].nmembers; k++) {
        const struct rb_netlist_member *m = &nl->nets[ni].members[k];
        struct rb_netlist_pin pp;
        if (m->comp != mcu || rb_netlist__port_pin(nl->comps[mcu].pins[m->pin], &pp) != 0)
            continue;
        if (found++)
            return tb_error_set(err, TB_ERR_STATE,
                                "netlist: net %s reaches two MCU pins (P%c%u and %s)", net,
                                out->port, out->bit, nl->comps[mcu].pins[m->pin]);
        *out = pp;
    }
    if (!found)
        return tb_error_set(err, TB_ERR_NOTFOUND, "netlist: net %s reaches no MCU port pin", net);
    return 0;
}
