#include <iostream>

#include "context_pack/app/cli.hpp"
#include "context_pack/sys/memory.hpp"
#include "context_pack/sys/terminal.hpp"

int main(int argc, char** argv) {
    cp::sys::keep_freed_memory();
    cp::sys::utf8_arguments(argc, argv);
    cp::sys::binary_stdio();
    return cp::cli::run(argc, argv, std::cin, std::cout, std::cerr);
}
