// How the front end a person or an agent speaks to names its options, so that a message from
// any layer says what to type there: "--target REV" on the command line, "target" over MCP.
// The request carries one; nothing rewrites another front end's wording after the fact.
#pragma once

#include <string>

namespace cp {

struct OptionName {
    std::string name;  // as a message names it: "--target"
    std::string give;  // as a mend says to give it: "--target REV"
};

struct OptionNames {
    OptionName repo{"-C", "-C DIR"};
    OptionName base{"--base", "--base REV"};
    OptionName target{"--target", "--target REV"};
    OptionName at_base{"--at-base", "--at-base"};
    OptionName since{"--since", "--since REV"};
    OptionName only{"--only", "--only ROW"};
    OptionName repin{"--repin", "--repin"};
    OptionName prose{"--prose", "--prose"};
    OptionName max_file_mib{"--max-file-mib", "--max-file-mib N"};
    OptionName max_lines{"--max-lines", "--max-lines N"};
    OptionName max_window_lines{"--max-window-lines", "--max-window-lines N"};
    OptionName max_callers{"--max-callers", "--max-callers N"};
    OptionName max_line_bytes{"--max-line-bytes", "--max-line-bytes N"};
    OptionName callers_in{"--callers-in", "--callers-in PATHSPEC"};
};

// The command line's names, the default of every request.
inline const OptionNames kCommandLineNames{};

}  // namespace cp
