#include "context_pack/app/spec_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "context_pack/core/text.hpp"
#include "context_pack/sys/fs.hpp"

namespace cp {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 16;

// What a file that is not a regular file is, as a message names it.
const char* kind_of(sys::Kind kind) {
    switch (kind) {
        case sys::Kind::directory:
            return "a folder";
        case sys::Kind::fifo:
            return "a pipe or FIFO";
        case sys::Kind::char_device:
            return "a character device";
        case sys::Kind::block_device:
            return "a block device";
        case sys::Kind::socket:
            return "a socket";
        default:
            return "not a regular file";
    }
}

Error too_large(const std::string& shown) {
    return Error{
        fmt::format("{} is over the {} MiB a spec input may be; split it into several spec files",
                    shown, kMaxSpecBytes >> 20)};
}

// At most kMaxSpecBytes of a regular file (it may grow after fstat, or be a /proc file whose
// size says 0).
Result<std::string> read_capped(const sys::File& file, const std::string& name) {
    std::string text;
    while (text.size() <= kMaxSpecBytes) {
        auto old = text.size();
        text.resize(old + kChunk);
        auto n = file.read(text.data() + old, kChunk);
        text.resize(old + std::size_t(std::max<long long>(n, 0)));
        if (n < 0)
            return Error{fmt::format("cannot read spec file {}: {}", name, std::strerror(errno))};
        if (n == 0) break;
    }
    if (text.size() > kMaxSpecBytes) return too_large(name);
    return text;
}

Result<std::string> read_capped(std::istream& in) {
    std::string text;
    while (text.size() <= kMaxSpecBytes && in) {
        auto old = text.size();
        text.resize(old + kChunk);
        in.read(text.data() + old, std::streamsize(kChunk));
        text.resize(old + std::size_t(in.gcount()));
    }
    if (text.size() > kMaxSpecBytes) return too_large("standard input");
    return text;
}

Result<std::vector<Spec>> parse_input(const std::string& text, const std::string& name) {
    bool jsonl = name.size() > 6 && name.ends_with(".jsonl");
    return parse_specs(text, name == "-" ? "<stdin>" : name, jsonl);
}

// Where the file open as `opened` really is: the realpath of `name`, when that is the very
// file (a symlink swapped after the open would name another).
Result<std::string> opened_location(const std::string& name, const sys::FileInfo& opened) {
    auto real = sys::real_path(name);
    if (!real)
        return Error{fmt::format("cannot tell where spec file {} is: {}; give its path as it is",
                                 text::printable(name), std::strerror(errno))};
    auto now = sys::stat(*real);
    if (!now || now->dev != opened.dev || now->ino != opened.ino)
        return Error{fmt::format("spec file {} changed while it was opened; try again",
                                 text::printable(name))};
    return *real;
}

Result<std::vector<Spec>> read_folder(const std::string& name, const SpecGate& gate);

// A spec file, or a folder of them when `folder_ok`. Opened without blocking, so a FIFO
// never waits for a writer, then judged by what the open descriptor is; the gate is asked
// before the open and again, for a file or folder that would be read, of where it really is.
Result<std::vector<Spec>> read_file(const std::string& name, const std::string& where,
                                    bool folder_ok, const char* instead, const SpecGate& gate) {
    if (gate)
        if (auto allowed = gate.admit(name, location_of(name, &gate.within)); !allowed)
            return allowed.error();
    sys::File file = sys::File::open(name, sys::File::nonblocking | sys::File::no_controlling_tty);
    if (!file.is_open())
        return Error{
            fmt::format("cannot read spec file {}: {}{}", name, std::strerror(errno), where)};
    auto info = file.info();
    if (!info)
        return Error{fmt::format("cannot read spec file {}: {}", name, std::strerror(errno))};
    const sys::FileInfo& st = *info;
    const bool folder = st.kind == sys::Kind::directory && folder_ok;
    if (!folder && st.kind != sys::Kind::regular)
        return Error{fmt::format("spec {} is {}, not a regular file; give a .json or .jsonl file{}",
                                 name, kind_of(st.kind), instead)};
    std::optional<std::string> real;  // where it is (the gate's word), else when it can be told
    if (gate) {
        auto location = opened_location(name, st);
        if (!location) return location.error();
        if (auto allowed = gate.admit(name, location.value()); !allowed) return allowed.error();
        real = std::move(location).value();
    }
    if (folder) return read_folder(name, gate);
    if (st.size > kMaxSpecBytes) return too_large(name);
    auto text = read_capped(file, name);
    if (!text) return text.error();
    auto specs = parse_input(text.value(), name);
    if (!real) real = sys::real_path(name);  // only kept out of the callers: never a failure
    if (specs && real)
        for (Spec& spec : specs.value()) spec.file = *real;
    return specs;
}

// A folder of specs (a batch drift report): its .json and .jsonl regular files, by name.
// Other entries (FIFOs, devices, sockets, folders, dangling links) are skipped.
Result<std::vector<Spec>> read_folder(const std::string& name, const SpecGate& gate) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(name, ec)) {
        auto file = entry.path().string();
        if (!(file.ends_with(".json") || file.ends_with(".jsonl"))) continue;
        // An entry that leads out of what the gate lets be read is refused before its kind is
        // asked, which would look where it leads.
        if (gate)
            if (auto allowed = gate.admit(file, location_of(file, &gate.within)); !allowed)
                return allowed.error();
        std::error_code type_ec;
        if (entry.is_regular_file(type_ec) && (file.ends_with(".json") || file.ends_with(".jsonl")))
            files.push_back(file);
    }
    if (ec) return Error{fmt::format("cannot list spec folder {}: {}", name, ec.message())};
    if (files.empty())
        return Error{fmt::format(
            "{} is a folder with no .json or .jsonl spec files; give a spec file", name)};
    std::sort(files.begin(), files.end());
    std::vector<Spec> specs;
    for (const auto& file : files) {
        // Not a folder, even if one was swapped in since the listing.
        auto parsed = read_file(file, "", false, "", gate);
        if (!parsed) return parsed.error();
        for (auto& spec : parsed.value()) specs.push_back(std::move(spec));
    }
    return specs;
}

}  // namespace

