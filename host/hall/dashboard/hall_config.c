/* hall_config.c - twinboard-hall's configuration file (docs/hall.md, "The hall's
 * configuration"): the round and the lichess push. INI, as the daemon's (libinih); every
 * problem named with its file, line and key. */
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dashboard.h"
#include "tb_str.h"

struct parse {
    struct hall_config *c;
    const char *path;
    FILE *f;
    int line; /* the line read last: the one the handler is called for */
    char *why;
    size_t len;
    bool bad;
};

/* "90", "90s", "15m", "500ms": the time in ms, at most an hour; -1 otherwise (the daemon's
 * rule). */
static long long delay_ms(const char *v)
{
    return tb_str_duration_ms(v, 3600 * 1000);
}

static bool put(char *dst, size_t cap, const char *v)
{
    if (strlen(v) >= cap)
        return false;
    snprintf(dst, cap, "%s", v);
    return true;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    struct parse *p = user;
    int line = p->line;
    struct hall_config *c = p->c;
    if (p->bad)
        return 1;
    const char *what = NULL;
    bool round = !strcmp(section, "round"), lichess = !strcmp(section, "lichess");
    if (round && !strcmp(key, "pairings"))
        what = put(c->pairings, sizeof c->pairings, value) ? NULL : "too long a path";
    else if (round && !strcmp(key, "folder"))
        what = put(c->folder, sizeof c->folder, value) ? NULL : "too long a path";
    else if (round && !strcmp(key, "pin_file"))
        what = put(c->pin_file, sizeof c->pin_file, value) ? NULL : "too long a path";
    else if (round && !strcmp(key, "delay")) {
        long long ms = delay_ms(value);
        what = ms < 0 ? "not a delay (90s, 15m; at most 60m)" : NULL;
        c->delay_ms = ms < 0 ? 0 : (uint64_t)ms;
    } else if (round && !strcmp(key, "tables")) {
        char list[sizeof c->table_text];
        what = put(list, sizeof list, value) ? NULL : "too long";
        /* several lines add up: a line holds at most 200 bytes */
        for (char *save = NULL, *t = strtok_r(list, " ,", &save); !what && t;
             t = strtok_r(NULL, " ,", &save)) {
            if (!tb_hall_name_ok(t))
                what = "a table name is 1 to 31 of A-Z a-z 0-9 _ -";
            else if (c->ntables == TB_ROUND_MAX_BOARDS)
                what = "more than 512 tables";
            else
                snprintf(c->table[c->ntables++], sizeof c->table[0], "%s", t);
        }
    } else if (lichess && !strcmp(key, "round"))
        what = put(c->lichess_round, sizeof c->lichess_round, value) ? NULL : "too long";
    else if (lichess && !strcmp(key, "token_file"))
        what = put(c->token_file, sizeof c->token_file, value) ? NULL : "too long a path";
    else if (lichess && !strcmp(key, "url"))
        what = put(c->lichess_url, sizeof c->lichess_url, value) &&
                       (!strncmp(value, "https://", 8) || !strncmp(value, "http://", 7))
                   ? NULL
                   : "not an http:// or https:// address";
    else if (lichess && !strcmp(key, "retry")) {
        long long ms = delay_ms(value);
        what = ms <= 0 || ms > 60000 ? "not a time from 1ms to 60s (500ms, 2s)" : NULL;
        c->retry_ms = ms <= 0 ? 0 : (uint32_t)ms;
    } else
        what = round || lichess ? "no such key" : "no such section ([round], [lichess])";
    if (what) {
        snprintf(p->why, p->len, "%s:%d: [%s] %s: %s", p->path, line, section, key, what);
        p->bad = true;
    }
    return 1;
}

/* libinih's reader, counting the lines. */
static char *read_line(char *buf, int n, void *user)
{
    struct parse *p = user;
    char *s = fgets(buf, n, p->f);
    p->line += s != NULL;
    return s;
}

/* The first line of a file (a PIN, a token), without its line break; never logged. */
int hall_config_secret(const char *path, const char *what, char *out, size_t cap, char *why,
                       size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "%s %s: cannot be read", what, path);
        return -1;
    }
    if (!fgets(out, (int)cap, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\r\n")] = '\0';
    if (!out[0]) {
        snprintf(why, len, "%s %s: its first line is empty", what, path);
        return -1;
    }
    return 0;
}

int hall_config_read(const char *path, struct hall_config *c, char *why, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "%s: cannot be read", path);
        return -1;
    }
    struct parse p = {c, path, f, 0, why, len, false};
    int rc = ini_parse_stream(read_line, &p, handler, &p);
    fclose(f);
    if (p.bad)
        return -1;
    if (rc > 0) {
        snprintf(why, len, "%s:%d: not a line of an INI file", path, rc);
        return -1;
    }
    if (c->lichess_round[0] && !c->token_file[0]) {
        snprintf(why, len, "%s: [lichess] round needs token_file (the bearer token)", path);
        return -1;
    }
    return 0;
}
