// The standard streams: whether one is a terminal, and binary output (src/sys/posix.cpp,
// src/sys/windows.cpp).
#pragma once

namespace cp::sys {

enum class Stream { out, err };

bool is_terminal(Stream stream);

// Standard input and output in binary mode, so that "\n" is written as it is (Windows would
// turn it into "\r\n") and input is read unchanged; nothing to do on POSIX.
void binary_stdio();

}  // namespace cp::sys
