// The content cache: blobs kept within a budget, the least recently used given up first, and
// bytes handed out that stay alive for whoever holds them after the cache gives them up.
#include <map>
#include <string>

#include "context_pack/resolve/content.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::Repo;

namespace {

struct Blobs {
    Repo repo;
    std::map<std::string, std::string> id;  // name -> blob id
    std::map<std::string, std::string> bytes;

    Blobs() {
        for (std::string name : {"a", "b", "c", "big"}) {
            bytes[name] = std::string(name == "big" ? 5000 : 1000, name[0]) + "\n";
            repo.write(name + ".txt", bytes[name]);
        }
        repo.commit("blobs");
        for (const auto& [name, text] : bytes) {
            std::string hex = repo.git("rev-parse HEAD:" + name + ".txt");
            id[name] = hex.substr(0, hex.find('\n'));
        }
    }
};

}  // namespace

TEST_CASE("the content cache keeps blobs within its budget, least recently used out first") {
    Blobs b;
    auto opened = cp::git::Repository::open(b.repo.dir());
    REQUIRE(opened.ok());
    cp::Content content(opened.value(), 2500);  // room for two of a, b and c (1001 bytes each)
    auto read = [&](const std::string& name) {
        auto got = content.blob(b.id[name]);
        REQUIRE(got.ok());
        REQUIRE(got.value());
        CHECK(*got.value() == b.bytes[name]);
        return got.value();
    };
    cp::Bytes a = read("a");
    read("b");
    CHECK(content.held(b.id["a"]));
    CHECK(content.held(b.id["b"]));
    read("a");  // now the most recent: b goes first
    read("c");
    CHECK(content.held(b.id["a"]));
    CHECK_FALSE(content.held(b.id["b"]));
    CHECK(content.held(b.id["c"]));
    CHECK(content.kept_bytes() == 2002);
    CHECK(content.peak_bytes() == 2002);

    // Over the budget alone, a blob is kept by itself; what is held outside stays whole.
    read("big");
    CHECK(content.held(b.id["big"]));
    CHECK_FALSE(content.held(b.id["a"]));
    CHECK_FALSE(content.held(b.id["c"]));
    CHECK(content.kept_bytes() == 5001);
    CHECK(*a == b.bytes["a"]);

    // Given up, read again: the same bytes.
    CHECK(read("a").get() != a.get());
    CHECK(content.held(b.id["a"]));
    CHECK_FALSE(content.held(b.id["big"]));

    // A blob the pool read is kept like one read here, unless one is kept already.
    content.adopt(b.id["b"], b.bytes["b"]);
    CHECK(content.held(b.id["b"]));
    content.adopt(b.id["b"], "other bytes");
    CHECK(*read("b") == b.bytes["b"]);
}

TEST_CASE("a content cache of no bytes keeps only the blob last read") {
    Blobs b;
    auto opened = cp::git::Repository::open(b.repo.dir());
    REQUIRE(opened.ok());
    cp::Content content(opened.value(), 0);
    for (std::string name : {"a", "b", "c"}) {
        auto got = content.blob(b.id[name]);
        REQUIRE(got.ok());
        CHECK(*got.value() == b.bytes[name]);
        CHECK(content.held(b.id[name]));
        CHECK(content.kept_bytes() == b.bytes[name].size());
    }
    CHECK_FALSE(content.held(b.id["a"]));
    // A path at a commit goes through the same cache.
    auto file = content.file(b.repo.head(), "a.txt");
    REQUIRE(file.ok());
    CHECK(*file.value() == b.bytes["a"]);
    CHECK_FALSE(content.held(b.id["c"]));
}
