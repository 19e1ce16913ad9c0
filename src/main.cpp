#include "cli/cli.h"

int main(int argc, char** argv) { return fathom::cli::run(argc, argv); }
