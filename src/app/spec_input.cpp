#include "context_pack/app/spec_input.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cp {

Result<std::vector<Spec>> read_spec_input(const std::string& name, std::istream& in,
                                          const std::string& where) {
    std::ostringstream buf;
    if (name == "-") {
        buf << in.rdbuf();
    } else {
        struct stat st {};
        if (::stat(name.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
            // A folder of specs (a batch drift report): its .json and .jsonl files, by name.
            std::vector<std::string> files;
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator(name, ec)) {
                auto file = entry.path().string();
                if (entry.is_regular_file() &&
                    (file.ends_with(".json") || file.ends_with(".jsonl")))
                    files.push_back(file);
            }
            if (ec) return Error{fmt::format("cannot list spec folder {}: {}", name, ec.message())};
            if (files.empty())
                return Error{fmt::format(
                    "{} is a folder with no .json or .jsonl spec files; give a spec file", name)};
            std::sort(files.begin(), files.end());
            std::vector<Spec> specs;
            for (const auto& file : files) {
                auto parsed = read_spec_input(file, in, where);
                if (!parsed) return parsed.error();
                for (auto& spec : parsed.value()) specs.push_back(std::move(spec));
            }
            return specs;
        }
        std::ifstream file(name, std::ios::binary);
        if (!file)
            return Error{
                fmt::format("cannot read spec file {}: {}{}", name, std::strerror(errno), where)};
        buf << file.rdbuf();
    }
    bool jsonl = name.size() > 6 && name.ends_with(".jsonl");
    return parse_specs(buf.str(), name == "-" ? "<stdin>" : name, jsonl);
}

}  // namespace cp
