#include "context_pack/git/rename.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "context_pack/core/text.hpp"

namespace cp::rename {
namespace {

using Fingerprint = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

constexpr std::uint32_t kHashBase = 107927;
constexpr int kCandidatesPerTarget = 4;

// True when both paths end in the same basename (git's basename_same).
bool same_basename(std::string_view a, std::string_view b) {
    return basename(a) == basename(b);
}

// The byte counts both fingerprints share (git's diffcore_count_changes, src_copied).
std::uint64_t copied(const Fingerprint& src, const Fingerprint& dst) {
    std::uint64_t sc = 0;
    auto d = dst.begin();
    for (const auto& [hash, src_cnt] : src) {
        while (d != dst.end() && d->first < hash) ++d;
        std::uint32_t dst_cnt = 0;
        if (d != dst.end() && d->first == hash) dst_cnt = (d++)->second;
        sc += std::min(src_cnt, dst_cnt);
    }
    return sc;
}

// git rejects a pair before reading it when the sizes alone rule out minimum_score.
bool sizes_allow(std::uint64_t a, std::uint64_t b, int minimum_score) {
    double max_size = static_cast<double>(std::max(a, b));
    double delta = static_cast<double>(std::max(a, b) - std::min(a, b));
    return !(max_size * (kMaxScore - minimum_score) < delta * kMaxScore);
}

int score_of(std::uint64_t copied_bytes, std::uint64_t max_size) {
    if (max_size == 0) return 0;
    return static_cast<int>(static_cast<double>(copied_bytes) * kMaxScore /
                            static_cast<double>(max_size));
}

struct Score {
    int source = -1;
    int target = -1;  // -1: an unused slot
    int score = 0;
    int name_score = 0;
};

// git's score_compare: used slots first, then higher score, then same basename.
bool better(const Score& a, const Score& b) {
    if (a.target < 0 || b.target < 0) return a.target >= 0 && b.target < 0;
    if (a.score != b.score) return a.score > b.score;
    return a.name_score > b.name_score;
}

class Detector {
  public:
    Detector(const std::vector<Candidate>& sources, const std::vector<Candidate>& targets,
             Files& files, const Options& options)
        : sources_(sources),
          targets_(targets),
          files_(files),
          options_(options),
          source_used_(sources.size()),
          target_done_(targets.size()),
          prints_{std::vector<std::optional<Fingerprint>>(sources.size()),
                  std::vector<std::optional<Fingerprint>>(targets.size())} {}

    Detection run() {
        if (sources_.empty() || targets_.empty()) return {};
        if (options_.only_sources) return run_restricted(*options_.only_sources);
        full();
        return {pairs_, skipped_};
    }

  private:
    void full() {
        exact();
        if (options_.minimum_score >= kMaxScore) return;
        by_basename();
        matrix();
    }

    // The full detection's pairs of the listed sources (see detect_renames in rename.hpp).
    Detection run_restricted(const std::vector<std::size_t>& only) {
        std::vector<bool> listed(sources_.size());
        for (std::size_t s : only) listed.at(s) = true;
        exact();
        bool scored_all = false;
        if (options_.minimum_score < kMaxScore && !restricted(listed)) {
            // Undecided: the whole matrix, over the fingerprints already made.
            source_used_.assign(sources_.size(), false);
            target_done_.assign(targets_.size(), false);
            pairs_.clear();
            skipped_.reset();
            full();
            scored_all = true;
        }
        std::erase_if(pairs_, [&](const Pair& p) { return !listed[p.source]; });
        return {pairs_, skipped_, scored_all};
    }

    // False when what lies outside the columns scored could change the answer.
    bool restricted(const std::vector<bool>& listed) {
        basename_maps();
        record_basename_pairs([&](std::size_t s) { return listed[s]; });
        // The limit is met on what the basename pass leaves: where it may bite, every pair of
        // that pass is made, for the counts.
        auto left = [](const std::vector<bool>& taken) {
            return double(std::count(taken.begin(), taken.end(), false));
        };
        const double limit = static_cast<double>(options_.limit);
        if (options_.limit > 0 && left(source_used_) * left(target_done_) > limit * limit) {
            record_basename_pairs([](std::size_t) { return true; });
            std::size_t sources = std::size_t(left(source_used_));
            std::size_t targets = std::size_t(left(target_done_));
            if (sources == 0 || targets == 0) return true;
            if (double(sources) * double(targets) > limit * limit) {
                skipped_ = Skipped{sources, targets, options_.limit, std::max(sources, targets)};
                return true;
            }
        }
        auto in_matrix = [&](std::size_t s) { return !source_used_[s] && !basename_paired(s); };
        // Whether `s` scores at least `score` on `t`, a target the full matrix holds.
        auto reaches = [&](std::size_t s, std::size_t t, int score) {
            return !target_done_[t] && estimate(s, t) >= score && !target_taken(t);
        };

        // The targets a listed source may take: its score there reaches the minimum.
        std::vector<bool> column(targets_.size());
        for (std::size_t s = 0; s < sources_.size(); ++s) {
            if (!listed[s] || !in_matrix(s)) continue;
            for (std::size_t t = 0; t < targets_.size(); ++t)
                if (!column[t] && reaches(s, t, options_.minimum_score)) column[t] = true;
        }
        if (std::find(column.begin(), column.end(), true) == column.end()) return true;

        // Their columns in full, as the full matrix keeps them, and the greedy play over them.
        std::vector<std::size_t> sources;
        for (std::size_t s = 0; s < sources_.size(); ++s)
            if (in_matrix(s)) sources.push_back(s);
        std::vector<Score> mx;
        for (std::size_t t = 0; t < targets_.size(); ++t)
            if (column[t]) best_sources(sources, t, mx);
        std::stable_sort(mx.begin(), mx.end(), better);
        const std::vector<Score> chosen = play(mx);
        // An unlisted source the play gives a target could have taken another one first,
        // outside the columns, only with a score at least as high there.
        for (const Score& m : chosen) {
            auto s = std::size_t(m.source);
            if (listed[s]) continue;
            for (std::size_t t = 0; t < targets_.size(); ++t)
                if (!column[t] && reaches(s, t, m.score)) return false;
        }
        for (const Score& m : chosen) record(std::size_t(m.source), std::size_t(m.target), m.score);
        return true;
    }