namespace {

// Resolves `absolute` one component at a time, looking only at places inside `within` or
// on the way to one of them.
std::string resolve_within(const std::filesystem::path& absolute,
                           const std::vector<std::string>& within) {
    namespace fs = std::filesystem;
    auto may_look = [&](const std::string& place) {
        return std::any_of(within.begin(), within.end(), [&](const std::string& dir) {
            return at_or_under(place, dir) || at_or_under(dir, place);
        });
    };
    std::vector<std::string> rest;  // components still to walk, last first
    auto push_front = [&](const fs::path& p) {
        std::vector<std::string> parts;
        for (const auto& part : p.relative_path()) parts.push_back(part.string());
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) rest.push_back(*it);
    };
    push_front(absolute);
    std::string at = "/";
    int hops = 0;
    auto joined = [&](const std::string& base) {
        fs::path out(base);
        for (auto it = rest.rbegin(); it != rest.rend(); ++it) out /= *it;
        return out.lexically_normal().string();
    };
    while (!rest.empty()) {
        std::string part = rest.back();
        rest.pop_back();
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            at = fs::path(at).parent_path().string();
            continue;
        }
        std::string next = (fs::path(at) / part).string();
        if (!may_look(next)) {  // left them: never looked at
            rest.push_back(part);
            return joined(at);
        }
        auto st = sys::lstat(next);
        if (!st) {  // missing: the rest as written
            rest.push_back(part);
            return joined(at);
        }
        if (st->kind != sys::Kind::symlink) {
            at = next;
            continue;
        }
        auto link = sys::read_link(next);
        if (!link || link->empty() || ++hops > 40) {  // unreadable, or a loop: where it stands
            rest.push_back(part);
            return joined(at);
        }
        const std::string& target = *link;
        if (target.front() == '/') at.assign(1, '/');  // (not at = "/": g++ 12 warns falsely)
        push_front(fs::path(target));  // a relative target starts in the link's directory
    }
    return at;
}

}  // namespace

bool at_or_under(const std::string& path, const std::string& dir) {
    return dir == "/" || path == dir ||
           (path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/');
}

std::string location_of(const std::string& path, const std::vector<std::string>* within) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    if (ec) absolute = fs::path(path);
    std::string out;
    if (!within) {
        fs::path resolved = fs::weakly_canonical(absolute, ec);
        if (ec) resolved = absolute.lexically_normal();
        out = resolved.string();
    } else {
        out = resolve_within(absolute, *within);
    }
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

Result<std::vector<Spec>> read_spec_input(const std::string& name, std::istream* in,
                                          const std::string& where, const SpecGate& gate) {
    // open() would stop at the NUL and read another file than the one named.
    if (name.find('\0') != std::string::npos)
        return Error{fmt::format(
            "spec path '{}' holds a NUL byte, which no file name can; give the path without it",
            text::printable(name))};
    if (name == "-" && in) {
        auto text = read_capped(*in);
        if (!text) return text.error();
        return parse_input(text.value(), name);
    }
    return read_file(name, where, true, in ? ", or - to read standard input" : "", gate);
}

}  // namespace cp
