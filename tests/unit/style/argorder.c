/* argorder: finds calls whose arguments both write and read one object.
 *
 * C leaves the order in which a call's arguments are evaluated unspecified. In
 *     use(parse(text, &mv), mv)
 * one argument writes mv through a call and another reads it: clang -O0 happens to parse first,
 * gcc -O2 reads mv first. No compiler warning and no sanitizer sees this (the calls are
 * indeterminately sequenced, not unsequenced), so this check reads the sources for that shape:
 * in the arguments of one call, an object written by a call inside one argument (its address
 * passed: `&x`, `&x.f`, `&x->f`, `&x[i]`) or by `x++`/`x = ...` inside one argument, and the same
 * object (or a part of it) read in another argument.
 *
 * It works on tokens, not types: a pointer or array passed without `&` is not seen (the callee
 * may write through it), and a macro's body is not read. Usage: argorder DIR... ; prints one
 * line per finding, exits 1 if there is any, 2 on a usage or read error.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum kind { ID, NUM, PUNCT };

struct tok {
    enum kind kind;
    const char *s;
    int len;
    int line;
};

struct toks {
    struct tok *v;
    int n, cap;
};

static int push(struct toks *t, enum kind k, const char *s, int len, int line)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        struct tok *v = realloc(t->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = (struct tok){k, s, len, line};
    return 0;
}

static int is_idc(int c, int first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* Comments, strings, character constants and preprocessor lines are skipped. */
static int lex(const char *p, struct toks *t)
{
    static const char *const punct3[] = {"<<=", ">>=", "..."};
    static const char *const punct2[] = {
        "->", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "+=",
        "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "##"};
    int line = 1, bol = 1;
    while (*p) {
        if (*p == '\n') {
            line++, bol = 1, p++;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
            p++;
            continue;
        }
        if (bol && *p == '#') {
            while (*p && *p != '\n') {
                if (p[0] == '\\' && p[1] == '\n')
                    line++, p++;
                else if (p[0] == '/' && p[1] == '*') {
                    for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
                        line += *p == '\n';
                    if (*p)
                        p++;
                }
                p++;
            }
            continue;
        }
        bol = 0;
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
                line += *p == '\n';
            p += *p ? 2 : 0;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            const char *s = p - 1;
            while (*p && *p != q && *p != '\n')
                p += (p[0] == '\\' && p[1]) ? 2 : 1;
            if (*p == q)
                p++;
            if (push(t, NUM, s, (int)(p - s), line))
                return -1;
            continue;
        }
        const char *s = p;
        if (is_idc((unsigned char)*p, 1)) {
            while (is_idc((unsigned char)*p, 0))
                p++;
            if (push(t, ID, s, (int)(p - s), line))
                return -1;
            continue;
        }
        if ((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')) {
            while (is_idc((unsigned char)*p, 0) || *p == '.' ||
                   ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p')))
                p++;
            if (push(t, NUM, s, (int)(p - s), line))
                return -1;
            continue;
        }
        int len = 1;
        for (size_t i = 0; i < sizeof punct3 / sizeof *punct3 && len == 1; i++)
            if (!strncmp(p, punct3[i], 3))
                len = 3;
        for (size_t i = 0; i < sizeof punct2 / sizeof *punct2 && len == 1; i++)
            if (!strncmp(p, punct2[i], 2))
                len = 2;
        if (push(t, PUNCT, s, len, line))
            return -1;
        p += len;
    }
    return 0;
}

static int is(const struct tok *k, const char *s)
{
    return k->len == (int)strlen(s) && !strncmp(k->s, s, (size_t)k->len);
}

static int not_a_call(const struct tok *k)
{
    static const char *const words[] = {"if",
                                        "while",
                                        "for",
                                        "switch",
                                        "return",
                                        "sizeof",
                                        "_Alignof",
                                        "alignof",
                                        "_Generic",
                                        "do",
                                        "else",
                                        "case",
                                        "defined",
                                        "typeof",
                                        "__typeof__",
                                        "_Atomic",
                                        "__attribute__",
                                        "_Static_assert",
                                        "static_assert",
                                        "int",
                                        "char",
                                        "void",
                                        "long",
                                        "short",
                                        "unsigned",
                                        "signed",
                                        "float",
                                        "double"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (is(k, words[i]))
            return 1;
    return 0;
}

/* The token after an open bracket at i that closes it, or n. */
static int closing(const struct tok *v, int i, int n)
{
    int depth = 0;
    for (; i < n; i++) {
        if (v[i].kind != PUNCT)
            continue;
        if (is(&v[i], "(") || is(&v[i], "[") || is(&v[i], "{"))
            depth++;
        else if (is(&v[i], ")") || is(&v[i], "]") || is(&v[i], "}"))
            if (--depth == 0)
                return i;
    }
    return n;
}

/* An access path: an identifier and its `.f` / `->f` members; [lo, hi) in the tokens. */
struct path {
    int lo, hi;
};

static struct path path_at(const struct tok *v, int i, int end)
{
    struct path p = {i, i + 1};
    while (p.hi + 1 < end && v[p.hi].kind == PUNCT && (is(&v[p.hi], ".") || is(&v[p.hi], "->")) &&
           v[p.hi + 1].kind == ID)
        p.hi += 2;
    return p;
}

static int same_tok(const struct tok *a, const struct tok *b)
{
    return a->len == b->len && !strncmp(a->s, b->s, (size_t)a->len);
}

/* Whether the object read (r) and the object written (w) overlap: one path is the other's
 * prefix, except that reading a pointer (`s` beside a write of `s->f`) reads only the pointer. */
static int overlap(const struct tok *v, struct path r, struct path w)
{
    int i = 0;
    for (; r.lo + i < r.hi && w.lo + i < w.hi; i++)
        if (!same_tok(&v[r.lo + i], &v[w.lo + i]))
            return 0;
    if (r.lo + i == r.hi && w.lo + i < w.hi)
        return !is(&v[w.lo + i], "->");
    return 1;
}

/* A `&` that takes an address: not after an operand. */
static int unary_amp(const struct tok *v, int i, int lo)
{
    if (!is(&v[i], "&"))
        return 0;
    if (i == lo)
        return 1;
    const struct tok *b = &v[i - 1];
    return !(b->kind == ID || b->kind == NUM || is(b, ")") || is(b, "]"));
}

/* Functions whose parameter takes a pointer to const do not write through it: `const T *p` or
 * `T const *p`. Collected from every declaration and definition read (all files first), by name:
 * a name declared twice (two static functions) keeps only the parameters const in both. */
struct proto {
    char name[64];
    unsigned long long konst; /* bit i: parameter i points to const */
};

struct protos {
    struct proto *v;
    int n, cap;
};

static struct proto *proto_find(struct protos *ps, const struct tok *k)
{
    for (int i = 0; i < ps->n; i++)
        if ((int)strlen(ps->v[i].name) == k->len && !strncmp(ps->v[i].name, k->s, (size_t)k->len))
            return &ps->v[i];
    return NULL;
}

static void proto_note(struct protos *ps, const struct tok *v, int name, int close)
{
    unsigned long long konst = 0;
    int arg = 0, seen_const = 0, seen_star = 0, konst_arg = 0, depth = 0;
    for (int i = name + 2; i <= close; i++) {
        if (i == close || (depth == 0 && is(&v[i], ","))) {
            if (konst_arg && arg < 64)
                konst |= 1ull << arg;
            arg++, seen_const = seen_star = konst_arg = 0;
            continue;
        }
        if (is(&v[i], "(") || is(&v[i], "["))
            depth++;
        else if (is(&v[i], ")") || is(&v[i], "]"))
            depth--;
        else if (is(&v[i], "const") && !seen_star)
            seen_const = 1;
        else if (is(&v[i], "*") && !seen_star) {
            seen_star = 1;
            konst_arg = seen_const;
        }
    }
    struct proto *p = proto_find(ps, &v[name]);
    if (p) {
        p->konst &= konst;
        return;
    }
    if (v[name].len >= (int)sizeof p->name)
        return;
    if (ps->n == ps->cap) {
        int cap = ps->cap ? ps->cap * 2 : 256;
        struct proto *nv = realloc(ps->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return;
        ps->v = nv;
        ps->cap = cap;
    }
    p = &ps->v[ps->n++];
    memcpy(p->name, v[name].s, (size_t)v[name].len);
    p->name[v[name].len] = 0;
    p->konst = konst;
}

/* Declarations and definitions: a name and its parameters at file level, then `;` or `{`. */
static void protos_collect(struct protos *ps, const struct tok *v, int n)
{
    int depth = 0;
    for (int i = 0; i < n; i++) {
        if (is(&v[i], "{"))
            depth++;
        else if (is(&v[i], "}"))
            depth--;
        if (depth || v[i].kind != ID || i + 1 >= n || !is(&v[i + 1], "(") || not_a_call(&v[i]))
            continue;
        int close = closing(v, i + 1, n);
        if (close + 1 < n && (is(&v[close + 1], ";") || is(&v[close + 1], "{") ||
                              is(&v[close + 1], "__attribute__")))
            proto_note(ps, v, i, close);
        i = close;
    }
}

/* Whether the argument at token i of the call named at c is a pointer to const. */
static int to_const(const struct protos *ps, const struct tok *v, int c, int i)
{
    int arg = 0, depth = 0;
    for (int k = c + 2; k < i; k++) {
        if (is(&v[k], "(") || is(&v[k], "[") || is(&v[k], "{"))
            depth++;
        else if (is(&v[k], ")") || is(&v[k], "]") || is(&v[k], "}"))
            depth--;
        else if (depth == 0 && is(&v[k], ","))
            arg++;
    }
    const struct proto *p = proto_find((struct protos *)ps, &v[c]);
    return p && arg < 64 && (p->konst >> arg & 1);
}

#define MAXP 64

struct use {
    struct path p[MAXP];
    int n;
    int call[MAXP]; /* for writes: the call that writes, or -1 for ++/= */
};

static void add(struct use *u, struct path p, int call)
{
    if (u->n < MAXP) {
        u->call[u->n] = call;
        u->p[u->n++] = p;
    }
}

static int is_assign(const struct tok *k)
{
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (is(k, ops[i]))
            return 1;
    return 0;
}

/* The objects one argument [lo, hi) writes during its evaluation and reads. */
static void scan_arg(const struct protos *ps, const struct tok *v, int lo, int hi, struct use *w,
                     struct use *r)
{
    int depth_call[256], calls = 0; /* open calls inside the argument, by their name token */
    int close_at[256];
    for (int i = lo; i < hi; i++) {
        while (calls && i > close_at[calls - 1])
            calls--;
        const struct tok *k = &v[i];
        if (k->kind == ID && (is(k, "sizeof") || is(k, "_Alignof") || is(k, "alignof"))) {
            /* its operand is not evaluated: no read, no write */
            if (i + 1 < hi && is(&v[i + 1], "("))
                i = closing(v, i + 1, hi);
            else {
                while (i + 1 < hi && (is(&v[i + 1], "*") || is(&v[i + 1], "&")))
                    i++;
                if (i + 1 < hi && v[i + 1].kind == ID)
                    i = path_at(v, i + 1, hi).hi - 1;
            }
            continue;
        }
        if (k->kind == ID && i + 1 < hi && is(&v[i + 1], "(") && !not_a_call(k)) {
            if (calls < 256) {
                depth_call[calls] = i;
                close_at[calls++] = closing(v, i + 1, hi);
            }
            continue;
        }
        if (unary_amp(v, i, lo) && i + 1 < hi && v[i + 1].kind == ID) {
            struct path p = path_at(v, i + 1, hi);
            if (calls && !to_const(ps, v, depth_call[calls - 1], i))
                add(w, p, depth_call[calls - 1]);
            i = p.hi - 1;
            continue;
        }
        if (k->kind == ID && (i == lo || !(is(&v[i - 1], ".") || is(&v[i - 1], "->")))) {
            struct path p = path_at(v, i, hi);
            if ((p.hi < hi && is_assign(&v[p.hi])) ||
                (i > lo && (is(&v[i - 1], "++") || is(&v[i - 1], "--"))))
                add(w, p, -1);
            else
                add(r, p, -1);
            i = p.hi - 1;
        }
    }
}

static int check_call(const struct protos *ps, const char *file, const struct tok *v, int name,
                      int end)
{
    int open = name + 1, close = closing(v, open, end);
    int cut[65], nargs = 0, depth = 0;
    cut[nargs++] = open;
    for (int i = open + 1; i < close && nargs < 64; i++) {
        if (is(&v[i], "(") || is(&v[i], "[") || is(&v[i], "{"))
            depth++;
        else if (is(&v[i], ")") || is(&v[i], "]") || is(&v[i], "}"))
            depth--;
        else if (depth == 0 && is(&v[i], ","))
            cut[nargs++] = i;
    }
    cut[nargs] = close;
    if (nargs < 2)
        return 0;
    static struct use w[64], r[64];
    for (int a = 0; a < nargs; a++) {
        w[a].n = r[a].n = 0;
        scan_arg(ps, v, cut[a] + 1, cut[a + 1], &w[a], &r[a]);
    }
    int found = 0;
    for (int a = 0; a < nargs; a++)
        for (int x = 0; x < w[a].n; x++)
            for (int b = 0; b < nargs; b++) {
                if (b == a)
                    continue;
                for (int y = 0; y < r[b].n; y++) {
                    if (!overlap(v, r[b].p[y], w[a].p[x]))
                        continue;
                    const struct tok *o = &v[w[a].p[x].lo];
                    int c = w[a].call[x];
                    printf("%s:%d: %.*s(): argument %d reads %.*s while argument %d writes it",
                           file, v[name].line, v[name].len, v[name].s, b + 1, o->len, o->s, a + 1);
                    if (c >= 0)
                        printf(" through %.*s(&%.*s)", v[c].len, v[c].s, o->len, o->s);
                    printf("; C leaves their order to the compiler\n");
                    found++;
                    y = r[b].n;
                    b = nargs;
                }
            }
    return found;
}

struct file {
    char *path, *text;
    struct toks t;
};

struct files {
    struct file *v;
    int n, cap;
};

static int load(struct files *fs, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (cap - len < 65536) {
            char *nb = realloc(buf, cap += 65536 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    } while (got);
    fclose(f);
    buf[len] = 0;
    if (fs->n == fs->cap) {
        int ncap = fs->cap ? fs->cap * 2 : 256;
        struct file *nv = realloc(fs->v, (size_t)ncap * sizeof *nv);
        if (!nv) {
            free(buf);
            return -1;
        }
        fs->v = nv;
        fs->cap = ncap;
    }
    struct file *fl = &fs->v[fs->n];
    *fl = (struct file){.path = strdup(path), .text = buf};
    if (!fl->path || lex(buf, &fl->t)) {
        free(fl->path);
        free(fl->t.v);
        free(buf);
        return -1;
    }
    fs->n++;
    return 0;
}

static int walk(struct files *fs, const char *dir)
{
    struct stat st;
    if (stat(dir, &st))
        return -1;
    if (!S_ISDIR(st.st_mode))
        return load(fs, dir);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (lstat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode))
            rc = walk(fs, path);
        else if (S_ISREG(st.st_mode) && n > 2 && e->d_name[n - 2] == '.' &&
                 (e->d_name[n - 1] == 'c' || e->d_name[n - 1] == 'h'))
            rc = load(fs, path);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: argorder DIR|FILE...\n");
        return 2;
    }
    struct files fs = {0};
    for (int i = 1; i < argc; i++)
        if (walk(&fs, argv[i])) {
            fprintf(stderr, "argorder: cannot read %s\n", argv[i]);
            return 2;
        }
    struct protos ps = {0};
    for (int f = 0; f < fs.n; f++)
        protos_collect(&ps, fs.v[f].t.v, fs.v[f].t.n);
    int found = 0;
    for (int f = 0; f < fs.n; f++) {
        const struct toks *t = &fs.v[f].t;
        for (int i = 0; i + 1 < t->n; i++)
            if (t->v[i].kind == ID && is(&t->v[i + 1], "(") && !not_a_call(&t->v[i]))
                found += check_call(&ps, fs.v[f].path, t->v, i, t->n);
    }
    printf("argorder: %d file(s) read, %d call(s) found\n", fs.n, found);
    for (int f = 0; f < fs.n; f++) {
        free(fs.v[f].path);
        free(fs.v[f].text);
        free(fs.v[f].t.v);
    }
    free(fs.v);
    free(ps.v);
    return found ? 1 : 0;
}
