/* tb_sock.h - a Unix socket's address for the tests that bind or connect one themselves. */
#ifndef TB_SOCK_H
#define TB_SOCK_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "tb_test.h"

/* The address as bind(), connect() and sendto() take it (&a.sa): the union passes it with no
 * cast between object types, which the optimiser may take at its word. */
union tb_test_unix_addr {
    struct sockaddr sa;
    struct sockaddr_un un;
};

/* The address of path ("@name": the abstract name, as systemd gives NOTIFY_SOCKET); the case
 * fails when it does not fit. Returns the address's length. */
static inline socklen_t tb_test_unix_addr(union tb_test_unix_addr *a, const char *path)
{
    size_t n = strlen(path);
    memset(a, 0, sizeof *a);
    a->un.sun_family = AF_UNIX;
    ASSERT_LT(n, sizeof a->un.sun_path);
    memcpy(a->un.sun_path, path, n);
    if (path[0] == '@')
        a->un.sun_path[0] = '\0';
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] != '@'));
}

#endif /* TB_SOCK_H */
