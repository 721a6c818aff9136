/* cli/main.c - the gotcha program: everything but main() lives in the rest of cli/. */
#include <stdio.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
    return cli_close_stdout(cli_run(argc, argv, stdout, stderr));
}
