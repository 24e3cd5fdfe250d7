// The standard streams and the command line: whether a stream is a terminal, binary output,
// arguments in UTF-8 (src/sys/posix.cpp, src/sys/windows.cpp).
#pragma once

namespace cp::sys {

enum class Stream { out, err };

bool is_terminal(Stream stream);

// The width in columns of the terminal `stream` is, or 0 where it cannot be told (not a
// terminal, or a terminal that does not say, as Git Bash's pipe).
unsigned terminal_width(Stream stream);

// Standard input and output in binary mode, so that "\n" is written as it is (Windows would
// turn it into "\r\n") and input is read unchanged; nothing to do on POSIX.
void binary_stdio();

// The program's arguments in UTF-8, replacing main's `argc` and `argv`: Windows gives main
// them in the ANSI code page, so they are taken again from the UTF-16 command line there;
// nothing to do on POSIX, where they are the bytes given.
void utf8_arguments(int& argc, char**& argv);

}  // namespace cp::sys