    void record(std::size_t s, std::size_t t, int score) {
        pairs_.push_back({s, t, score});
        source_used_[s] = true;
        target_done_[t] = true;
    }

    // Exact renames: for each target, the first unused source with its content id,
    // preferring one with the same basename.
    void exact() {
        std::unordered_map<std::string, std::vector<std::size_t>> by_id;
        for (std::size_t s = 0; s < sources_.size(); ++s)
            by_id[files_.content_id(Side::Source, s)].push_back(s);
        for (std::size_t t = 0; t < targets_.size(); ++t) {
            auto it = by_id.find(files_.content_id(Side::Target, t));
            if (it == by_id.end()) continue;
            std::optional<std::size_t> best;
            int best_score = -1, tries = 100;
            for (std::size_t s : it->second) {
                if (sources_[s].regular != targets_[t].regular) continue;
                if (source_used_[s]) continue;
                int score = 1 + same_basename(sources_[s].path, targets_[t].path);
                if (score > best_score) {
                    best = s;
                    best_score = score;
                    if (score == 2) break;
                }
                if (!--tries) break;
            }
            if (best) record(*best, t, kMaxScore);
        }
    }

    const Fingerprint& print(Side side, std::size_t i) {
        auto& slot = prints_[side == Side::Source ? 0 : 1][i];
        if (!slot) {
            auto bytes = files_.bytes(side, i);
            slot = span_hashes(bytes, !text::looks_binary(bytes));
        }
        return *slot;
    }

    int estimate(std::size_t s, std::size_t t) {
        if (!sources_[s].regular || !targets_[t].regular) return 0;
        auto a = files_.size(Side::Source, s), b = files_.size(Side::Target, t);
        if (!sizes_allow(a, b, options_.minimum_score)) return 0;
        return score_of(copied(print(Side::Source, s), print(Side::Target, t)), std::max(a, b));
    }

    // Sources and targets whose basenames are unique on both sides pair at 75%. Each such
    // basename names one source and one target, so the pairs do not depend on each other.
    void by_basename() {
        basename_maps();
        record_basename_pairs([](std::size_t) { return true; });
    }

    // The basename pass's pairs of the sources `wanted` names that are not paired yet.
    template <class Wanted>
    void record_basename_pairs(const Wanted& wanted) {
        for (std::size_t s = 0; s < sources_.size(); ++s)
            if (wanted(s) && !source_used_[s] && basename_paired(s))
                record(s, *basename_partner(s), basename_score_[s]);
    }

    // git's greedy choice over candidate pairs sorted best first: each pair whose source and
    // target are both still free, down to the minimum score. Records nothing.
    std::vector<Score> play(const std::vector<Score>& sorted) const {
        std::vector<bool> used = source_used_, done = target_done_;
        std::vector<Score> chosen;
        for (const Score& m : sorted) {
            if (m.target < 0 || m.score < options_.minimum_score) break;
            auto t = std::size_t(m.target), s = std::size_t(m.source);
            if (done[t] || used[s]) continue;
            used[s] = done[t] = true;
            chosen.push_back(m);
        }
        return chosen;
    }

    // The unique basenames of the sources and targets left after exact renames.
    void basename_maps() {
        source_of_.clear();
        target_of_.clear();
        basename_score_.assign(sources_.size(), -1);
        for (std::size_t s = 0; s < sources_.size(); ++s) {
            if (source_used_[s]) continue;
            auto [it, added] = source_of_.try_emplace(basename(sources_[s].path), long(s));
            if (!added) it->second = -1;
        }
        for (std::size_t t = 0; t < targets_.size(); ++t) {
            if (target_done_[t]) continue;
            auto [it, added] = target_of_.try_emplace(basename(targets_[t].path), long(t));
            if (!added) it->second = -1;
        }
    }

