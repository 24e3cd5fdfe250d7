// Beyond the diff: find an anchor's base text at the target when diff mapping lost it (its
// lines all deleted, or its file gone). Exact matches first, then matches that differ only in
// whitespace; a unique match is an answer, several are listed, never picked. Pure: lines in.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp {

struct BlockMatch {
    LineNo line = 0;          // first line of the match, 1-based
    bool whitespace = false;  // equal only once whitespace is ignored
};

// A file's lines prepared for searching: as they are, and with whitespace squeezed (made
// once, on the first search that needs it). Build one per file and search it many times.
class Haystack {
  public:
    explicit Haystack(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}
    const std::vector<std::string_view>& lines() const { return lines_; }
    const std::vector<std::string>& squeezed() const;

  private:
    std::vector<std::string_view> lines_;
    mutable std::vector<std::string> squeezed_;
    mutable bool squeezed_made_ = false;
};

// How find_block compares lines: exactly, ignoring whitespace, or exactly first and ignoring
// whitespace only when that found nothing.
enum class Match { Exact, Whitespace, ExactThenWhitespace };

// Every place where `needle` occurs as consecutive whole lines of `haystack`, compared as
// `how` says; ignoring whitespace means leading, trailing and the amount of it between
// words. At most `limit` are returned.
std::vector<BlockMatch> find_block(const Haystack& haystack,
                                   const std::vector<std::string_view>& needle,
                                   std::size_t limit = 11, Match how = Match::ExactThenWhitespace);

// True when a block is specific enough that a unique match means something: some line holds
// at least 8 non-space bytes and the block at least 16, so a lone "}" is never relocated.
bool distinctive(const std::vector<std::string_view>& block);

}  // namespace cp
