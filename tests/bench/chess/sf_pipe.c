/* sf_pipe.c - a UCI engine over pipes (POSIX fork/exec). */
#include "sf_pipe.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double sf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool sf_open(struct sf_pipe *sf, const char *path)
{
    int to_sf[2], from_sf[2];
    memset(sf, 0, sizeof *sf);
    if (access(path, X_OK) != 0 || pipe(to_sf) != 0)
        return false;
    if (pipe(from_sf) != 0) {
        close(to_sf[0]);
        close(to_sf[1]);
        return false;
    }
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(to_sf[0], 0);
        dup2(from_sf[1], 1);
        close(to_sf[1]);
        close(from_sf[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(to_sf[0]);
    close(from_sf[1]);
    sf->pid = (int)pid;
    sf->in = fdopen(to_sf[1], "w");
    sf->out = fdopen(from_sf[0], "r");
    char line[512];
    sf_send(sf, "uci");
    if (!sf_wait(sf, "uciok", line, sizeof line)) {
        sf_close(sf);
        return false;
    }
    sf_send(sf, "setoption name Threads value 1");
    sf_send(sf, "isready");
    if (!sf_wait(sf, "readyok", line, sizeof line)) {
        sf_close(sf);
        return false;
    }
    return true;
}

void sf_close(struct sf_pipe *sf)
{
    if (sf->in) {
        fputs("quit\n", sf->in);
        fclose(sf->in);
    }
    if (sf->out)
        fclose(sf->out);
    if (sf->pid > 0)
        waitpid(sf->pid, NULL, 0);
    memset(sf, 0, sizeof *sf);
}

void sf_send(struct sf_pipe *sf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(sf->in, fmt, ap);
    va_end(ap);
    fputc('\n', sf->in);
    fflush(sf->in);
}

bool sf_wait(struct sf_pipe *sf, const char *prefix, char *line, size_t n)
{
    size_t plen = strlen(prefix);
    while (fgets(line, (int)n, sf->out))
        if (strncmp(line, prefix, plen) == 0)
            return true;
    return false;
}

int sf_perft(struct sf_pipe *sf, const char *fen, bool chess960, int depth, struct sf_divide *div,
             int cap, uint64_t *total)
{
    char line[512];
    int n = 0;
    sf_send(sf, "setoption name UCI_Chess960 value %s", chess960 ? "true" : "false");
    sf_send(sf, "position fen %s", fen);
    sf_send(sf, "go perft %d", depth);
    while (fgets(line, sizeof line, sf->out)) {
        unsigned long long nodes;
        char mv[16];
        if (sscanf(line, "Nodes searched: %llu", &nodes) == 1) {
            *total = nodes;
            return n;
        }
        if (sscanf(line, "%15[a-h1-8qrbn]: %llu", mv, &nodes) == 2 && n < cap) {
            snprintf(div[n].move, sizeof div[n].move, "%s", mv);
            div[n].nodes = nodes;
            n++;
        }
    }
    return -1;
}
