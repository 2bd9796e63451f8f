/* unit_sandbox: runs a program under a systemd unit's RestrictAddressFamilies=, without systemd.
 *
 * The install test runs the installed daemon as its packaged unit would, on machines where
 * systemd is not PID 1 (containers, CI). systemd applies RestrictAddressFamilies= as a seccomp
 * filter on socket() and socketpair() that fails any other family with EAFNOSUPPORT; this
 * program reads the unit's lines with systemd's rules (lines add up, `~` makes a deny list, an
 * empty value resets) and installs the same filter before exec'ing the program.
 *
 *     unit_sandbox UNIT_FILE PROGRAM [ARG...]
 *
 * It names the families it allows on standard error. Exit 125 on its own errors.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#else
#error "unit_sandbox: add this machine's AUDIT_ARCH"
#endif

static const struct family {
    const char *name;
    int value;
} families[] = {
    {"AF_UNIX", AF_UNIX},           {"AF_LOCAL", AF_LOCAL},     {"AF_INET", AF_INET},
    {"AF_INET6", AF_INET6},         {"AF_NETLINK", AF_NETLINK}, {"AF_PACKET", AF_PACKET},
    {"AF_BLUETOOTH", AF_BLUETOOTH},
};

#define NFAM ((int)(sizeof families / sizeof *families))

struct rule {
    int set;    /* a RestrictAddressFamilies= line was read */
    int deny;   /* the list names the families refused (`~`) */
    int on[64]; /* by family value */
};

static int family(const char *name)
{
    for (int i = 0; i < NFAM; i++)
        if (!strcmp(families[i].name, name))
            return families[i].value;
    return -1;
}

/* One RestrictAddressFamilies= value, added to the rule as systemd adds them. */
static int parse_value(struct rule *r, char *v, const char *unit, int line)
{
    v += strspn(v, " \t");
    if (!*v) { /* an empty value resets the list */
        memset(r, 0, sizeof *r);
        return 0;
    }
    int deny = 0;
    if (*v == '~')
        deny = 1, v++;
    if (!r->set) {
        r->set = 1;
        r->deny = deny;
    }
    for (char *tok = strtok(v, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (!strcmp(tok, "none")) {
            memset(r->on, 0, sizeof r->on);
            r->deny = 0;
            continue;
        }
        int f = family(tok);
        if (f < 0 || f >= 64) {
            fprintf(stderr, "unit_sandbox: %s:%d: unknown address family '%s'\n", unit, line, tok);
            return -1;
        }
        /* a later line of the other kind takes the family out of the first kind's list */
        r->on[f] = deny == r->deny;
    }
    return 0;
}

static int read_unit(struct rule *r, const char *unit)
{
    FILE *f = fopen(unit, "r");
    if (!f) {
        fprintf(stderr, "unit_sandbox: cannot read %s: %s\n", unit, strerror(errno));
        return -1;
    }
    static const char key[] = "RestrictAddressFamilies=";
    char buf[1024];
    int line = 0, rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        buf[strcspn(buf, "\n")] = 0;
        if (!strncmp(buf, key, sizeof key - 1))
            rc = parse_value(r, buf + sizeof key - 1, unit, line);
    }
    fclose(f);
    if (rc == 0 && !r->set) {
        fprintf(stderr, "unit_sandbox: %s has no RestrictAddressFamilies= line\n", unit);
        return -1;
    }
    return rc;
}

static int allowed(const struct rule *r, int f)
{
    return r->deny ? !r->on[f] : r->on[f];
}

/* socket(domain, ...) and socketpair(domain, ...): a family the rule refuses fails with
 * EAFNOSUPPORT, as under systemd; every other system call is left alone. */
static int install(const struct rule *r)
{
    struct sock_filter prog[16 + 2 * 64];
    int n = 0;
    prog[n++] =
        (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    prog[n++] =
        (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 2, 0);
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 1, 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, args[0]));
    for (int f = 0; f < 64; f++)
        if (allowed(r, f)) {
            prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)f, 0, 1);
            prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        }
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                             SECCOMP_RET_ERRNO | (EAFNOSUPPORT & SECCOMP_RET_DATA));
    struct sock_fprog fp = {.len = (unsigned short)n, .filter = prog};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp)) {
        fprintf(stderr, "unit_sandbox: cannot install the filter: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: unit_sandbox UNIT_FILE PROGRAM [ARG...]\n");
        return 125;
    }
    struct rule r = {0};
    if (read_unit(&r, argv[1]))
        return 125;
    fprintf(stderr, "unit_sandbox: %s: socket families allowed:", argv[1]);
    for (int i = 0; i < NFAM; i++)
        if (strcmp(families[i].name, "AF_LOCAL") && allowed(&r, families[i].value))
            fprintf(stderr, " %s", families[i].name);
    fprintf(stderr, "\n");
    if (install(&r))
        return 125;
    execvp(argv[2], argv + 2);
    fprintf(stderr, "unit_sandbox: cannot run %s: %s\n", argv[2], strerror(errno));
    return 125;
}