    // The target that alone shares the basename `s` alone has, if any.
    std::optional<std::size_t> basename_partner(std::size_t s) const {
        auto base = basename(sources_[s].path);
        auto src = source_of_.find(base);
        auto dst = target_of_.find(base);
        if (src == source_of_.end() || src->second != long(s) || dst == target_of_.end() ||
            dst->second < 0)
            return std::nullopt;
        return static_cast<std::size_t>(dst->second);
    }

    // Whether the basename pass pairs `s` (its score kept in basename_score_).
    bool basename_paired(std::size_t s) {
        auto t = basename_partner(s);
        if (!t) return false;
        if (basename_score_[s] < 0) basename_score_[s] = estimate(s, *t);
        int minimum = options_.minimum_score + (kMaxScore - options_.minimum_score) / 2;
        return basename_score_[s] >= minimum;
    }

    // Whether the basename pass gives `t` to a source.
    bool target_taken(std::size_t t) {
        auto src = source_of_.find(basename(targets_[t].path));
        return src != source_of_.end() && src->second >= 0 &&
               basename_partner(std::size_t(src->second)) == t &&
               basename_paired(std::size_t(src->second));
    }

    // The best four of `sources` for target `t`, as the full matrix keeps them, onto `mx`.
    void best_sources(const std::vector<std::size_t>& sources, std::size_t t,
                      std::vector<Score>& mx) {
        mx.resize(mx.size() + kCandidatesPerTarget);
        Score* m = &mx[mx.size() - kCandidatesPerTarget];
        for (std::size_t s : sources) {
            Score o{int(s), int(t), estimate(s, t),
                    same_basename(sources_[s].path, targets_[t].path)};
            int worst = 0;
            for (int i = 1; i < kCandidatesPerTarget; ++i)
                if (better(m[worst], m[i])) worst = i;
            if (better(o, m[worst])) m[worst] = o;
        }
    }

    // The rest: the best four sources per target, then the best pairs overall.
    void matrix() {
        std::vector<std::size_t> sources, targets;
        for (std::size_t s = 0; s < sources_.size(); ++s)
            if (!source_used_[s]) sources.push_back(s);
        for (std::size_t t = 0; t < targets_.size(); ++t)
            if (!target_done_[t]) targets.push_back(t);
        if (sources.empty() || targets.empty()) return;
        if (options_.limit > 0 && static_cast<double>(sources.size()) * targets.size() >
                                      static_cast<double>(options_.limit) * options_.limit) {
            // git skips inexact detection over the limit, and advises the larger count.
            skipped_ = Skipped{sources.size(), targets.size(), options_.limit,
                               std::max(sources.size(), targets.size())};
            return;
        }

        std::vector<Score> mx;
        mx.reserve(targets.size() * kCandidatesPerTarget);
        for (std::size_t t : targets) best_sources(sources, t, mx);
        std::stable_sort(mx.begin(), mx.end(), better);
        for (const Score& m : play(mx))
            record(std::size_t(m.source), std::size_t(m.target), m.score);
    }

    const std::vector<Candidate>& sources_;
    const std::vector<Candidate>& targets_;
    Files& files_;
    Options options_;
    std::vector<bool> source_used_, target_done_;
    std::vector<std::optional<Fingerprint>> prints_[2];
    std::vector<Pair> pairs_;
    std::optional<Skipped> skipped_;
    // The basename pass: unique basenames (-1: not unique), and each source's score with its
    // partner (-1: not scored yet).
    std::map<std::string_view, long> source_of_, target_of_;
    std::vector<int> basename_score_;
};

}  // namespace

std::string_view basename(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

Fingerprint span_hashes(std::string_view bytes, bool text) {
    std::unordered_map<std::uint32_t, std::uint32_t> counts;
    std::uint32_t accum1 = 0, accum2 = 0;
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::uint32_t c = static_cast<unsigned char>(bytes[i]);
        std::uint32_t old1 = accum1;
        if (text && c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') continue;
        accum1 = (accum1 << 7) ^ (accum2 >> 25);
        accum2 = (accum2 << 7) ^ (old1 >> 25);
        accum1 += c;
        if (++n < 64 && c != '\n') continue;
        counts[(accum1 + accum2 * 0x61) % kHashBase] += n;
        n = 0;
        accum1 = accum2 = 0;
    }
    // git 2.39 drops a final chunk that has no newline and is shorter than 64 bytes.
    Fingerprint out(counts.begin(), counts.end());
    std::sort(out.begin(), out.end());
    return out;
}

int similarity(std::string_view source, std::string_view target, int minimum_score) {
    if (!sizes_allow(source.size(), target.size(), minimum_score)) return 0;
    auto a = span_hashes(source, !text::looks_binary(source));
    auto b = span_hashes(target, !text::looks_binary(target));
    return score_of(copied(a, b), std::max(source.size(), target.size()));
}

Detection detect_renames(const std::vector<Candidate>& sources,
                         const std::vector<Candidate>& targets, Files& files,
                         const Options& options) {
    return Detector(sources, targets, files, options).run();
}

std::vector<Pair> find_renames(const std::vector<Candidate>& sources,
                               const std::vector<Candidate>& targets, Files& files,
                               const Options& options) {
    return detect_renames(sources, targets, files, options).pairs;
}

}  // namespace cp::rename
