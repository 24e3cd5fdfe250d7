#include <iostream>

#include "context_pack/app/cli.hpp"

int main(int argc, char** argv) {
    return cp::cli::run(argc, argv, std::cin, std::cout, std::cerr);
}
