/* netlist2svg - draw the reedboard wiring diagram from the netlist.
 *
 *   netlist2svg NETLIST OUTPUT.svg
 *
 * The build runs it to produce build/hardware/wiring.svg; hardware/wiring.svg is a committed
 * copy that a test keeps in step with the netlist.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rb_netlist.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: netlist2svg NETLIST OUTPUT.svg\n");
        return 2;
    }
    struct tb_error err = {0};
    struct rb_netlist *nl = NULL;
    char *svg = NULL;
    size_t len = 0;
    if (rb_netlist_load(argv[1], &nl, &err) || rb_netlist_svg(nl, &svg, &len, &err)) {
        fprintf(stderr, "netlist2svg: %s\n", err.msg);
        rb_netlist_free(nl);
        return 1;
    }
    rb_netlist_free(nl);
    FILE *f = fopen(argv[2], "wb");
    int ok = f && fwrite(svg, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    free(svg);
    if (!ok) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
